"""Servers for the tests: ``codeagent serve`` as a real process on an ephemeral loopback port,
and the application on uvicorn in a thread with a scripted backend (for tests of cancellation,
the queue and the idle timeout that do not depend on how fast anything runs)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from codeagent.server.app import ServerConfig, create_app
from conftest import git
from server_helpers import (
    FILES,
    START_TIMEOUT,
    Served,
    start_serve,
    stop,
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run only when asked for by marker (`make test-browser`), so the default
    run stays fast whatever else its -m expression says."""
    expression = config.getoption("markexpr") or ""
    if "browser" in expression and "not browser" not in expression:
        return
    skip = pytest.mark.skip(reason="browser test: run `make test-browser` (or -m browser)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def serve_process(env_setup: Path) -> Iterator[Any]:
    """Start ``codeagent serve --port 0 --llm none --embed none ARGS...`` as a process."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, cwd: Path | None = None) -> Served:
        served, process = start_serve(env_setup, *args, cwd=cwd)
        started.append(process)
        return served

    yield start
    for process in started:
        stop(process)


@pytest.fixture(scope="module")
def served_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    """One server per test module, serving the repository ``geo-repo`` (its own home)."""
    base = tmp_path_factory.mktemp("served")
    root = base / "geo-repo"
    root.mkdir()
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "i")
    home = base / "home"
    home.mkdir()
    served, process = start_serve(home, "--repo", str(root))
    yield served, root
    stop(process)


@pytest.fixture
def app_server() -> Iterator[Any]:
    """Run ``create_app(config)`` on uvicorn in a thread on an ephemeral loopback port."""
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(config: ServerConfig) -> str:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        servers.append((server, thread))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def make_browser(tmp_path: Path) -> Iterator[Any]:
    """Start headless Chromium through chromedriver: ``make_browser(*flags)``; the network log
    (``driver.get_log("performance")``) records every response the browser received."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    driver_path = shutil.which("chromedriver")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if driver_path is None or binary is None:
        pytest.skip("chromium and chromium-driver are not installed (`make install-browser`)")
    drivers: list[Any] = []

    def start(*flags: str) -> Any:
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        profile = tmp_path / f"profile{len(drivers)}"
        for flag in [*BROWSER_FLAGS, *flags, f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        drivers.append(driver)
        return driver

    yield start
    for driver in drivers:
        driver.quit()


@pytest.fixture
def browser(make_browser: Any) -> Any:
    return make_browser()
