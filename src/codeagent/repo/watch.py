"""File-system events of one repository (watchfiles), as batches of paths that may matter.

What is watched: the work tree, and git's own folder where it lies outside it (a ``--repo``
below the top of its repository). What passes the filter: any path that discovery could
list (junk folders such as ``node_modules`` or ``__pycache__`` left out, and the paths
named in ``ignore``, such as ``CODEAGENT_HOME`` when it lies inside the repository), and of
git's internals only what moves the state: ``HEAD``, ``index``, ``packed-refs`` and
``refs/`` (a commit, a checkout, a ``git add``). Lock files and objects never pass.

A batch is what watchfiles gathered until ``step_ms`` passed without a new event (at most
``debounce_ms``): an editor's burst of saves arrives as one batch. Whether a batch changed
anything discovery sees (a file ``.gitignore`` excludes does not) is for the caller to ask:
a cheap probe (:mod:`codeagent.repo.probe`) compared with the last one tells.

    watch = RepoWatch(root)
    for paths in watch.batches():    # until watch.stop() (from any thread or a signal handler)
        ...
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from codeagent.errors import GitError, RepoError, RepoNotFoundError, one_line
from codeagent.repo.git import git_text
from codeagent.repo.listing import JUNK_DIRS

log = logging.getLogger(__name__)

STEP_MS = 150  # a batch ends once the repository was quiet this long
DEBOUNCE_MS = 2000  # ... or after this long, however busy it stays
GIT_STATE = frozenset({"HEAD", "index", "packed-refs"})


class RepoWatch:
    """Watches the repository at ``root``; :meth:`batches` yields the changed paths."""

    def __init__(
        self,
        root: Path,
        *,
        ignore: Iterable[Path] = (),
        step_ms: int = STEP_MS,
        debounce_ms: int = DEBOUNCE_MS,
    ) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise RepoNotFoundError(f"no such directory: {self.root}")
        self.git_dir = _git_dir(self.root)
        # Only what lies inside: a repository inside CODEAGENT_HOME (a clone) is still watched.
        resolved = (Path(p).resolve() for p in ignore)
        self.ignore = tuple(p for p in resolved if p != self.root and p.is_relative_to(self.root))
        self.step_ms = step_ms
        self.debounce_ms = debounce_ms
        self._stop = threading.Event()

    def paths(self) -> list[Path]:
        """The folders watched: the work tree, and git's folder when it lies outside."""
        watched = [self.root]
        if self.git_dir is not None and not self.git_dir.is_relative_to(self.root):
            watched.append(self.git_dir)
        return watched

    def relevant(self, path: str | Path) -> bool:
        """Whether an event on ``path`` (absolute) may change what discovery sees."""
        target = Path(path)
        if any(target.is_relative_to(p) for p in self.ignore):
            return False
        if self.git_dir is not None and target.is_relative_to(self.git_dir):
            inside = target.relative_to(self.git_dir).as_posix()
            if inside.endswith(".lock"):
                return False
            return inside in GIT_STATE or inside.startswith("refs/")
        if not target.is_relative_to(self.root):
            return False
        parts = target.relative_to(self.root).parts
        return bool(parts) and not any(part in JUNK_DIRS for part in parts)

    def batches(self) -> Iterator[set[str]]:
        """Sets of changed paths (relative to the root; git's internals as ``.git/NAME``),
        one per burst of events, until :meth:`stop`. The first set comes within a second
        even when nothing happened (it may be empty): the watch is on from then, and what
        changed before is for the caller's probe to find. Deleting the root ends it with
        :class:`~codeagent.errors.RepoNotFoundError`."""
        import watchfiles

        events = watchfiles.watch(
            *self.paths(),
            watch_filter=lambda _change, path: self.relevant(path),
            step=self.step_ms,
            debounce=self.debounce_ms,
            stop_event=self._stop,
            rust_timeout=1000,  # wakes up to see a deleted root
            yield_on_timeout=True,
            raise_interrupt=False,
            ignore_permission_denied=True,  # a folder discovery cannot read either
        )
        first = True
        while True:
            try:
                changes = next(events, None)
            except (OSError, RuntimeError) as exc:  # e.g. the system's limit of watches
                if not self.root.is_dir():
                    raise RepoNotFoundError(f"{self.root} no longer exists") from exc
                raise RepoError(f"cannot watch {self.root}: {one_line(exc)}") from exc
            if changes is None or self._stop.is_set():
                return
            if not self.root.is_dir():
                raise RepoNotFoundError(f"{self.root} no longer exists")
            if changes or first:
                first = False
                yield {self._name(path) for _change, path in changes}

    def stop(self) -> None:
        """End :meth:`batches` within ``step_ms`` (safe from a signal handler)."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _name(self, path: str) -> str:
        target = Path(path)
        if self.git_dir is not None and target.is_relative_to(self.git_dir):
            return ".git/" + target.relative_to(self.git_dir).as_posix()
        return target.relative_to(self.root).as_posix()


def _git_dir(root: Path) -> Path | None:
    """Git's folder of the work tree at ``root`` (None outside git)."""
    try:
        out = git_text(root, "rev-parse", "--absolute-git-dir")
    except GitError:
        return None
    path = Path(os.fsdecode(out)).resolve()
    return path if path.is_dir() else None
