"""What a web page on another site can get from a loopback server, in a real headless Chromium:
nothing. And the page the server prints the URL of works with the token in that URL.

- Another origin: a page served by a second local HTTP server (another port) calls the API
  with ``fetch()`` — JSON with a preflight, ``text/plain`` that needs none, a plain ``GET``.
  The page reads nothing; the browser's own network log shows the server refused each
  request that reached it (so refusing does not rest on the browser's CORS alone).
- DNS rebinding: Chromium resolves ``evil.test`` to 127.0.0.1
  (``--host-resolver-rules="MAP evil.test 127.0.0.1"``), so ``http://evil.test:PORT`` is
  the server under the attacker's name. A script running on that origin (the state after
  the rebinding: its requests are same-origin, so it could read any answer) fetches
  ``/v1/repos`` and ``/v1/ask`` and gets only the server's 421.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_helpers import FILES

pytestmark = pytest.mark.browser

QUESTION = {"question": "list the methods of Square in geo/shapes.py"}
LEAKS = ("geo/shapes.py", "geo-repo", "Square")  # what any answer from the server contains

PROBE = """
const api = arguments[0], question = JSON.stringify(arguments[1]), done = arguments[2];
async function probe(name, url, init) {
  try {
    const response = await fetch(url, init);
    const body = await response.text();
    return { name, status: response.status, type: response.type, body };
  } catch (err) {
    return { name, error: String(err) };
  }
}
Promise.all([
  probe("ask json", api + "/v1/ask",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: question }),
  probe("ask text/plain", api + "/v1/ask",
        { method: "POST", headers: { "Content-Type": "text/plain" }, body: question }),
  probe("ask no-cors", api + "/v1/ask",
        { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" },
          body: question }),
  probe("repos", api + "/v1/repos", {}),
  probe("file", api + "/v1/file?repo=geo-repo&path=geo/shapes.py", {}),
]).then(done);
"""


@pytest.fixture
def other_site(tmp_path: Path) -> Iterator[str]:
    """Another origin: a plain HTTP server on its own port serving a page the test wrote."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>another site</title><p>hi</p>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def run_probes(driver: Any, api: str) -> dict[str, dict[str, Any]]:
    driver.set_script_timeout(60)
    results = driver.execute_async_script(PROBE, api, QUESTION)
    return {r["name"]: r for r in results}


def responses(driver: Any, port: int) -> list[tuple[str, str, int]]:
    """(method, path, status) of every response from the server's port in the browser's
    network log, those the page was not allowed to read included (their status is only in
    ``responseReceivedExtraInfo``)."""
    requests: dict[str, tuple[str, str]] = {}
    statuses: dict[str, int] = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.requestWillBeSent":
            request = params["request"]
            requests[params["requestId"]] = (request["method"], request["url"])
        elif message["method"] == "Network.responseReceivedExtraInfo":
            statuses[params["requestId"]] = int(params["statusCode"])
        elif message["method"] == "Network.responseReceived":
            statuses[params["requestId"]] = int(params["response"]["status"])
    seen = []
    for request_id, (method, url) in requests.items():
        if f":{port}/" in url and request_id in statuses:
            seen.append((method, url.split(f":{port}", 1)[1], statuses[request_id]))
    return sorted(seen)


def read_nothing(results: dict[str, dict[str, Any]]) -> None:
    for name, result in results.items():
        body = result.get("body", "")
        assert not any(leak in body for leak in LEAKS), (name, result)


def test_a_page_on_another_origin_reads_nothing(
    served_repo: Any, make_browser: Any, other_site: str
) -> None:
    served, _root = served_repo
    driver = make_browser()
    driver.get(other_site + "/")
    results = run_probes(driver, served.url)
    read_nothing(results)
    # CORS alone: the page gets an error or an opaque response, never a readable one.
    for name, result in results.items():
        assert "error" in result or result["type"] == "opaque", (name, result)
    # The server: every request that reached it was refused (a preflight may stop the JSON
    # one in the browser first; the no-preflight ones always reach the server).
    answered = responses(driver, served.port)
    asks = [status for method, path, status in answered if (method, path) == ("POST", "/v1/ask")]
    assert len(asks) >= 2, answered  # text/plain and no-cors at least
    gets = [path for method, path, _status in answered if method == "GET"]
    assert sorted(gets) == ["/v1/file?repo=geo-repo&path=geo/shapes.py", "/v1/repos"], answered
    assert all(status == 403 for _method, _path, status in answered), answered


def test_a_rebound_host_name_reads_nothing(served_repo: Any, make_browser: Any) -> None:
    served, _root = served_repo
    driver = make_browser("--host-resolver-rules=MAP evil.test 127.0.0.1")
    evil = f"http://evil.test:{served.port}"
    driver.get(evil + "/")  # the attacker's page, now resolving to the server
    assert driver.execute_script("return location.origin") == evil
    results = run_probes(driver, evil)
    read_nothing(results)
    # Same-origin (no-cors too): the script sees the server's own answer, a refusal by Host.
    for name, result in results.items():
        assert result.get("status") == 421, (name, result)
        assert "Host" in json.loads(result["body"])["error"]
    answered = responses(driver, served.port)
    assert answered, "the rule did not send evil.test to the server"
    assert all(status == 421 for _method, _path, status in answered), answered


def test_the_printed_page_url_with_its_token(
    git_repo: Any, serve_process: Any, make_browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    root = git_repo(FILES, name="geo-repo")
    served = serve_process("--repo", str(root), "--require-token")
    start_line = (served.home / "serve.err").read_text()
    url = start_line.split(" on ", 1)[1].split(" ", 1)[0]
    assert url == f"{served.url}/?token={served.token}"
    driver = make_browser()
    wait = WebDriverWait(driver, 30)

    driver.get(url)
    wait.until(lambda d: Select(d.find_element(By.ID, "repo")).options)
    assert "token" not in driver.current_url  # taken out of the address bar
    stored = driver.execute_script("return sessionStorage.getItem('codeagent-token')")
    assert stored == served.token
    driver.find_element(By.ID, "question").send_keys(QUESTION["question"])
    driver.find_element(By.ID, "ask").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "answered"))
    assert "geo/shapes.py:13-14" in driver.find_element(By.ID, "answer").text

    # The same page without the token is refused by the API, and says what to do.
    fresh = make_browser()
    fresh.get(served.url + "/")
    WebDriverWait(fresh, 30).until(
        ec.text_to_be_present_in_element((By.ID, "status"), "token is required")
    )
