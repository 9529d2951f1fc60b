"""Admission: at most ``max_concurrent`` answers run; ``max_queue`` more may wait; the rest get 429.

A slot is held until the answer's work has really stopped (a cancelled answer keeps its slot
until its worker thread notices), so the cap is the number of answers computing, not the
number of open responses.
"""

from __future__ import annotations

import asyncio

RETRY_AFTER_SECONDS = 1


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

    def to_json(self) -> dict[str, int]:
        return {
            "running": self.running,
            "waiting": self._waiting,
            "max_concurrent": self.max_concurrent,
            "max_queue": self.max_queue,
        }
