"""Load behaviour on a real uvicorn server with scripted answers: cancellation when the client
disconnects, 429 with Retry-After past the queue, and the idle timeout on a stream."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from codeagent.events import Event, NoticeEvent, TokenEvent
from codeagent.server.app import ServerConfig
from server_helpers import ScriptedBackend, answered_with, ndjson

WAIT = 30.0  # an upper bound for something that happens at once; never reached when it works


def config(backend: Any, **kw: Any) -> ServerConfig:
    return ServerConfig(backends={"scripted": backend}, token="t" * 32, **kw)


def endless(_question: str, cancel: threading.Event) -> Iterator[Event]:
    """Tokens until cancelled (each after a short pause, as a model writes)."""
    while not cancel.wait(0.02):
        yield TokenEvent(text="more ")


def test_disconnecting_client_cancels_the_answer(app_server: Any, tmp_path: Path) -> None:
    backend = ScriptedBackend(tmp_path, endless)
    url = app_server(config(backend))
    for accept in ("application/x-ndjson", "text/event-stream"):
        backend.cancelled.clear()
        with httpx.stream(
            "POST", f"{url}/v1/ask", json={"question": "q"}, headers={"Accept": accept}
        ) as response:
            next(response.iter_lines())  # the answer has started
        assert backend.cancelled.wait(WAIT), accept
        # The slot comes back once the worker has wound down: not one is leaked.
        assert wait_for_load(url, running=0), accept


def wait_for_load(url: str, **want: int) -> bool:
    """Whether ``/v1/health`` reports the load ``want`` (e.g. ``running=0``) within WAIT."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        load = httpx.get(f"{url}/v1/health").json()["load"]
        if all(load[key] == value for key, value in want.items()):
            return True
        time.sleep(0.01)
    return False


def test_busy_server_answers_429_with_retry_after(app_server: Any, tmp_path: Path) -> None:
    release = threading.Event()
    entered = threading.Semaphore(0)

    def blocked(_question: str, cancel: threading.Event) -> Iterator[Event]:
        entered.release()
        release.wait(WAIT)
        yield answered_with("done")

    url = app_server(config(ScriptedBackend(tmp_path, blocked), max_concurrent=1, max_queue=1))
    results: list[int] = []

    def ask() -> None:
        results.append(
            httpx.post(f"{url}/v1/ask", json={"question": "q"}, timeout=WAIT).status_code
        )

    first = threading.Thread(target=ask)
    first.start()
    assert entered.acquire(timeout=WAIT)  # the only slot is taken
    second = threading.Thread(target=ask)  # waits in the queue
    second.start()
    deadline_ok = False
    for _ in range(1000):
        load = httpx.get(f"{url}/v1/health").json()["load"]
        if load["waiting"] == 1:
            deadline_ok = True
            break
        threading.Event().wait(0.01)
    assert deadline_ok, "the second question never queued"
    third = httpx.post(f"{url}/v1/ask", json={"question": "q"})
    assert third.status_code == 429
    assert third.headers["retry-after"] == "1"
    release.set()
    first.join(WAIT)
    second.join(WAIT)
    assert results == [200, 200]


def test_idle_stream_is_closed_and_its_work_cancelled(app_server: Any, tmp_path: Path) -> None:
    def stalls(_question: str, cancel: threading.Event) -> Iterator[Event]:
        yield NoticeEvent(kind="index", text="thinking")
        cancel.wait(WAIT)  # never sends anything else
        return

    backend = ScriptedBackend(tmp_path, stalls)
    url = app_server(config(backend, idle_timeout=0.2))
    response = httpx.post(
        f"{url}/v1/ask",
        json={"question": "q"},
        headers={"Accept": "application/x-ndjson"},
        timeout=WAIT,
    )
    events = ndjson(response)
    assert [e["type"] for e in events] == ["notice", "error"]
    assert "no progress for 0.2 s" in events[-1]["message"]
    assert events[-1]["kind"] == "timeout"  # what a client reads, not the message's words
    assert backend.cancelled.wait(WAIT)
    plain = httpx.post(f"{url}/v1/ask", json={"question": "q"}, timeout=WAIT)
    assert plain.status_code == 504
