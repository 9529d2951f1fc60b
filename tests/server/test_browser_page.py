"""The web page as someone uses it, in a real headless Chromium against ``codeagent serve``:
Enter asks, the route and a fallback stand above the answer in view, Python is highlighted
in the answer and the source viewer, the viewer follows the current answer, an LLM's answer
streams in token by token, and nothing the page loads is missing (its favicon included).

Screenshots of what was checked go to ``tmp_path`` (or to ``$CODEAGENT_SCREENSHOTS``)."""

from __future__ import annotations

import io
import itertools
import json
import keyword
import os
import struct
import tokenize
from pathlib import Path
from typing import Any

import pytest

from ollama_stub import OllamaStub, Reply
from server_helpers import FILES, client

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1200, 800
MODEL = "qwen2.5-coder:7b"


def open_page(make_browser: Any, url: str) -> Any:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = make_browser()
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
    )
    driver.get(url + "/")
    WebDriverWait(driver, 30).until(lambda d: Select(d.find_element(By.ID, "repo")).options)
    return driver


def ask(driver: Any, question: str) -> None:
    """Type the question and press Enter (no click); wait for this question's answer."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    box = driver.find_element(By.ID, "question")
    box.clear()
    driver.execute_script("document.getElementById('status').textContent = ''")
    box.send_keys(question, Keys.ENTER)
    WebDriverWait(driver, 60).until(ec.text_to_be_present_in_element((By.ID, "status"), "answered"))


def rect(driver: Any, element_id: str) -> dict[str, float]:
    script = "return document.getElementById(arguments[0]).getBoundingClientRect().toJSON()"
    box: dict[str, float] = driver.execute_script(script, element_id)
    return box


def in_view(driver: Any, element_id: str) -> bool:
    box = rect(driver, element_id)
    height = driver.execute_script("return window.innerHeight")
    return bool(box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= height)


def screenshot(driver: Any, tmp_path: Path, name: str) -> Path:
    """Save a screenshot; check it is a PNG of the window's size with something in it."""
    folder = Path(os.environ.get("CODEAGENT_SCREENSHOTS") or tmp_path)
    path = folder / name
    assert driver.save_screenshot(str(path))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (WIDTH, HEIGHT)
    assert 15_000 < len(data) < 200_000  # a page with text on it, small enough for docs/
    return path


def texts(driver: Any, selector: str) -> list[str]:
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return [e.get_attribute("textContent") for e in found]


def python_truth(source: str) -> tuple[list[str], list[str]]:
    """Keywords and the names that def/class introduce, by Python's own tokenizer."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    words = [t.string for t in tokens if t.type == tokenize.NAME]
    keywords = [w for w in words if keyword.iskeyword(w)]
    defined = [b for a, b in itertools.pairwise(words) if a in ("def", "class")]
    return keywords, defined


def statuses(driver: Any, port: int) -> list[tuple[str, int]]:
    """(path, status) of every response from the server in the browser's network log."""
    urls: dict[str, str] = {}
    got: dict[str, int] = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.requestWillBeSent":
            urls[params["requestId"]] = params["request"]["url"]
        elif message["method"] == "Network.responseReceived":
            got[params["requestId"]] = int(params["response"]["status"])
    prefix = f"http://127.0.0.1:{port}"
    return sorted(
        (url.removeprefix(prefix), got[rid])
        for rid, url in urls.items()
        if url.startswith(prefix) and rid in got
    )


def test_enter_asks_and_shift_enter_makes_a_new_line(served_repo: Any, make_browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    served, _root = served_repo
    driver = open_page(make_browser, served.url)
    hint = driver.find_element(By.ID, "hint")
    assert hint.is_displayed()
    assert "Shift" in hint.text
    assert "Enter" in hint.text

    box = driver.find_element(By.ID, "question")
    box.send_keys("list the methods of Square")
    box.send_keys(Keys.SHIFT, Keys.ENTER, Keys.NULL)
    box.send_keys("in geo/shapes.py")
    assert box.get_attribute("value") == "list the methods of Square\nin geo/shapes.py"
    asked = [p for p, _s in statuses(driver, served.port) if p == "/v1/ask"]
    assert asked == []
    assert driver.find_element(By.ID, "answer").get_attribute("textContent") == ""

    assert driver.find_element(By.ID, "status").text == "1 repository"  # not asked yet

    box.send_keys(Keys.ENTER)
    WebDriverWait(driver, 60).until(ec.text_to_be_present_in_element((By.ID, "status"), "answered"))
    # The question went as typed, its new line included.
    question = "list the methods of Square\nin geo/shapes.py"
    expected = client.post(f"{served.url}/v1/ask", json={"question": question}).json()
    assert driver.find_element(By.ID, "answer").get_attribute("textContent") == expected["answer"]
    assert [p for p, _s in statuses(driver, served.port) if p == "/v1/ask"] == ["/v1/ask"]


def test_the_token_placeholder_is_not_cut_and_the_favicon_is_served(
    served_repo: Any, make_browser: Any
) -> None:
    served, _root = served_repo
    driver = open_page(make_browser, served.url)
    needed, room = driver.execute_script(
        """
        const el = document.getElementById("token"), cs = getComputedStyle(el);
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = cs.font;
        const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return [ctx.measureText(el.placeholder).width, room];
        """
    )
    assert 0 < needed <= room

    driver.set_script_timeout(30)
    icon = driver.execute_async_script(
        """
        const done = arguments[0];
        fetch("/favicon.ico").then(async (r) =>
          done([r.status, r.headers.get("content-type"), await r.text()]));
        """
    )
    assert icon[0] == 200
    assert icon[1] == "image/svg+xml"
    assert icon[2].startswith("<svg")
    ask(driver, "list the methods of Square in geo/shapes.py")
    seen = statuses(driver, served.port)
    assert ("/", 200) in seen
    assert all(status < 400 for _path, status in seen), seen


def test_route_and_fallback_stand_above_the_answer(
    served_repo: Any, make_browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    served, _root = served_repo
    question = "list the classes in geo/missing.py"
    expected = client.post(f"{served.url}/v1/ask", json={"question": question}).json()
    assert expected["fallback"]  # the question names a file that is not there
    driver = open_page(make_browser, served.url)
    ask(driver, question)

    route = driver.find_element(By.ID, "route")
    fallback = driver.find_element(By.ID, "fallback")
    answer = driver.find_element(By.ID, "answer")
    for element in (route, fallback, answer):
        assert element.is_displayed()
    assert f"Answered by {expected['route']['tool']}" in route.text
    assert f"decided by {expected['route']['decided_by']}" in route.text
    assert expected["route"]["reason"] in route.text
    failed = expected["fallback"]
    assert fallback.text == f"Fallback from {failed['from']} to {failed['to']}: {failed['reason']}"
    assert answer.get_attribute("textContent") == expected["answer"]
    assert rect(driver, "route")["top"] < rect(driver, "fallback")["top"]
    assert rect(driver, "fallback")["bottom"] <= rect(driver, "answer")["top"]
    assert in_view(driver, "route")
    assert in_view(driver, "fallback")
    screenshot(driver, tmp_path, "page-fallback.png")


def test_highlighting_and_a_viewer_that_follows_the_answer(
    served_repo: Any, make_browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    served, root = served_repo
    driver = open_page(make_browser, served.url)
    wait = WebDriverWait(driver, 30)
    shapes = (root / "geo/shapes.py").read_text().splitlines()

    # A structural answer: its listing is code, the signatures highlighted; the viewer opens
    # the first source by itself.
    question = "list the methods of Square in geo/shapes.py"
    expected = client.post(f"{served.url}/v1/ask", json={"question": question}).json()
    ask(driver, question)
    assert driver.find_element(By.ID, "answer").get_attribute("textContent") == expected["answer"]
    assert texts(driver, "#answer .code .hl-k") == ["def", "def"]
    assert texts(driver, "#answer .code .hl-f") == ["__init__", "area"]
    assert in_view(driver, "route")
    assert rect(driver, "route")["bottom"] <= rect(driver, "answer")["top"]
    first = expected["sources"][0]
    wanted = f"{first['path']}:{first['start_line']}-{first['end_line']}"
    wait.until(ec.text_to_be_present_in_element((By.ID, "viewer-title"), wanted))
    screenshot(driver, tmp_path, "page-answer.png")

    # An answer without sources empties the viewer.
    ask(driver, "list the classes in geo/__init__.py")
    assert driver.find_elements(By.CSS_SELECTOR, "#sources a.source") == []
    assert driver.find_elements(By.CSS_SELECTOR, "#viewer .line") == []
    assert wanted not in driver.find_element(By.ID, "viewer-title").text

    # A search answer: the viewer shows its first source, highlighted as Python's own
    # tokenizer reads those lines.
    question = "how is the area of a square computed?"
    expected = client.post(f"{served.url}/v1/ask", json={"question": question}).json()
    ask(driver, question)
    first = expected["sources"][0]
    wanted = f"{first['path']}:{first['start_line']}-{first['end_line']}"
    wait.until(ec.text_to_be_present_in_element((By.ID, "viewer-title"), wanted))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#viewer .line"))
    lines = shapes[first["start_line"] - 1 : first["end_line"]]
    rows = driver.find_elements(By.CSS_SELECTOR, "#viewer .line")
    numbers = [r.find_element(By.CSS_SELECTOR, ".n").text for r in rows]
    shown = [r.get_attribute("textContent")[len(n) :] for r, n in zip(rows, numbers, strict=True)]
    assert shown == lines
    keywords, defined = python_truth("\n".join(lines) + "\n")
    assert texts(driver, "#viewer .hl-k") == keywords
    assert texts(driver, "#viewer .hl-f") == defined
    assert driver.find_element(By.CSS_SELECTOR, "#viewer .hl-k").is_displayed()
    assert "hl-k" in driver.execute_script(
        "return document.querySelector('#answer .code').innerHTML"
    )
    active = driver.find_element(By.CSS_SELECTOR, "#sources a.source.active")
    assert active.text == wanted
    screenshot(driver, tmp_path, "page-source.png")


def test_an_llm_answer_streams_in(
    git_repo: Any,
    serve_process: Any,
    make_browser: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    reply = (
        "The area is `side * side`:\n\n```python\ndef area(self):\n"
        "    return self.side * self.side  # squared\n```\n\nSee geo/shapes.py:13-14."
    )
    with OllamaStub(models=[MODEL]) as stub:
        monkeypatch.setenv("OLLAMA_HOST", stub.url)
        root = git_repo(FILES, name="geo-repo")
        served = serve_process("--repo", str(root), "--llm", f"ollama:{MODEL}")
        stub.reply_json(
            {"tool": "rag", "file": None, "operation": None, "symbol": None,
             "reason": "a question about how the code works"}
        )  # fmt: skip
        stub.script(Reply(text=reply, pace=0.15))
        driver = open_page(make_browser, served.url)
        box = driver.find_element(By.ID, "question")
        box.send_keys("how is the area of a square computed?", Keys.ENTER)

        # Snapshots of the answer while the status still says it is being asked: some show
        # part of the answer, each one a beginning of the one before the next.
        seen: list[str] = []

        def answered(d: Any) -> bool:
            status = d.find_element(By.ID, "status").text
            if status.startswith("asking"):
                seen.append(d.find_element(By.ID, "answer").get_attribute("textContent"))
            return status.startswith("answered")

        WebDriverWait(driver, 60, poll_frequency=0.05).until(answered)

    final = driver.find_element(By.ID, "answer").get_attribute("textContent")
    assert final == reply
    partial = [s for s in seen if s and s != final]
    assert len(set(partial)) >= 2, seen
    assert all(final.startswith(s) for s in seen)
    route = driver.find_element(By.ID, "route").text
    assert "decided by llm: a question about how the code works" in route
    assert texts(driver, "#answer .code .hl-k") == ["def", "return"]
    assert texts(driver, "#answer .code .hl-c") == ["# squared"]
    assert texts(driver, "#answer .ref") == ["geo/shapes.py:13-14"]
    screenshot(driver, tmp_path, "page-llm.png")
