"""A server that accepts the connection and then never answers: the clone gives up within
``clone_timeout`` (``CODEAGENT_CLONE_TIMEOUT``) with one ``error:`` line, instead of hanging."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from codeagent.config import Settings
from codeagent.errors import CloneError
from codeagent.repo.remote import resolve_repo
from faults.run import codeagent, one_error_line


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server on 127.0.0.1 that accepts every connection and never sends a byte."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/team/project.git"
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    listener.close()


def test_a_silent_server_is_one_error_line(silent_server: str) -> None:
    started = time.monotonic()
    result = codeagent(
        "ask", "how does it work?", "--repo", silent_server, "--llm", "none", "--embed", "none",
        env={"CODEAGENT_CLONE_TIMEOUT": "2"},
    )  # fmt: skip
    took = time.monotonic() - started
    one_error_line(result, f"cannot clone {silent_server}", "within 2 s", "CODEAGENT_CLONE_TIMEOUT")
    assert result.stderr.count("\n") == 1  # nothing before the error either
    assert took < 25, took  # the limit, not git's own 30 s low-speed cut-off


def test_the_limit_is_a_setting(silent_server: str) -> None:
    settings = Settings(clone_timeout=1)
    started = time.monotonic()
    with pytest.raises(CloneError, match=r"did not finish within 1 s"):
        resolve_repo(silent_server, settings)
    assert time.monotonic() - started < 20
    left = [p.name for p in settings.repos_dir.iterdir() if not p.name.startswith(".")]
    assert left == []  # no half-made clone kept
    assert not list(settings.repos_dir.glob(".tmp-*"))
