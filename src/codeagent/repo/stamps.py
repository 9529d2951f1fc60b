"""A file's stamp: what tells, without reading the file, that it is exactly as a build saw it.

A stamp is the size, modification and change times (nanoseconds), inode and device of a
regular file, as :func:`os.stat` gives them when discovery lists it (before the build reads
it). An index entry keeps the stamps of the files it chunked (``stamps.json``,
:mod:`codeagent.index.reuse`); the next build takes a file whose stamp is the same over from
that entry without reading, sniffing or hashing it again. The state hash that names the
entry is not made from stamps: it stays git's (or the files' own) exact digest
(:mod:`codeagent.repo.state`).

Why equal stamps mean equal content: every write from user space sets the change time to
the clock's now, and no call sets it back (``os.utime`` restoring the modification time sets
the change time to now); a file replaced by a rename or a copy has a new inode. Git trusts
the same facts for its index (``core.trustctime``, ``core.checkStat=default``).

What they cannot see is a second write in the same tick of the file system's clock as the
one the stamp was taken after (coarse timestamps: one or two seconds on some file systems;
the kernel's clock for file times also lags the wall clock by up to a tick). Git calls such
a file *racily clean* and re-reads any file whose modification time is not older than its
index file. The rule here is the same, taken stricter: no stamp is kept for a file changed
within :data:`RACY_NS` before discovery began (its change or modification time that recent,
or in the future), so such a file is read and hashed again at the next build. A write after
the stat then always gives a change time newer than the one kept.
"""

from __future__ import annotations

import os
import stat
import time

RACY_NS = 2_000_000_000  # a change this recent (before discovery began) keeps no stamp


def now_ns() -> int:
    """The reference a discovery's stamps are judged racy against: taken before any stat."""
    return time.time_ns()


def stamp(st: os.stat_result, since_ns: int) -> str | None:
    """The stamp of a regular file's ``st`` taken after ``since_ns``; None for anything else
    or for a file changed too recently to be told apart from a later write (racy)."""
    if not stat.S_ISREG(st.st_mode) or max(st.st_mtime_ns, st.st_ctime_ns) >= since_ns - RACY_NS:
        return None
    return signature(st)


def signature(st: os.stat_result) -> str:
    """What :func:`stamp` keeps of ``st``, racy or not: a file whose signature is no longer
    the one taken has been written (or replaced) since; one whose signature is the same may
    still have been written in the same tick when it is racy."""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"
