"""One answer running in a worker thread, read by the event loop with an idle timeout.

The worker iterates the backend's (blocking) event stream and hands each event to the loop.
When the reader stops — the client disconnected, the stream sat idle past the timeout, or it
simply finished — ``cancel`` is set and the worker stops at the backend's next step; only then
is the admission slot given back.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Generator
from typing import Any, Protocol

from codeagent.events import Event

_DONE: Any = object()


class IdleTimeout(Exception):
    pass


class Asked(Protocol):
    """What answers a question as events: one repository (:class:`RepoBackend`), or all of
    them (:class:`~codeagent.server.everywhere.AllRepos`)."""

    def ask_stream(
        self, question: str, cancel: threading.Event, *, k: int | None = None
    ) -> Generator[Event, None, None]: ...


class Answer:
    def __init__(
        self,
        backend: Asked,
        question: str,
        release: Callable[[], None],
        *,
        k: int | None = None,
    ) -> None:
        self.cancel = threading.Event()
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._release = release
        self._thread = threading.Thread(
            target=self._work, args=(backend, question, k), name="answer", daemon=True
        )
        self._thread.start()

    def _hand_over(self, item: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: the server is stopping
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)

    def _work(self, backend: Asked, question: str, k: int | None) -> None:
        stream = backend.ask_stream(question, self.cancel, k=k)
        try:
            for event in stream:
                if self.cancel.is_set():
                    break
                self._hand_over(event)
        finally:
            self.cancel.set()
            stream.close()
            self._hand_over(_DONE)
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._release)

    async def events(self, idle_timeout: float) -> AsyncIterator[Event]:
        """The answer's events; :class:`IdleTimeout` when none comes for ``idle_timeout`` s."""
        try:
            while True:
                try:
                    item = await asyncio.wait_for(self._queue.get(), idle_timeout)
                except TimeoutError:
                    raise IdleTimeout(
                        f"no progress for {idle_timeout:g} s: the answer was stopped"
                    ) from None
                if item is _DONE:
                    return
                yield item
        finally:
            self.cancel.set()
