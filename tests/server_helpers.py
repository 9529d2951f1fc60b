"""Helpers for the server tests (the fixtures are in tests/server/conftest.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from codeagent.events import Event, ResultEvent
from codeagent.result import AskResult
from codeagent.route import RouteDecision
from codeagent.server.repos import ServedRepo

START_TIMEOUT = 60.0
# Generous: a first question waits for the server to warm up, on a machine that may be busy.
client = httpx.Client(timeout=120.0)

MOD = '''\
"""Shapes."""


class Shape:
    def area(self):
        return 0


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


def unit_square():
    return Square(1)
'''
FILES = {"geo/__init__.py": "", "geo/shapes.py": MOD, "README.md": "# Geo\n\nSquares.\n"}


@dataclass
class Served:
    url: str
    port: int
    token: str
    home: Path
    process: subprocess.Popen[bytes]


def wait_for_address(home: Path, pid: int) -> dict[str, Any]:
    deadline = time.monotonic() + START_TIMEOUT
    path = home / "server.json"
    while time.monotonic() < deadline:
        if path.is_file():
            data: dict[str, Any] = json.loads(path.read_text())
            if data["pid"] == pid:
                return data
        time.sleep(0.05)
    raise AssertionError("the server did not write its address file")


def wait_until_serving(url: str, process: subprocess.Popen[bytes], err: Path) -> None:
    """Poll ``/v1/health`` until the server answers (any HTTP status: a 401 is an answer too),
    within START_TIMEOUT. The address file is written as the socket is bound; on a loaded
    machine the first request can still come before the server accepts, so wait for one."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            tail = err.read_text(errors="replace")[-2000:] if err.is_file() else ""
            code = process.returncode
            raise AssertionError(f"the server exited ({code}) before serving:\n{tail}")
        try:
            httpx.get(f"{url}/v1/health", timeout=5.0)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise AssertionError(f"the server did not answer at {url}") from None
            time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def answered_with(answer: str) -> ResultEvent:
    """The last event of a scripted answer: a result whose answer is ``answer``."""
    result = AskResult(question="scripted", route=RouteDecision(tool="rag"), answer=answer)
    return ResultEvent(result=result)


class ScriptedBackend:
    """A backend whose answer is scripted by the test; it records cancellation."""

    def __init__(self, root: Path, script: Any) -> None:
        self.repo = ServedRepo("scripted", root)
        self.script = script
        self.cancelled = threading.Event()
        self.started = threading.Event()

    def ask_stream(
        self, question: str, cancel: threading.Event, *, k: int | None = None
    ) -> Iterator[Event]:
        self.started.set()
        try:
            yield from self.script(question, cancel)
        finally:
            if cancel.is_set():
                self.cancelled.set()

    def status(self) -> dict[str, Any]:
        return self.repo.to_json()


def remote(token: str | None = None) -> dict[str, str]:
    """Headers of a client that is not on loopback: uvicorn trusts ``X-Forwarded-For`` from a
    local proxy, so the request is seen as coming from 203.0.113.7 (a documentation address)."""
    headers = {"X-Forwarded-For": "203.0.113.7"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def ndjson(response: httpx.Response) -> list[dict[str, Any]]:
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


# -- freshness: answers from the repository's current state ----------------------------------

CATCHING_UP = "the index is catching up"


def ask_json(served: Served, question: str) -> dict[str, Any]:
    """``POST /v1/ask`` (JSON): the result with its notices; fails on any error status."""
    response = client.post(f"{served.url}/v1/ask", json={"question": question})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def repo_status(served: Served) -> dict[str, Any]:
    response = client.get(f"{served.url}/v1/repos")
    assert response.status_code == 200, response.text
    status: dict[str, Any] = response.json()["repos"][0]
    return status


def wait_until_updated(served: Served, timeout: float = START_TIMEOUT) -> dict[str, Any]:
    """The repository's status once no index update runs."""
    deadline = time.monotonic() + timeout
    while True:
        status = repo_status(served)
        if not status["updating"] and status["index"] == "ready":
            return status
        assert time.monotonic() < deadline, f"the index update did not finish: {status}"
        time.sleep(0.05)


def catching_up(result: dict[str, Any]) -> bool:
    return any(CATCHING_UP in notice for notice in result["notices"])


def fresh_answer(served: Served, question: str) -> dict[str, Any]:
    """The answer to ``question`` from the current state: the first one, or, when that one
    says the index is catching up, the first one after the update (which must not say so)."""
    result = ask_json(served, question)
    if catching_up(result):
        wait_until_updated(served)
        result = ask_json(served, question)
        assert not catching_up(result), result["notices"]
    return result


def state_of(root: Path) -> str:
    """The state hash of ``root`` as it is now, for an index without embeddings (what
    ``codeagent index --embed none`` keys its cache by)."""
    from codeagent.index.build import fingerprint
    from codeagent.repo.discover import discover
    from codeagent.repo.state import state_hash

    return state_hash(discover(root), fingerprint(None))


def start_serve(home: Path, *args: str, cwd: Path | None = None) -> tuple[Served, Any]:
    command = [sys.executable, "-m", "codeagent", "serve", "--port", "0"]
    command += ["--llm", "none", "--embed", "none", *args]
    env = {**os.environ, "CODEAGENT_HOME": str(home)}
    with (home / "serve.err").open("ab") as err:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    address = wait_for_address(home, process.pid)
    token_file = home / "server.token"  # absent with --token-file elsewhere
    token = token_file.read_text().strip() if token_file.is_file() else ""
    url = f"http://127.0.0.1:{address['port']}"
    wait_until_serving(url, process, home / "serve.err")
    return Served(url, address["port"], token, home, process), process
