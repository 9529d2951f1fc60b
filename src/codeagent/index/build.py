"""load_or_build(): discover -> chunk -> embed (cached per chunk) -> store, cached by state.

The index of one exact repository state lives in ``<cache>/<repo id>/<state hash>/``. It is
written to a ``tmp-*`` sibling and renamed into place, under a per-repository file lock, so an
interrupted or parallel run never leaves (or reads) a half-written entry. A damaged entry is
logged and rebuilt. After a build, older states of the repository are pruned.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.embed.embedders import NO_EMBEDDER_NOTICE, make_embedder
from codeagent.errors import BackendUnavailableError, EmptyRepoError, IndexBuildError
from codeagent.home import writing
from codeagent.index.build_steps import chunk_vectors, write_entry
from codeagent.index.chunked import Chunked, chunk_repo, skips
from codeagent.index.chunking import CHUNKER_VERSION
from codeagent.index.reuse import known_stamps
from codeagent.index.stats import IndexStats, languages_of
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.repo.discover import Discovery, discover, moved
from codeagent.repo.state import git_state, repo_id, state_hash, state_hash_of
from codeagent.store import cache as index_cache
from codeagent.store.dense import DEFAULT_BACKEND, DenseIndexType, backend_class
from codeagent.symbols.graph import FORMAT as SYMBOLS_FORMAT

if TYPE_CHECKING:
    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)

LOCK_TIMEOUT = 600.0  # seconds to wait for another process building the same repository
TRIES = 3  # builds begun when files keep being written while one reads them (the last kept)


def fingerprint(embedder: Embedder | None, dense_backend: str | None = None) -> str:
    """What, besides the files, decides the index: chunker and symbol-graph versions, embedder
    id and dimension, dense backend id (default: the default backend's)."""
    head = f"chunker={CHUNKER_VERSION};symbols={SYMBOLS_FORMAT}"
    if embedder is None:
        return f"{head};embedder=none"
    dense_backend = dense_backend or backend_class(DEFAULT_BACKEND).backend
    return f"{head};embedder={embedder.id};dim={embedder.dim};dense={dense_backend}"


def pool_settings(settings: Settings) -> dict[str, int]:
    """``chunk_repo``'s pool arguments: ``workers`` (0: one per CPU) and ``min_files``."""
    from codeagent.index.pool import default_workers

    return {"workers": settings.workers or default_workers(), "min_files": settings.pool_min_files}


_DEFAULT: Any = object()  # "resolve from settings", told apart from an explicit None


def load_or_build(
    root: Path,
    settings: Settings,
    *,
    force: bool = False,
    verify: bool = False,
    progress: ProgressReporter = NullProgress(),  # noqa: B008 - stateless default
    embedder: Embedder | None = _DEFAULT,
    dense: DenseIndexType | None = None,
    background: bool = False,
) -> tuple[IndexStore, IndexStats]:
    """The index of ``root``'s current state: loaded from the cache, or built and cached.

    ``background``: when the entry is missing and embedding what the embedding cache lacks
    would take longer than ``settings.background_after`` seconds, answer first: an index of
    the chunks, BM25, the symbol graph and the vectors already cached, returned at once, the
    full entry built by a detached ``codeagent index`` (:mod:`codeagent.index.answer_first`).

    A cached entry opens on its seal without reading its files (:mod:`codeagent.store.seal`);
    ``verify`` hashes them anyway, and a damaged entry is rebuilt.

    ``embedder`` (default: ``make_embedder(settings.embed)``; ``None`` for BM25 only) and
    ``dense`` (a :class:`~codeagent.store.dense.DenseIndex` class, default: the backend
    ``settings.dense`` names) are the two
    backends; tests hand in fakes here.

    A file written while it was built (after discovery listed it, before the files were read
    and git said the state) makes the build begin again, up to ``TRIES`` times; the last one
    is answered from, with a notice, and not cached: an entry holds its state's files.
    """
    made: list[Embedder | None] = []  # made once, at the first try that gets that far

    def the_embedder(stats: IndexStats) -> Embedder | None:
        if embedder is not _DEFAULT:
            return embedder
        if not made:
            made.append(make_embedder(settings.embed, settings))
        if made[0] is None and settings.embed.strip() == "auto":
            stats.notices.append(NO_EMBEDDER_NOTICE)
        return made[0]

    for attempt in range(1, TRIES + 1):
        try:
            return _load_or_build(
                root, settings, force, verify, progress, the_embedder, dense, background,
                last=attempt == TRIES,
            )  # fmt: skip
        except _Moved as exc:
            log.info("%s changed while it was indexed (%s); indexing it again", root, exc)
    raise AssertionError("the last try returns")  # pragma: no cover


class _Moved(Exception):
    """Files written while a build read them (their paths, the first few, as its message)."""


def _still(discovery: Discovery, stats: IndexStats, *, last: bool) -> bool:
    """Whether the files are still as ``discovery`` listed them, checked once they were read
    and git said the state; raises :class:`_Moved` when not, but on the ``last`` try (then the
    answer says so and the caller does not cache it)."""
    changed = moved(discovery)
    if not changed:
        return True
    named = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    if not last:
        raise _Moved(named)
    stats.notices.append(
        f"the repository changed while it was indexed ({named}): answering from the files as"
        " they were read, which may not all be one state of it; this index is not cached"
    )
    return False


def _load_or_build(
    root: Path,
    settings: Settings,
    force: bool,
    verify: bool,
    progress: ProgressReporter,
    the_embedder: Callable[[IndexStats], Embedder | None],
    dense: DenseIndexType | None,
    background: bool,
    *,
    last: bool,
) -> tuple[IndexStore, IndexStats]:
    """One try of :func:`load_or_build`."""
    from filelock import FileLock, Timeout

    started = time.perf_counter()
    stats = IndexStats()
    # the files the last entry saw with the stamp they have now are not sniffed again
    known = known_stamps(index_cache.states(settings.cache_dir / repo_id(root)))
    discovery = discover(root, max_bytes=settings.max_file_bytes, known=known)
    stats.repo = str(discovery.root)
    stats.files_indexed = len(discovery.files)
    stats.files_skipped = dict(sorted(discovery.skipped.items()))
    stats.languages = languages_of(f.path for f in discovery.files)
    if not discovery.files:
        raise EmptyRepoError(f"no indexable files in {discovery.root}{skips(discovery.skipped)}")
    from concurrent.futures import ThreadPoolExecutor

    asker = ThreadPoolExecutor(1, thread_name_prefix="git-state")  # git works while we go on
    git = asker.submit(git_state, discovery, settings.git_index_dir)
    asker.shutdown(wait=False)
    embedder = the_embedder(stats)
    dense = dense or backend_class(settings.dense)
    stats.embedder = embedder.id if embedder is not None else "none"
    stats.dim = embedder.dim if embedder is not None else None
    stats.repo_id = repo_id(discovery.root)
    stats.state_hash = state_hash_of(discovery, fingerprint(embedder, dense.backend), git.result())
    repo_dir = settings.cache_dir / stats.repo_id
    entry = repo_dir / stats.state_hash
    stats.cache_path = str(entry)
    stats.seconds["discover"] = time.perf_counter() - started

    built = False
    still = True  # the files as listed once read and git asked (checked after chunking)
    chunked: Chunked | None = None
    store = None if force else index_cache.open_entry(entry, embedder, dense, verify=verify)
    if store is None and background and embedder is not None and not force:
        from codeagent.index.answer_first import answer_first

        chunked = chunk_repo(
            discovery, stats, progress, index_cache.states(repo_dir), **pool_settings(settings)
        )
        still = _still(discovery, stats, last=last)
        if still:
            quick = answer_first(discovery.root, chunked, embedder, settings, stats)
            if quick is not None:
                stats.seconds["total"] = time.perf_counter() - started
                return quick, stats
    if store is None:
        with writing(settings.home, "the index"):
            index_cache.make_repo_dir(repo_dir)
        lock = FileLock(str(repo_dir / index_cache.LOCK_NAME), timeout=LOCK_TIMEOUT)
        try:
            with lock:
                # Another process may have built it while this one waited for the lock.
                if not force:
                    store = index_cache.open_entry(entry, embedder, dense, verify=verify)
                if store is None:
                    index_cache.remove_temporaries(repo_dir)
                    earlier = [] if force else index_cache.states(repo_dir)
                    earlier = [e for e in earlier if e.name != entry.name]
                    if chunked is None:
                        chunked = chunk_repo(
                            discovery, stats, progress, earlier, **pool_settings(settings)
                        )
                        still = _still(discovery, stats, last=last)
                    store = _build(chunked, embedder, dense, settings, stats, progress)
                    if still:  # else what was read is no one state: not cached as one
                        _cache(store, entry, chunked, settings, stats)
                    built = True
        except Timeout as exc:
            raise IndexBuildError(
                f"another codeagent process has been indexing {discovery.root} for over"
                f" {LOCK_TIMEOUT:.0f} s (lock {lock.lock_file}); try again later"
            ) from exc
    if not built:
        stats.cache_hit = True
        stats.chunks = int(store.manifest["chunks"])  # the chunks are read at first use
        stats.entry_check = "seal" if store.sealed else "sha256"
        stats.chunks_reused = stats.chunks if embedder is not None else 0
        index_cache.touch(entry)
    stats.notices.extend(store.take_notices())
    stats.seconds["total"] = time.perf_counter() - started
    return store, stats


def quick_index(
    root: Path, settings: Settings, embedder: Embedder | None
) -> tuple[IndexStore, float, IndexStats]:
    """The in-memory index of ``root`` as it is now (``answer_first.quick_store`` of its
    chunks, the earlier states of its cache lending theirs), the share of chunks with a
    vector, and its statistics (the state hash of its content, without an embedder's)."""
    from codeagent.index.answer_first import quick_store

    discovery = discover(root, max_bytes=settings.max_file_bytes)
    stats = IndexStats(repo=str(root), files_indexed=len(discovery.files))
    earlier = index_cache.states(settings.cache_dir / repo_id(discovery.root))
    chunked = chunk_repo(discovery, stats, NullProgress(), earlier, **pool_settings(settings))
    store, coverage = quick_store(chunked, embedder, settings)
    stats.state_hash = state_hash(discovery, fingerprint(None), settings.git_index_dir)
    return store, coverage, stats


def _cache(
    store: IndexStore, entry: Path, chunked: Chunked, settings: Settings, stats: IndexStats
) -> None:
    """Write ``store`` as ``entry`` and prune the repository's older states."""
    try:
        with writing(settings.home, "the index"):
            write_entry(store, entry, stats, chunked.stamps or {})
    except BackendUnavailableError as exc:  # not cached: written next time
        store.drop_dense(str(exc))
    else:
        index_cache.prune_repo(entry.parent, settings.keep_states, keep_name=entry.name)


def _build(
    chunked: Chunked,
    embedder: Embedder | None,
    dense: DenseIndexType,
    settings: Settings,
    stats: IndexStats,
    progress: ProgressReporter,
) -> IndexStore:
    """The index of ``chunked`` (the chunks of this state): its vectors (those of files
    unchanged since an earlier entry lent from there), BM25 and dense indexes."""
    from codeagent.store.store import IndexStore

    t1 = time.perf_counter()
    vectors = None
    if embedder is not None:
        vectors = chunk_vectors(chunked, embedder, settings, stats, progress)
    t2 = time.perf_counter()
    stats.seconds["embed"] = t2 - t1
    return IndexStore.build(
        chunked.content,  # written as it is: unchanged files' bytes copied, not decoded
        embedder,
        vectors,
        dense=dense,
        seconds=stats.seconds,
        ranges=chunked.ranges,
        earlier=chunked.earlier_bm25,
        terms=chunked.terms,
    )
