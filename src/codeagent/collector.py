"""Pausing Python's cyclic garbage collector around work that allocates much and frees little.

A full collection walks every tracked object: with an index of 50,000 chunks loaded, about
300,000 of them, 0.3 s on the development machine. Work that builds many new containers at once
(parsing a file, a store's per-index tables on its first question) sets one off in its middle;
paused, the collection comes later or, in a process that answers one question and exits, never.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (as it was after: a caller that had
    paused it keeps it paused)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
