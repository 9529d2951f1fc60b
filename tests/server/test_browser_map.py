"""The page's Map button, in a real headless Chromium against ``codeagent serve``: the map the
server gives (``GET /v1/map``) drawn as a tree in the viewer pane, each line opening its
lines. Runs with the browser tests (``make test-browser``)."""

from __future__ import annotations

from typing import Any

import pytest

from server_helpers import client

pytestmark = pytest.mark.browser


def test_the_map_button_draws_the_map_and_a_definition_opens_its_lines(
    served_repo: Any, make_browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    served, _root = served_repo
    expected = client.get(f"{served.url}/v1/map", params={"budget": 1024}).json()
    driver = make_browser()
    driver.get(served.url + "/")
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#repo option"))
    driver.find_element(By.ID, "map").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#viewer .map-file"))
    files = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#viewer .map-file")]
    assert files == [f["path"] for f in expected["files"]]
    rows = driver.find_elements(By.CSS_SELECTOR, "#viewer .map-def")
    wanted = [d for f in expected["files"] for d in f["definitions"]]
    assert len(rows) == len(wanted)
    for row, d in zip(rows, wanted, strict=True):
        assert row.text.endswith(d["signature"])
        assert row.text[: -len(d["signature"])].strip(" │") in ("├──", "└──")
    title = f"{expected['files'][0]['path']}:{wanted[0]['line']}-{wanted[0]['end_line']}"
    rows[0].click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "viewer-title"), title))
