"""codeagent.cancel: Ctrl-C inside cancellable() cancels the work's token, then interrupts;
the token reaches threads started in a copy of the context; outside, nothing is cancelled;
interrupts_held() defers a Ctrl-C to the end of its block."""

from __future__ import annotations

import contextvars
import os
import signal
import threading

import pytest

from codeagent.cancel import CancelToken, cancellable, check, current, interrupts_held
from codeagent.errors import Cancelled


def press_ctrl_c_inside(tokens: list[CancelToken]) -> None:
    with cancellable() as token:
        tokens.append(token)
        assert not token.cancelled
        os.kill(os.getpid(), signal.SIGINT)
        threading.Event().wait(1)  # the handler runs in this wait


def test_ctrl_c_cancels_the_token_then_interrupts_and_the_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGINT)
    tokens: list[CancelToken] = []
    with pytest.raises(KeyboardInterrupt):
        press_ctrl_c_inside(tokens)
    assert tokens[0].cancelled
    assert signal.getsignal(signal.SIGINT) is before
    check()  # outside: the current token is never cancelled
    assert not current().cancelled


def test_a_worker_in_a_copied_context_sees_the_cancellation() -> None:
    seen: list[BaseException] = []
    with cancellable() as token:
        context = contextvars.copy_context()
        token.cancel()

    def work() -> None:
        try:
            context.run(check)
        except Cancelled as exc:
            seen.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert len(seen) == 1
    assert seen[0].exit_code == 130


def hold_a_ctrl_c(steps: list[str], tokens: list[CancelToken]) -> None:
    with cancellable() as token:
        tokens.append(token)
        with interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            threading.Event().wait(0.2)  # a handler in place would run in this wait
            steps.append("the block ran to its end")
            assert not token.cancelled
        steps.append("after the block")  # never: the held Ctrl-C interrupts here


def test_a_ctrl_c_inside_interrupts_held_lands_as_the_block_ends() -> None:
    before = signal.getsignal(signal.SIGINT)
    steps: list[str] = []
    tokens: list[CancelToken] = []
    with pytest.raises(KeyboardInterrupt):
        hold_a_ctrl_c(steps, tokens)
    assert steps == ["the block ran to its end"]
    assert tokens[0].cancelled  # by the handler that was in place, once the block ended
    assert signal.getsignal(signal.SIGINT) is before


def test_interrupts_held_without_a_ctrl_c_changes_nothing() -> None:
    before = signal.getsignal(signal.SIGINT)
    with cancellable() as token, interrupts_held():
        pass
    assert not token.cancelled
    assert signal.getsignal(signal.SIGINT) is before


def test_interrupts_held_in_another_thread_leaves_the_handler_alone() -> None:
    before = signal.getsignal(signal.SIGINT)
    seen: list[object] = []

    def work() -> None:
        with interrupts_held():
            seen.append(signal.getsignal(signal.SIGINT))

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert seen == [before]
