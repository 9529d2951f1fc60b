"""Repository identity and a hash of its exact state (what the index cache is keyed by).

In git the state is the HEAD commit, the working-tree diff against it (staged and unstaged),
the untracked files' paths and contents, and the list of discovered paths; outside git (and
in a repository without commits) it is every discovered file's path and content. The index
fingerprint (chunker version, embedder id, ...) is always part of it.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from pathlib import Path

from codeagent.errors import GitError
from codeagent.repo.discover import Discovery
from codeagent.repo.git import filter_overrides, git_text
from codeagent.repo.index_copy import run_git_on_copy
from codeagent.repo.listing import untracked_files

log = logging.getLogger(__name__)

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def repo_id(root: Path) -> str:
    """``<dirname>-<12 hex of the resolved path>``; the name made safe for a directory."""
    resolved = Path(root).expanduser().resolve()
    name = _UNSAFE.sub("_", resolved.name).strip("._") or "root"
    digest = hashlib.sha256(str(resolved).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{name[:48]}-{digest[:12]}"


@dataclass(frozen=True)
class GitState:
    """What git says of a work tree's state: HEAD, the diff against it hashed, the untracked
    paths. Read apart from :func:`state_hash` so that a build can ask git while it does other
    work (:func:`git_state` in a thread); the hash is the same either way."""

    head: str
    diff: str
    untracked: frozenset[str]


def git_state(discovery: Discovery, index_copies: Path | None = None) -> GitState | None:
    """The git side of the state; None outside git, before the first commit or when git cannot
    produce the diff (the files themselves are hashed then). ``index_copies``: git's index read
    from a refreshed copy kept there (:mod:`codeagent.repo.index_copy`: the same state, read
    without hashing every racily clean file again)."""
    root = discovery.root
    head = _git_head(root) if discovery.is_git else None
    diff = _git_diff_digest(root, index_copies) if head is not None else None
    if head is None or diff is None:
        return None
    return GitState(head, diff, frozenset(untracked_files(root, index_copies)))


def state_hash(discovery: Discovery, fingerprint: str, index_copies: Path | None = None) -> str:
    """A sha256 hex digest that changes whenever the indexed content or fingerprint does
    (``index_copies``: as for :func:`git_state`)."""
    return state_hash_of(discovery, fingerprint, git_state(discovery, index_copies))


def state_hash_of(discovery: Discovery, fingerprint: str, git: GitState | None) -> str:
    """:func:`state_hash` from git's side of the state already read (:func:`git_state` of the
    same discovery; None: the files themselves are hashed)."""
    h = hashlib.sha256()
    _feed(h, "codeagent-state-1", fingerprint)
    _feed(h, "paths", *(f.path for f in discovery.files))
    if git is None:
        _feed(h, "files")
        for file in discovery.files:
            _feed(h, file.path, _file_digest(file.abs_path))
        return h.hexdigest()
    _feed(h, "git", git.head, git.diff)
    _feed(h, "untracked")
    for file in discovery.files:
        if file.path in git.untracked:
            _feed(h, file.path, _file_digest(file.abs_path))
    return h.hexdigest()


def _feed(h: hashlib._Hash, *parts: str) -> None:
    for part in parts:
        data = part.encode("utf-8", "surrogateescape")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:  # vanished or unreadable since discovery: still a distinct state
        return f"error:{type(exc).__name__}"


def _git_head(root: Path) -> str | None:
    """HEAD's commit, ``"no-head"`` before the first commit, None if git fails."""
    try:
        return git_text(root, "rev-parse", "--verify", "-q", "HEAD")
    except GitError as exc:
        if exc.status == 1:
            return None  # no commit yet: hash the files themselves
        log.warning("git rev-parse failed in %s: %s", root, exc)
        return None


def _git_diff_digest(root: Path, index_copies: Path | None = None) -> str | None:
    """The work tree's diff against HEAD, hashed; None when git cannot produce it (a tracked
    file it cannot read, for one): the caller then hashes the files themselves."""
    try:
        raw = run_git_on_copy(
            root,
            index_copies,
            *filter_overrides(root),
            "diff", "HEAD", "--binary", "--no-ext-diff", "--no-textconv", "--no-color",
            "--no-renames", "--full-index", "--", ".",
        )  # fmt: skip
    except GitError as exc:
        log.info("git diff failed in %s, hashing the files instead: %s", root, exc)
        return None
    return hashlib.sha256(raw).hexdigest()
