"""A cheap look at a repository's state: has it changed since an index was built?

The state hash (:mod:`codeagent.repo.state`) reads the whole working-tree diff and every
untracked file. A probe reads only what git can tell from file metadata: one
``git status`` (porcelain v2: HEAD's commit, every changed, staged, unmerged or untracked
path) and the size, modification time and inode of each path it lists. Outside git (or when
git fails) it is the size, modification time and inode of every listed file.

Two probes with equal keys stand for the same state (short of an edit that keeps a file's
size, inode and nanosecond modification time); different keys for a state that may differ (an
undone edit gives the old key back). Both the per-question freshness check of the server and
the list of changed files in its "catching up" notice come from here.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from codeagent.errors import GitError
from codeagent.repo.git import filter_overrides, git_text, git_toplevel, run_git
from codeagent.repo.index_copy import run_git_on_copy
from codeagent.repo.listing import JUNK_DIRS, list_files

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Probe:
    """What a probe saw: ``key`` (equal keys: the same state), HEAD's commit (None outside git
    or before the first commit) and a signature per changed (or, outside git, every) path."""

    key: str
    head: str | None
    entries: Mapping[str, str]


class Prober:
    """Probes one repository (told once whether it is a git work tree, and where its top is);
    ``index_copies``: where git's index is copied to be read refreshed
    (:mod:`codeagent.repo.index_copy`; None: read in place)."""

    def __init__(self, root: Path, index_copies: Path | None = None) -> None:
        self.root = Path(root).resolve()
        self.index_copies = index_copies
        top = git_toplevel(self.root)
        self._top = Path(top).resolve() if top is not None else None
        self._config: Path | None = None  # the repository's config file
        self._filters: tuple[tuple[int, ...] | None, list[str]] | None = None

    def probe(self) -> Probe:
        if self._top is not None:
            try:
                return self._git_probe(self._top)
            except GitError as exc:
                log.info("git status failed in %s, listing the files instead: %s", self.root, exc)
        return self._walk_probe()

    def _git_probe(self, top: Path) -> Probe:
        raw = run_git_on_copy(
            self.root,
            self.index_copies,
            *self._filter_overrides(),  # a racy entry is hashed: no filter of the repo's
            "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all",
            "--ignore-submodules=all", "--no-renames", "--", ".",
        )  # fmt: skip
        head: str | None = None
        entries: dict[str, str] = {}
        for line, path in _records(os.fsdecode(raw)):
            if line.startswith("# branch.oid "):
                oid = line.removeprefix("# branch.oid ")
                head = None if oid == "(initial)" else oid
            elif path is not None and not _junk(path):
                rel = _relative(top / path, self.root)
                if rel is not None:
                    entries[rel] = line + "|" + _stat(top / path)
        return Probe(_digest(head or "", entries), head, entries)

    def _filter_overrides(self) -> list[str]:
        """:func:`~codeagent.repo.git.filter_overrides`, read again only when the repository's
        config file changes (a ``git config`` call saved from every question)."""
        if self._config is None:
            self._config = self.root / git_text(self.root, "rev-parse", "--git-path", "config")
        try:
            st = os.stat(self._config)
            stamp: tuple[int, ...] | None = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        except OSError:
            stamp = None
        if self._filters is None or self._filters[0] != stamp:
            self._filters = (stamp, filter_overrides(self.root))
        return self._filters[1]

    def _walk_probe(self) -> Probe:
        entries = {rel: _stat(self.root / rel) for rel in list_files(self.root).paths}
        return Probe(_digest("", entries), None, entries)


def changed_paths(root: Path, old: Probe, new: Probe) -> list[str]:
    """The paths whose state differs between two probes of the repository at ``root``: the
    changed or untracked paths of either, and what differs between their two HEAD commits."""
    keys = old.entries.keys() | new.entries.keys()
    paths = {p for p in keys if old.entries.get(p) != new.entries.get(p)}
    if old.head != new.head and old.head and new.head:
        try:
            raw = run_git(
                root, "diff", "--name-only", "-z", "--no-renames", old.head, new.head, "--", "."
            )
        except GitError as exc:
            log.info("cannot list what changed between %s and %s: %s", old.head, new.head, exc)
        else:
            top = git_toplevel(root)
            for name in os.fsdecode(raw).split("\0"):
                rel = _relative(top / name, root) if name and top else None
                if rel is not None:
                    paths.add(rel)
    return sorted(paths)


def _records(text: str) -> list[tuple[str, str | None]]:
    """``git status --porcelain=v2 -z`` as (record, path) pairs; headers have no path."""
    out: list[tuple[str, str | None]] = []
    for record in text.split("\0"):
        if not record:
            continue
        fields = {"1": 8, "2": 9, "u": 10, "?": 1, "!": 1}.get(record[0])
        if record.startswith("#") or fields is None:
            out.append((record, None))
            continue
        parts = record.split(" ", fields)
        out.append((record, parts[-1] if len(parts) > fields else None))
    return out


def _junk(path: str) -> bool:
    return any(part in JUNK_DIRS for part in path.split("/")[:-1])


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def _stat(path: Path) -> str:
    try:
        st = os.lstat(path)
    except OSError:
        return "gone"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def _digest(head: str, entries: Mapping[str, str]) -> str:
    h = hashlib.sha256(head.encode())
    for path in sorted(entries):
        h.update(f"\0{path}\0{entries[path]}".encode("utf-8", "surrogateescape"))
    return h.hexdigest()
