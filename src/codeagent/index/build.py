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
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent import lang
from codeagent.embed.embedders import NO_EMBEDDER_NOTICE, make_embedder
from codeagent.errors import BackendUnavailableError, EmptyRepoError, IndexBuildError
from codeagent.home import writing
from codeagent.index.chunking import CHUNKER_VERSION, chunk_file, parse_python
from codeagent.index.reuse import find_previous, save_files, text_digest
from codeagent.index.stats import IndexStats, languages_of
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.pysyntax import scan
from codeagent.records import Chunk
from codeagent.repo.discover import Discovery, discover
from codeagent.repo.state import repo_id, state_hash
from codeagent.store import cache as index_cache
from codeagent.store.dense import DEFAULT_BACKEND, DenseIndexType, backend_class
from codeagent.symbols.extract import module_names
from codeagent.symbols.graph import FORMAT as SYMBOLS_FORMAT
from codeagent.symbols.graph import SymbolGraph, extract_record

if TYPE_CHECKING:
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
) -> tuple[IndexStore, IndexStats]:
    """The index of ``root``'s current state: loaded from the cache, or built and cached.

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
    discovery = discover(root, max_bytes=settings.max_file_bytes)
    stats.repo = str(discovery.root)
    stats.files_indexed = len(discovery.files)
    stats.files_skipped = dict(sorted(discovery.skipped.items()))
    stats.languages = languages_of(f.path for f in discovery.files)
    if not discovery.files:
        raise EmptyRepoError(f"no indexable files in {discovery.root}{_skips(discovery.skipped)}")
    if embedder is _DEFAULT:
        embedder = make_embedder(settings.embed, settings)
        if embedder is None and settings.embed.strip() == "auto":
            stats.notices.append(NO_EMBEDDER_NOTICE)
    dense = dense or backend_class(settings.dense)
    stats.embedder = embedder.id if embedder is not None else "none"
    stats.dim = embedder.dim if embedder is not None else None
    stats.repo_id = repo_id(discovery.root)
    stats.state_hash = state_hash(discovery, fingerprint(embedder, dense.backend))
    repo_dir = settings.cache_dir / stats.repo_id
    entry = repo_dir / stats.state_hash
    stats.cache_path = str(entry)
    stats.seconds["discover"] = time.perf_counter() - started

    built = False
    store = None if force else index_cache.open_entry(entry, embedder, dense, verify=verify)
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
                    store, ranges = _build(
                        discovery, embedder, dense, settings, stats, progress, earlier
                    )
                    try:
                        with writing(settings.home, "the index"):
                            _write(store, ranges, entry, stats)
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


def _skips(skipped: Counter[str]) -> str:
    if not skipped:
        return " (nothing found)"
    return " (skipped: " + ", ".join(f"{n} {reason}" for reason, n in skipped.most_common()) + ")"


def _build(
    discovery: Discovery,
    embedder: Embedder | None,
    dense: DenseIndexType,
    settings: Settings,
    stats: IndexStats,
    progress: ProgressReporter,
    earlier: list[Path],
) -> tuple[IndexStore, dict[str, tuple[str, int, int]]]:
    """Build the index; files unchanged since the first of ``earlier`` (entries of the same
    repository, most recently used first) keep their chunks and symbols from there."""
    from codeagent.embed.cache import EmbedCache
    from codeagent.store.store import IndexStore

    t0 = time.perf_counter()
    previous = find_previous(earlier)
    chunks: list[Chunk] = []
    ranges: dict[str, tuple[str, int, int]] = {}  # path -> (digest, first chunk, count)
    records: dict[str, dict[str, Any]] = {}  # path -> symbol record (parsed now or reused)
    unreadable = 0
    with progress.task("chunking", total=len(discovery.files)) as advance:
        for file in discovery.files:
            try:
                text = file.read_text()
            except OSError as exc:
                log.info("skipping %s: %s", file.path, exc)  # counted in the stats
                unreadable += 1
            else:
                digest = text_digest(text)
                own = previous.chunks(file.path, digest) if previous is not None else None
                if own is not None and previous is not None:  # the same text: as before
                    stats.files_reused += 1
                    record = previous.record(file.path)
                    if record is not None:
                        records[file.path] = record
                else:  # new or changed: parse, chunk, extract its symbols
                    tree = parse_python(file.path, text)
                    found = scan(tree) if tree is not None else None  # one walk for both
                    parsed = None if tree is not None else lang.parse_file(file.path, text)
                    own = chunk_file(file.path, text, tree, found, parsed)
                    if tree is not None:  # one tree at a time in memory
                        records[file.path] = extract_record(tree, file.path, discovery.root, found)
                    elif parsed is not None:  # symbols even from a tree with errors
                        records[file.path] = parsed.record(file.path)
                        if parsed.errors:
                            errors = stats.parse_errors
                            errors[parsed.language] = errors.get(parsed.language, 0) + 1
                    del tree, found
                ranges[file.path] = (digest, len(chunks), len(own))
                chunks.extend(own)
            advance(1)
    # The symbol graph (definitions, imports, bases, call sites) from the same parse; a
    # reused record whose module name changed (a package appeared) is extracted again.
    trees: dict[str, Any] = {}
    python = sorted(p for p, rec in records.items() if "l" not in rec)
    modules = module_names(python, discovery.root)
    by_path = {f.path: f for f in discovery.files}
    for path in [p for p in python if records[p].get("m") != modules[p]]:
        del records[path]
        try:
            tree = parse_python(path, by_path[path].read_text())
        except OSError:  # gone since it was read: no symbols, as for a file that fails to parse
            tree = None
        if tree is not None:
            trees[path] = tree
    symbols = SymbolGraph.build(trees, root=discovery.root, reused=records)
    del trees, records
    if unreadable:
        stats.files_indexed -= unreadable
        stats.files_skipped["unreadable"] = stats.files_skipped.get("unreadable", 0) + unreadable
    if not chunks:
        skipped = Counter(stats.files_skipped)
        raise EmptyRepoError(
            f"no indexable files in {discovery.root}{_skips(skipped)}; "
            f"{stats.files_indexed} files had no content to index"
        )
    stats.chunks = len(chunks)
    t1 = time.perf_counter()
    stats.seconds["chunk"] = t1 - t0

    vectors = None
    if embedder is not None:
        with EmbedCache(settings.embed_cache_dir, home=settings.home) as cache:
            stats.notices.extend(cache.notices)
            result = cache.embed(
                embedder,
                [c.embed_text for c in chunks],
                batch_size=settings.batch_size,
                progress=progress,
            )
        vectors = result.vectors
        stats.chunks_embedded = result.embedded
        stats.chunks_reused = result.reused
    t2 = time.perf_counter()
    stats.seconds["embed"] = t2 - t1
    store = IndexStore.build(
        chunks,
        embedder,
        vectors,
        dense=dense,
        seconds=stats.seconds,
        symbols=symbols,
        ranges=ranges,
        earlier=previous.bm25 if previous is not None else None,
    )
    return store, ranges


def _write(
    store: IndexStore, ranges: dict[str, tuple[str, int, int]], entry: Path, stats: IndexStats
) -> None:
    """Save into a temporary sibling of ``entry``, then rename it into place."""
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix=index_cache.TMP_PREFIX, dir=entry.parent))
    try:
        meta = {
            "repo": stats.repo,
            "state_hash": stats.state_hash,
            "embedder_dim": stats.dim,
            "created": time.time(),
        }
        save_files(tmp, ranges)  # before the store: its manifest lists every file
        store.save(tmp, meta=meta)
        if entry.exists():  # --force, or a damaged entry: set the old one aside first
            old = Path(tempfile.mkdtemp(prefix=index_cache.TMP_PREFIX, dir=entry.parent))
            os.replace(entry, old / "old")
            os.replace(tmp, entry)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, entry)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    stats.seconds["save"] += time.perf_counter() - t0
