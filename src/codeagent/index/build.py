"""load_or_build(): discover -> chunk -> embed (cached per chunk) -> store, cached by state.

The index of one exact repository state lives in ``<cache>/<repo id>/<state hash>/``. It is
written to a ``tmp-*`` sibling and renamed into place, under a per-repository file lock, so an
interrupted or parallel run never leaves (or reads) a half-written entry. A damaged entry is
logged and rebuilt. After a build, older states of the repository are pruned.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.embed.embedders import NO_EMBEDDER_NOTICE, make_embedder
from codeagent.errors import BackendUnavailableError, EmptyRepoError, IndexBuildError
from codeagent.home import writing
from codeagent.index.chunked import Chunked, chunk_repo, skips
from codeagent.index.chunking import CHUNKER_VERSION
from codeagent.index.reuse import known_stamps, write_stamps
from codeagent.index.stats import IndexStats, languages_of
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.repo.discover import Discovery, discover
from codeagent.repo.state import git_state, repo_id, state_hash, state_hash_of
from codeagent.store import cache as index_cache
from codeagent.store.dense import DEFAULT_BACKEND, DenseIndexType, backend_class
from codeagent.symbols.graph import FORMAT as SYMBOLS_FORMAT

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)

LOCK_TIMEOUT = 600.0  # seconds to wait for another process building the same repository


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
    """
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
    if embedder is _DEFAULT:
        embedder = make_embedder(settings.embed, settings)
        if embedder is None and settings.embed.strip() == "auto":
            stats.notices.append(NO_EMBEDDER_NOTICE)
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
    chunked: Chunked | None = None
    store = None if force else index_cache.open_entry(entry, embedder, dense, verify=verify)
    if store is None and background and embedder is not None and not force:
        from codeagent.index.answer_first import answer_first

        chunked = chunk_repo(
            discovery, stats, progress, index_cache.states(repo_dir), **pool_settings(settings)
        )
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
                    store, chunked = _build(
                        discovery, embedder, dense, settings, stats, progress, earlier, chunked
                    )
                    try:
                        with writing(settings.home, "the index"):
                            _write(store, entry, stats, chunked.stamps or {})
                    except BackendUnavailableError as exc:  # not cached: written next time
                        store.drop_dense(str(exc))
                    else:
                        index_cache.prune_repo(repo_dir, settings.keep_states, keep_name=entry.name)
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


def _build(
    discovery: Discovery,
    embedder: Embedder | None,
    dense: DenseIndexType,
    settings: Settings,
    stats: IndexStats,
    progress: ProgressReporter,
    earlier: list[Path],
    chunked: Chunked | None = None,
) -> tuple[IndexStore, Chunked]:
    """Build the index (``chunked``: the chunks of this state, when already made); files
    unchanged since the first of ``earlier`` (entries of the same repository, most recently
    used first) keep their chunks and symbols from there. Returns it and its chunks."""
    from codeagent.store.store import IndexStore

    if chunked is None:
        chunked = chunk_repo(discovery, stats, progress, earlier, **pool_settings(settings))
    t1 = time.perf_counter()
    vectors = None
    if embedder is not None:
        vectors = _vectors(chunked, embedder, settings, stats, progress)
    t2 = time.perf_counter()
    stats.seconds["embed"] = t2 - t1
    store = IndexStore.build(
        chunked.content,  # written as it is: unchanged files' bytes copied, not decoded
        embedder,
        vectors,
        dense=dense,
        seconds=stats.seconds,
        ranges=chunked.ranges,
        earlier=chunked.earlier_bm25,
        terms=chunked.terms,
    )
    return store, chunked


def _vectors(
    chunked: Chunked,
    embedder: Embedder,
    settings: Settings,
    stats: IndexStats,
    progress: ProgressReporter,
) -> np.ndarray:
    """A vector per chunk: those of unchanged files from the earlier entry's dense file where
    it can be trusted (:mod:`codeagent.store.earlier_vectors`), the rest from the embedding
    cache, embedding what it lacks."""
    import numpy as np

    from codeagent.embed.cache import EmbedCache
    from codeagent.store.earlier_vectors import reuse

    content = chunked.content
    lent = reuse(chunked.earlier_bm25, chunked.ranges, len(content), embedder.id, embedder.dim)
    if lent is None:
        todo = None
        stats.chunks_reused = 0
        texts = [c.embed_text for c in chunked.chunks]  # borrowed stretches decoded in one go
    else:
        vectors, known = lent
        todo = np.flatnonzero(~known)
        stats.chunks_reused = len(content) - len(todo)
        if not len(todo):
            return vectors
        texts = [content[int(i)].embed_text for i in todo]  # new and changed files' chunks
    with EmbedCache(settings.embed_cache_dir, home=settings.home) as cache:
        stats.notices.extend(cache.notices)
        result = cache.embed(embedder, texts, batch_size=settings.batch_size, progress=progress)
    stats.chunks_embedded = result.embedded
    stats.chunks_reused += result.reused  # duplicates and texts cached from elsewhere
    if todo is None:
        return result.vectors
    vectors[todo] = result.vectors
    return vectors


def _write(store: IndexStore, entry: Path, stats: IndexStats, stamps: dict[str, str]) -> None:
    """Save into a temporary sibling of ``entry`` (with the files' ``stamps``), then rename it
    into place."""
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix=index_cache.TMP_PREFIX, dir=entry.parent))
    try:
        meta = {
            "repo": stats.repo,
            "state_hash": stats.state_hash,
            "embedder_dim": stats.dim,
            "created": time.time(),
        }
        write_stamps(tmp, stamps)  # listed in the manifest that save writes last
        store.save(tmp, meta=meta)
        if entry.exists():  # --force, or a damaged entry: set the old one aside first
            old = Path(tempfile.mkdtemp(prefix=index_cache.TMP_PREFIX, dir=entry.parent))
            os.replace(entry, old / "old")
            os.replace(tmp, entry)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, entry)
        store.moved_to(entry)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    stats.seconds["save"] += time.perf_counter() - t0
