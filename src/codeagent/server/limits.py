"""Admission and size caps, shared by the HTTP API and the MCP tools mounted beside it.

Admission: at most ``max_concurrent`` answers run; ``max_queue`` more may wait; the rest are
refused at once (HTTP ``429`` with ``Retry-After``, an MCP tool error). A slot is held until
the answer's work has really stopped (a cancelled answer keeps its slot until its worker
thread notices), so the cap is the number of answers computing, not the number of open
responses.

A question (or a search query) longer than ``max_question_chars`` is refused as it came,
before any sanitizing (HTTP ``413``, an MCP tool error); only ``codeagent ask`` in-process
cuts an over-long question, with a notice.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from codeagent.server.repos import RequestError

RETRY_AFTER_SECONDS = 1
BUSY_MESSAGE = "busy: too many questions at once"


class Busy(Exception):
    """Every slot is taken and the queue is full."""


class Admission:
    def __init__(self, max_concurrent: int, max_queue: int) -> None:
        self.max_concurrent = max_concurrent
        self.max_queue = max_queue
        self._slots = asyncio.Semaphore(max_concurrent)
        self._waiting = 0
        self.running = 0

    async def acquire(self) -> None:
        """Take a slot, waiting in the bounded queue; :class:`Busy` when the queue is full."""
        if self._slots.locked() and self._waiting >= self.max_queue:
            raise Busy
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        self.running += 1

    def release(self) -> None:
        self.running -= 1
        self._slots.release()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot for the block (:class:`Busy` when none can be had)."""
        await self.acquire()
        try:
            yield
        finally:
            self.release()

    def to_json(self) -> dict[str, int]:
        return {
            "running": self.running,
            "waiting": self._waiting,
            "max_concurrent": self.max_concurrent,
            "max_queue": self.max_queue,
        }


def check_length(text: str, max_chars: int, what: str = "question") -> None:
    """Refuse ``text`` longer than ``max_chars`` characters (:class:`RequestError`, 413)."""
    if len(text) > max_chars:
        raise RequestError(
            f"the {what} has {len(text)} characters, over the limit of {max_chars}"
            " (max_question_chars): shorten it",
            status=413,
        )
