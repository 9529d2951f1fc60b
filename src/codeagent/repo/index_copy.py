"""git's view of a work tree read through a private copy of its index: the repository's index
is neither written nor locked, and stays fast to read.

codeagent runs git with ``--no-optional-locks`` and promises never to write a repository or
take its index lock (docs/safety.md). Two things of git's stood against it:

- **``git diff`` rewrites the index it reads**, lock and all, when it finds entries whose stat
  data is stale (files touched, rewritten with the same bytes, copied, freshly checked out),
  whatever ``--no-optional-locks`` says. The state hash runs ``git diff HEAD``: a git command
  of the user's at that moment could fail on ``index.lock``.
- **A racily clean entry is read again by every command.** git tells a changed file from an
  unchanged one by the stat data its index keeps; an entry written in the same second as its
  file, or with another inode or change time (a copied tree, a volume, an unpacked archive),
  cannot be trusted, and git reads the file again at every ``status`` and ``diff`` until a
  command that may write the index refreshes it. Read-only, the probe (one per question)
  paid it every time: 0.13-0.3 s a question on checkouts of 2,000-6,000 files, for as long as
  nobody ran git there (forever on a read-only mount).

So the index is copied under ``CODEAGENT_HOME`` (``git-index/``) and refreshed there once
(``git update-index --refresh`` with ``GIT_INDEX_FILE`` naming the copy: git writes the copy,
nothing of the repository); the probe's ``git status`` and the state's ``git diff HEAD`` and
``ls-files`` read the copy (:func:`run_git_on_copy`) while the repository's own index is as it
was when copied (its stamp: size, modification and change times, inode, device). The same
entries with current stat data: the same output (``tests/repo/test_index_copy.py`` compares
them). A changed index (``git add``, a commit, a checkout, the user's own ``git status``
refreshing it) is copied again and the older copy deleted.

An index written less than :data:`RACY_S` ago is not kept as a copy (a copy refreshed in the
same second as the files would keep them racy for as long as it is used): a command then reads
a copy made for it alone and deleted after it. The repository's own index is read only when
there is none, when it is split (``sharedindex.*`` files beside it: a copy would not find
them), or when no copy can be written. Filter drivers of the repository's configuration run
for none of it (:func:`~codeagent.repo.git.filter_overrides`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from codeagent.errors import GitError
from codeagent.home import make_private_dir
from codeagent.repo.git import filter_overrides, git_text, run_git

log = logging.getLogger(__name__)

ENV = "GIT_INDEX_FILE"
# An index written this recently is not kept as a copy: the files written with it (a clone, a
# checkout) have its second for their modification time, and a refresh within that second
# leaves them racy in the copy too, for as long as the copy is used.
RACY_S = 2.0
_COPY_NAME = re.compile(r"[0-9a-f]{16}-[0-9a-f]{16}")  # a kept copy: repository, index stamp


def clear_copies(folder: Path) -> int:
    """Delete the copies kept in ``folder`` (``codeagent cache clear``); how many. A process
    reading one at that moment reads again (:func:`run_git_on_copy`)."""
    if not folder.is_dir():
        return 0
    gone = 0
    for path in folder.iterdir():
        if _COPY_NAME.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
            gone += 1
    return gone


def index_env(root: Path, folder: Path | None) -> dict[str, str]:
    """``{"GIT_INDEX_FILE": COPY}`` for git's work-tree commands in ``root``: a refreshed copy
    of its index kept in ``folder``; ``{}`` when ``folder`` is None or no such copy can be
    had (see :func:`run_git_on_copy`)."""
    if folder is None:
        return {}
    try:
        real = _index_path(root)
        copy = _copy(root, real, folder) if real is not None else None
    except (OSError, GitError) as exc:
        log.info("reading the git index of %s in place: %s", root, exc)
        return {}
    return {ENV: str(copy)} if copy is not None else {}


def run_git_on_copy(root: Path, folder: Path | None, *args: str) -> bytes:
    """``git ARGS`` in ``root`` on a copy of its index: the refreshed one (:func:`index_env`),
    else one made for this command alone (and deleted after it). ``git diff`` rewrites the
    index it reads, taking its lock, when it finds entries whose stat data is stale, whatever
    ``--no-optional-locks`` says; on a copy it rewrites the copy. The repository's own index
    is read only when ``folder`` is None or no copy can be made (a split index)."""
    env = index_env(root, folder)
    if env:
        out = run_git(root, *args, env=env)
        if Path(env[ENV]).is_file():
            return out
        # git takes a missing index file for an empty one: deleted while git read it (another
        # process made a newer copy), so read again
    with _one_off(root, folder) as once:
        return run_git(root, *args, env={ENV: str(once)} if once is not None else {})


@contextmanager
def _one_off(root: Path, folder: Path | None) -> Iterator[Path | None]:
    """A copy of ``root``'s index in ``folder`` for one command, deleted after it; None when
    none can be made."""
    try:
        real = _index_path(root) if folder is not None else None
        if real is not None and folder is not None:
            make_private_dir(folder)
            once = folder / f".once.{os.getpid()}.{threading.get_ident()}.tmp"
            _copy_file(real, once)
        else:
            once = None
    except (OSError, GitError) as exc:
        log.info("reading the git index of %s in place: %s", root, exc)
        once = None
    try:
        yield once
    finally:
        if once is not None:
            for leftover in (once, once.with_name(once.name + ".lock")):
                leftover.unlink(missing_ok=True)


def _index_path(root: Path) -> Path | None:
    """The repository's index file (a linked work tree's own), None when there is none or it
    is split."""
    index = _index_file(root)
    if not index.is_file() or any(index.parent.glob("sharedindex.*")):
        return None
    return index


@lru_cache(maxsize=64)
def _index_file(root: Path) -> Path:
    return (root / git_text(root, "rev-parse", "--git-path", "index")).resolve()


def _copy_file(real: Path, copy: Path) -> None:
    """``real``'s bytes and modification time: git trusts an entry's stat data only when it
    is older than the index file; a copy with a time of its own would make the entries racy
    in the repository's index (a file rewritten in their second, with the same size) look
    clean, and git would read them as unchanged."""
    st = os.stat(real)  # before: an index rewritten meanwhile gets an older time, so more racy
    shutil.copyfile(real, copy)
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns))


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"


def _copy(root: Path, real: Path, folder: Path) -> Path | None:
    """The refreshed copy of ``real`` as it is now, made when there is none; None when the
    index changed while it was copied."""
    st = os.stat(real)
    if time.time() - st.st_mtime < RACY_S:  # its racy entries would stay racy in a copy
        return None
    stamp = _stamp(st)
    key = hashlib.sha256(os.fsencode(real)).hexdigest()[:16]
    name = f"{key}-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}"
    copy = folder / name
    if copy.is_file():
        return copy
    make_private_dir(folder)
    work = folder / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        _copy_file(real, work)
        if _stamp(os.stat(real)) != stamp:  # rewritten while it was read
            return None
        run_git(
            root, *filter_overrides(root),
            "update-index", "-q", "--unmerged", "--ignore-submodules", "--refresh",
            env={ENV: str(work)},
        )  # fmt: skip
        os.replace(work, copy)
    finally:
        for leftover in (work, work.with_name(work.name + ".lock")):
            leftover.unlink(missing_ok=True)
    for older in folder.glob(f"{key}-*"):
        if older != copy:
            older.unlink(missing_ok=True)
    return copy
