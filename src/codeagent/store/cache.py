"""The on-disk index cache: ``<cache>/<repo id>/<state hash>/`` entries; list, prune, clear.

Each repository directory also holds ``.lock`` (the build lock), ``.codeagent-index`` (the
mark saying codeagent made it) and, while a build writes, ``tmp-*`` directories that are
renamed into place when complete. An entry's modification time is bumped each time it is
used, so pruning keeps the most recently used states.

Listing, pruning and clearing look only at marked directories: a folder codeagent did not
create (and a symlink) under the cache is never deleted, only reported by :func:`foreign`.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.store.dense import DenseIndexType
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)

LOCK_NAME = ".lock"
TMP_PREFIX = "tmp-"
OWNER_MARK = ".codeagent-index"
_MARK_TEXT = "made by codeagent: `codeagent cache clear` may delete this folder\n"


@dataclass
class RepoCache:
    """One repository's cached index states."""

    repo_id: str
    path: Path
    states: int
    size: int  # bytes, all states
    newest: float  # mtime of the most recently used state, 0 if none
    repo: str  # the repository root recorded in the newest manifest, "" if unknown

    def to_json(self) -> dict[str, Any]:
        return {
            "repo_id": self.repo_id,
            "repo": self.repo,
            "states": self.states,
            "size_bytes": self.size,
            "newest": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.newest))
            if self.newest
            else None,
            "path": str(self.path),
        }


def make_repo_dir(repo_dir: Path) -> None:
    """Create a repository's cache directory (and the cache root) and mark it as codeagent's;
    ``PermissionError`` when it exists but cannot be written (the build lock lives there)."""
    from codeagent.home import hide

    repo_dir.mkdir(parents=True, exist_ok=True)
    mark = repo_dir / OWNER_MARK
    if not mark.is_file():
        mark.write_text(_MARK_TEXT, encoding="utf-8")
        hide(repo_dir)  # a home inside a repository is not indexed with it
    if not os.access(repo_dir, os.W_OK):  # also false on a read-only mount, even for root
        raise PermissionError(errno.EACCES, "Permission denied", str(repo_dir))


def is_owned(path: Path) -> bool:
    """Whether ``path`` is a real directory codeagent made (it carries the mark)."""
    return path.is_dir() and not path.is_symlink() and (path / OWNER_MARK).is_file()


def foreign(settings: Settings) -> list[Path]:
    """Entries under the cache root that codeagent did not make (left alone by clear)."""
    root = settings.cache_dir
    try:
        return sorted(p for p in root.iterdir() if not is_owned(p))
    except OSError:
        return []


def open_entry(
    entry: Path,
    embedder: Embedder | None,
    dense: DenseIndexType | None = None,
    *,
    verify: bool = False,
) -> IndexStore | None:
    """The stored index at ``entry``, or None if absent or damaged (logged, to be rebuilt);
    ``verify`` hashes its files even when its seal vouches for them."""
    if not entry.is_dir():
        return None
    from codeagent.store.entry_files import CorruptIndexError
    from codeagent.store.store import IndexStore

    try:
        return IndexStore.load(entry, embedder, dense, verify=verify)
    except CorruptIndexError as exc:
        log.warning("%s; rebuilding it", exc)
        return None


def touch(entry: Path) -> None:
    try:
        os.utime(entry)
    except OSError as exc:  # a read-only cache still serves
        log.debug("cannot touch %s: %s", entry, exc)


def states(repo_dir: Path) -> list[Path]:
    """A repository's finished state directories, most recently used first."""
    try:
        entries = [
            p for p in repo_dir.iterdir() if p.is_dir() and not p.name.startswith(TMP_PREFIX)
        ]
    except OSError:
        return []
    return sorted(entries, key=lambda p: p.stat().st_mtime, reverse=True)


def remove_temporaries(repo_dir: Path) -> None:
    """Delete leftovers of interrupted builds (call with the repository's lock held)."""
    for path in repo_dir.glob(f"{TMP_PREFIX}*"):
        shutil.rmtree(path, ignore_errors=True)


def prune_repo(repo_dir: Path, keep: int, *, keep_name: str | None = None) -> int:
    """Delete all but the ``keep`` most recently used states; returns how many went."""
    entries = states(repo_dir)
    kept = entries[:keep]
    if keep_name is not None and not any(p.name == keep_name for p in kept):
        kept = [p for p in entries if p.name == keep_name] + entries[: max(keep - 1, 0)]
    removed = 0
    for path in entries:
        if path not in kept:
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += (Path(root) / name).stat().st_size
    return total


def _recorded_repo(entry: Path) -> str:
    import json

    try:
        manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
        return str(manifest.get("repo", ""))
    except (OSError, ValueError, AttributeError):
        return ""


def list_repos(settings: Settings) -> list[RepoCache]:
    """Every repository with a directory in the cache, most recently used first."""
    root = settings.cache_dir
    if not root.is_dir():
        return []
    result = []
    for repo_dir in sorted(p for p in root.iterdir() if is_owned(p)):
        entries = states(repo_dir)
        result.append(
            RepoCache(
                repo_id=repo_dir.name,
                path=repo_dir,
                states=len(entries),
                size=_size(repo_dir),
                newest=entries[0].stat().st_mtime if entries else 0.0,
                repo=_recorded_repo(entries[0]) if entries else "",
            )
        )
    return sorted(result, key=lambda r: r.newest, reverse=True)


def prune(settings: Settings, keep: int | None = None) -> int:
    """Keep the ``keep`` (default ``settings.keep_states``) newest states of every repository."""
    from filelock import FileLock, Timeout

    keep = settings.keep_states if keep is None else keep
    removed = 0
    for repo in list_repos(settings):
        try:
            with FileLock(str(repo.path / LOCK_NAME), timeout=0):
                remove_temporaries(repo.path)
                removed += prune_repo(repo.path, keep)
        except Timeout:
            log.warning("skipping %s: an index is being built", repo.repo_id)
    return removed


def _drop_external(repo_dir: Path, notices: list[str] | None) -> None:
    """Drop the rows this repository's entries keep outside the cache (a backend whose rows
    live elsewhere, ``external``, says how: its ``drop_repository``)."""
    from codeagent.store.dense import BACKENDS, backend_class

    for name in sorted(BACKENDS):
        kind: Any = backend_class(name)
        drop = getattr(kind, "drop_repository", None)
        if drop is None or not any(repo_dir.glob(f"*/{kind.file_name}")):
            continue
        for line in drop(repo_dir):
            log.warning("%s", line)
            if notices is not None:
                notices.append(line)


def clear(
    settings: Settings, *, embeddings: bool = False, notices: list[str] | None = None
) -> tuple[int, int]:
    """Delete every cached index codeagent made, and the copies of the repositories' git
    indexes (and, with ``embeddings``, the embedding cache).

    Vectors an entry keeps in Milvus are dropped there too; a Milvus that cannot be reached
    adds a line to ``notices``. Returns (repositories removed, embedding entries removed).
    Folders without the mark are left alone (see :func:`foreign`).
    """
    from filelock import FileLock, Timeout

    repos = 0
    if settings.cache_dir.is_dir():
        for repo_dir in settings.cache_dir.iterdir():
            if not is_owned(repo_dir):
                continue
            try:
                with FileLock(str(repo_dir / LOCK_NAME), timeout=0):
                    _drop_external(repo_dir, notices)
                    shutil.rmtree(repo_dir, ignore_errors=True)
                repos += 1
            except Timeout:
                log.warning("skipping %s: an index is being built", repo_dir.name)
    from codeagent.repo.index_copy import clear_copies

    clear_copies(settings.git_index_dir)  # the git indexes' copies: made again when needed
    vectors = 0
    if embeddings and settings.embed_cache_dir.is_dir():
        from codeagent.embed.cache import clear_embeddings

        vectors = clear_embeddings(settings.embed_cache_dir, home=settings.home)
    return repos, vectors
