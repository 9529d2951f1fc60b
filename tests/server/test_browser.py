"""The web page in a real headless Chromium (Debian's `chromium` + `chromium-driver`): pick a
repository, ask, watch the answer stream in, click a citation and see the cited lines."""

from __future__ import annotations

from typing import Any

import pytest

from server_helpers import client

pytestmark = pytest.mark.browser


def test_ask_and_open_a_citation(served_repo: Any, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    served, root = served_repo
    question = "list the methods of Square in geo/shapes.py"
    expected = client.post(f"{served.url}/v1/ask", json={"question": question}).json()
    wait = WebDriverWait(browser, 30)

    browser.get(served.url + "/")
    wait.until(lambda d: Select(d.find_element(By.ID, "repo")).options)
    Select(browser.find_element(By.ID, "repo")).select_by_value("geo-repo")
    browser.find_element(By.ID, "question").send_keys(question)
    browser.find_element(By.ID, "ask").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "answered"))

    # textContent, not .text: the answer keeps its exact whitespace.
    answer = browser.find_element(By.ID, "answer").get_attribute("textContent")
    assert answer == expected["answer"]
    links = browser.find_elements(By.CSS_SELECTOR, "#sources a.source")
    wanted = [f"{s['path']}:{s['start_line']}-{s['end_line']}" for s in expected["sources"]]
    assert [a.text for a in links] == wanted

    links[0].click()
    first = expected["sources"][0]
    wait.until(ec.text_to_be_present_in_element((By.ID, "viewer-title"), wanted[0]))
    rows = browser.find_elements(By.CSS_SELECTOR, "#viewer .line")
    file_lines = (root / first["path"]).read_text().splitlines()
    want_rows = file_lines[first["start_line"] - 1 : first["end_line"]]
    got_rows = [r.get_attribute("textContent") for r in rows]
    numbers = [r.find_element(By.CSS_SELECTOR, ".n").text for r in rows]
    assert numbers == [str(n) for n in range(first["start_line"], first["end_line"] + 1)]
    assert [g[len(n) :] for g, n in zip(got_rows, numbers, strict=True)] == want_rows
