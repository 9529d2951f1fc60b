"""Writing under ``CODEAGENT_HOME``: a failed write becomes one :class:`CacheWriteError` line.

Whatever the cause — the home is a file, sits under a file, is on a read-only mount, is not
writable, or its disk is full — the message names ``CODEAGENT_HOME`` and what to do. Only
the writes themselves are wrapped, so an ``OSError`` from elsewhere (a model that cannot be
loaded, say) is never mistaken for a problem with the home.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from codeagent.errors import CacheWriteError

_REASONS = {
    errno.ENOSPC: "its disk is full",
    errno.EDQUOT: "the disk quota is exhausted",
    errno.EROFS: "it is on a read-only file system",
    errno.EACCES: "it is not writable (permission denied)",
    errno.EPERM: "it is not writable (operation not permitted)",
    errno.ENOTDIR: "it, or a folder above it, is a file, not a directory",
    errno.EEXIST: "a file is in the way of a folder codeagent needs",
}


def describe(exc: BaseException) -> str:
    """Why a write failed, in words: from the errno, or sqlite's message."""
    if isinstance(exc, OSError) and exc.errno in _REASONS:
        return _REASONS[exc.errno]
    text = str(exc).lower()
    if "disk is full" in text or "disk full" in text:
        return _REASONS[errno.ENOSPC]
    if "readonly" in text or "read-only" in text:
        return "it is not writable (read-only)"
    return " ".join(str(exc).split()) or type(exc).__name__


def write_error(home: Path, what: str, exc: BaseException) -> CacheWriteError:
    reason = describe(exc)
    fix = "free some space" if "full" in reason or "quota" in reason else "point it at"
    if fix == "point it at":
        fix += " a writable directory"
    return CacheWriteError(f"cannot write {what} under CODEAGENT_HOME ({home}): {reason}; {fix}")


@contextmanager
def writing(home: Path, what: str) -> Iterator[None]:
    """Turn an ``OSError`` (or a sqlite write error) in the block into a CacheWriteError."""
    import sqlite3

    try:
        yield
    except (OSError, sqlite3.OperationalError) as exc:
        raise write_error(home, what, exc) from exc
