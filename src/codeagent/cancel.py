"""Cancelling long work (indexing) from a signal handler or another thread.

Work that may take seconds checks the token of its call between small steps (an embedding
batch, one ONNX run) and raises :class:`~codeagent.errors.Cancelled` once it is cancelled.
The token travels in a context variable, so it reaches the threads LangGraph runs nodes in
(they run in a copy of the caller's context) and never touches another call's work:

    with cancellable():          # Ctrl-C now cancels the work inside, then interrupts
        workspace.ask(question)

Outside :func:`cancellable` the current token is never cancelled.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType
from typing import Any

from codeagent.errors import Cancelled


class CancelToken:
    """A flag one party sets and the work checks."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise :class:`~codeagent.errors.Cancelled` once the token is cancelled."""
        if self._event.is_set():
            raise Cancelled("interrupted")


_NEVER = CancelToken()
_CURRENT: ContextVar[CancelToken] = ContextVar("codeagent_cancel", default=_NEVER)


def current() -> CancelToken:
    """The token of the work running in this context."""
    return _CURRENT.get()


def check() -> None:
    """Raise :class:`~codeagent.errors.Cancelled` when the current work is cancelled."""
    _CURRENT.get().check()


@contextmanager
def cancellable(token: CancelToken | None = None) -> Iterator[CancelToken]:
    """Run the block with ``token`` (a new one by default) as the current token.

    In the main thread, Ctrl-C (SIGINT) during the block also cancels the token before it
    interrupts as before (``KeyboardInterrupt``): work running in other threads stops at its
    next check instead of running to its end while the main thread waits for it.
    """
    token = token or CancelToken()
    reset = _CURRENT.set(token)
    previous = signal.getsignal(signal.SIGINT)
    installed = _replaceable(previous)
    if installed:

        def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
            token.cancel()
            _pass_on(previous, signum, frame)

        signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield token
    finally:
        if installed:
            signal.signal(signal.SIGINT, previous)
        _CURRENT.reset(reset)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Run the block with Ctrl-C held back: a SIGINT that arrives inside it is acted on (by
    the handler in place before) as the block ends, not in its middle.

    For a step that must not be cut in two, such as starting a child process: an interrupt
    inside ``subprocess.Popen`` after the fork would leave a child nobody holds and nobody
    ends. Outside the main thread (where no signal handler runs) it changes nothing.
    """
    previous = signal.getsignal(signal.SIGINT)
    if not _replaceable(previous):
        yield
        return
    held: list[FrameType | None] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(frame)

    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            _pass_on(previous, signal.SIGINT, held[0])


def _replaceable(previous: Any) -> bool:
    """Whether this thread may put its own SIGINT handler in place of ``previous``: in the
    main thread (the only one signal handlers run in), unless Ctrl-C is ignored or handled
    outside Python."""
    return threading.current_thread() is threading.main_thread() and previous not in (
        signal.SIG_IGN,
        None,
    )


def _pass_on(previous: Any, signum: int, frame: FrameType | None) -> None:
    """What the handler ``previous`` does with a SIGINT: it is called, or (``SIG_DFL``)
    ``KeyboardInterrupt`` is raised, as Python does by default."""
    if callable(previous):
        previous(signum, frame)
    else:
        raise KeyboardInterrupt
