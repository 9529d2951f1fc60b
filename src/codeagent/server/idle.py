"""A server that stops itself: after ``seconds`` with no HTTP request in flight or begun,
and a lock on the home that only one server holds.

The server ``codeagent ask`` leaves running (:mod:`codeagent.cli.warm`) exits this way; a
client that finds it gone falls back to answering in-process.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from codeagent.errors import ConfigError

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
LOCK_NAME = "server.lock"


class Activity:
    """An ASGI wrapper that records when the last HTTP request began or ended, and how many
    are in flight."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.last = time.monotonic()
        self.busy = 0

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.busy += 1
        self.last = time.monotonic()
        try:
            await self.app(scope, receive, send)
        finally:
            self.busy -= 1
            self.last = time.monotonic()

    def idle_for(self) -> float:
        return 0.0 if self.busy else time.monotonic() - self.last


async def stop_when_idle(activity: Activity, seconds: float, stop: Callable[[], None]) -> None:
    """Call ``stop`` once ``activity`` has been idle for ``seconds``."""
    while True:
        left = seconds - activity.idle_for()
        if left <= 0:
            stop()
            return
        await asyncio.sleep(min(max(left, 0.05), 5.0))


def hold_home_lock(home: Path) -> int:
    """Take the home's server lock for the life of this process (its descriptor, kept open);
    :class:`ConfigError` when another server holds it."""
    home.mkdir(parents=True, exist_ok=True)
    fd = os.open(home / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ConfigError("a server is already running for this CODEAGENT_HOME") from None
    return fd


def home_lock_held(home: Path) -> bool:
    """Whether a server holds the home's server lock now (one starting, before it writes its
    address, or one serving); the lock is not kept."""
    try:
        fd = os.open(home / LOCK_NAME, os.O_RDONLY)
    except OSError:  # no lock file: no server ever started in this home
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing lets go of a lock taken here
    return False
