"""The progress interface the library reports long work through (the CLI draws it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

Advance = Callable[[int], None]


class ProgressReporter(Protocol):
    def task(
        self, description: str, total: int | None, *, expect: float | None = None
    ) -> AbstractContextManager[Advance]:
        """A context manager yielding ``advance(n)`` for one phase of work; ``expect`` is
        roughly how many seconds it will take, when that can be told beforehand."""
        ...


class NullProgress:
    """Reports nothing; the default for library calls and tests."""

    @contextmanager
    def task(
        self, description: str, total: int | None, *, expect: float | None = None
    ) -> Iterator[Advance]:
        yield lambda _n: None


class EstimateCheck:
    """An estimate said before a task (``expect`` seconds for ``total`` items) checked against
    the rate measured while it runs: once enough has run to measure (``settle`` seconds after
    the first step, a twentieth of the items), a projection at least half as long again as the
    estimate (and 20 s more) is said once, with the time left at the measured rate. A busy
    machine embeds slower than the rate recorded when it was idle.

    ``step(done, now)`` takes the items done so far and the clock's reading; it returns the
    correction the first time there is one, else None. The clock is the caller's, so a test
    can drive it.
    """

    SLOWER = 1.5  # the projection at least this many times the estimate
    SLACK = 20.0  # and at least this many seconds more

    def __init__(self, total: int, expect: float, settle: float = 10.0) -> None:
        self.total, self.expect, self.settle = total, expect, settle
        self._first: tuple[float, int] | None = None
        self._said = False

    def step(self, done: int, now: float) -> str | None:
        if self._first is None:
            self._first = (now, done)
            return None
        since, at = self._first
        if self._said or now - since < self.settle or done - at < max(1, self.total // 20):
            return None
        rate = (done - at) / (now - since)
        left = (self.total - done) / rate
        projected = (now - since) + left
        if projected < self.expect * self.SLOWER or projected < self.expect + self.SLACK:
            return None
        self._said = True
        return f"slower than estimated: about {duration(left)} left at {rate:,.1f}/s"


def checked(
    advance: Advance,
    total: int | None,
    expect: float | None,
    clock: Callable[[], float],
    say: Callable[[str], None],
) -> Advance:
    """``advance``, which also ``say``s once when the estimate ``expect`` was too short
    (:class:`EstimateCheck`); ``advance`` itself without an estimate."""
    if not total or not expect:
        return advance
    check, done = EstimateCheck(total, expect), 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        advance(n)
        if said := check.step(done, clock()):
            say(said)

    return step


def duration(seconds: float) -> str:
    """``42 s`` or ``6 min``: a time as a person says it roughly (as the progress lines do)."""
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    return f"{seconds / 60:.0f} min"
