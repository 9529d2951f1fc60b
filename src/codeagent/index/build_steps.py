"""Two steps of a build (:mod:`codeagent.index.build`): a vector for every chunk, and the
entry written into the cache."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.index.reuse import write_stamps
from codeagent.store import cache as index_cache

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.index.chunked import Chunked
    from codeagent.index.stats import IndexStats
    from codeagent.progress import ProgressReporter
    from codeagent.store.store import IndexStore


def chunk_vectors(
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


def write_entry(store: IndexStore, entry: Path, stats: IndexStats, stamps: dict[str, str]) -> None:
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
