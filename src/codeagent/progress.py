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
