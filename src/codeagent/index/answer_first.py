"""Answer first, embed behind.

When the dense index of the current state is missing and embedding what the embedding cache
lacks would take a while (the embedder's own estimate, :mod:`codeagent.embed.speed`, past
``settings.background_after`` seconds), a question is answered at once from an index held in
memory: the chunks, BM25 and the symbol graph (made in about a second), and dense search over
the chunks whose vectors are already cached (an earlier state, another clone). One notice
says how much of the index dense search covers; the full index is built behind the answer (a
detached ``codeagent index``: :mod:`codeagent.index.background`), and the next question
opens it from the cache. An embedder without an estimate (the hash embedder of the tests) or
a small edit keeps building in the foreground.

The server answers from the same in-memory index while its own first build runs (in a
thread of its process, :class:`~codeagent.index.building.BuildingIndex`): :func:`quick_store`
serves both (:func:`codeagent.index.build.quick_index` for the server).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.errors import CodeAgentError
from codeagent.index import background

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.index.chunked import Chunked
    from codeagent.index.first_vectors import FirstVectors
    from codeagent.index.stats import IndexStats
    from codeagent.store.store import IndexStore


class PartialDense:
    """Exact inner-product search over the vectors of some of the chunks (``rows``: their
    chunk ids); the ids it returns are chunk ids. Held in memory only. ``first``: embeds a
    question's candidate files on request (:mod:`codeagent.index.first_vectors`)."""

    backend = "partial"
    file_name = ""

    def __init__(self, rows: np.ndarray, vectors: np.ndarray) -> None:
        self._data = (rows, vectors)  # replaced whole: a search reads one consistent pair
        self.dim = int(vectors.shape[1])
        self.first: FirstVectors | None = None

    @property
    def rows(self) -> np.ndarray:
        return self._data[0]

    def extend(self, rows: list[int], vectors: np.ndarray) -> None:
        """Add the vectors of chunks ``rows`` (chunks it has no vector for)."""
        import numpy as np

        old_rows, old_vectors = self._data
        self._data = (
            np.concatenate([old_rows, np.asarray(rows, dtype=np.int64)]),
            np.vstack([old_vectors, np.asarray(vectors, dtype=np.float32)]),
        )

    def embed_first(self, files: Sequence[Sequence[int]]) -> int:
        """Embed the candidate files' chunks first (see :class:`FirstVectors`); 0 without."""
        return self.first.embed_first(files) if self.first is not None else 0

    def take_notices(self) -> list[str]:
        return self.first.take_notices() if self.first is not None else []

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, vectors: np.ndarray) -> None:
        raise CodeAgentError("a partial dense index takes no rows")

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        n = len(queries)
        rows, vectors = self._data
        scores = np.full((n, k), -np.inf, dtype=np.float32)
        ids = np.full((n, k), -1, dtype=np.int64)
        if not len(rows) or k <= 0:
            return scores, ids
        sims = np.asarray(queries, dtype=np.float32) @ vectors.T
        take = min(k, len(rows))
        order = np.argsort(-sims, axis=1, kind="stable")[:, :take]
        scores[:, :take] = np.take_along_axis(sims, order, axis=1)
        ids[:, :take] = rows[order]
        return scores, ids

    def save(self, path: Path) -> None:
        raise CodeAgentError("a partial dense index is never saved")


def cached_vectors(
    texts: list[str], embedder: Embedder, settings: Settings
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``(rows, vectors, missing)``: the indexes of ``texts`` whose vectors the embedding
    cache holds, those vectors, and the distinct texts it lacks."""
    import numpy as np

    from codeagent.embed.cache import DB_NAME, EmbedCache, text_key

    keys = [text_key(embedder.id, text) for text in texts]
    found: dict[str, bytes] = {}
    if (settings.embed_cache_dir / DB_NAME).is_file():  # a new home has none: not made here
        with EmbedCache(settings.embed_cache_dir, home=settings.home) as cache:
            found = cache.get_many(list(dict.fromkeys(keys)))
    rows: list[int] = []
    vectors: list[np.ndarray] = []
    missing: dict[str, str] = {}
    for row, (key, text) in enumerate(zip(keys, texts, strict=True)):
        raw = found.get(key)
        vector = np.frombuffer(raw, dtype=np.float32) if raw is not None else None
        if vector is not None and vector.shape == (embedder.dim,):
            rows.append(row)
            vectors.append(vector)
        else:
            missing.setdefault(key, text)
    matrix = np.vstack(vectors) if vectors else np.zeros((0, embedder.dim), dtype=np.float32)
    return np.asarray(rows, dtype=np.int64), matrix, list(missing.values())


def quick_store(
    chunked: Chunked, embedder: Embedder | None, settings: Settings
) -> tuple[IndexStore, float]:
    """An in-memory index of ``chunked``: BM25, the symbol graph, and dense search over the
    chunks whose vectors are cached (and each question's candidate files, embedded first);
    returns it and the share of chunks with a vector."""
    if embedder is None:
        return _store(chunked, None, None, settings, []), 0.0
    texts = [c.embed_text for c in chunked.chunks]
    rows, vectors, _missing = cached_vectors(texts, embedder, settings)
    dense = PartialDense(rows, vectors)
    return _store(chunked, embedder, dense, settings, texts), len(rows) / len(texts)


def _store(
    chunked: Chunked,
    embedder: Embedder | None,
    dense: PartialDense | None,
    settings: Settings,
    texts: list[str],
) -> IndexStore:
    """The in-memory store; ``texts``: every chunk's embedding text (made once, by the caller)."""
    from codeagent.store.store import IndexStore

    chunks = chunked.chunks
    store = IndexStore.build(chunks, None, None, symbols=chunked.symbols, terms=chunked.terms)
    if embedder is None or dense is None:
        return store
    if settings.first_embed_seconds > 0 and hasattr(embedder, "estimate_seconds"):
        from codeagent.index.first_vectors import FirstVectors

        dense.first = FirstVectors(dense, texts, embedder, settings)
    elif not len(dense):  # nothing to search and nothing to add: no query model to load
        return store
    return IndexStore(chunks, embedder, bm25=store.bm25, dense=dense, symbols=chunked.symbols)


def percent(coverage: float) -> str:
    shown = round(coverage * 100)
    if shown == 100 and coverage < 1:
        shown = 99
    if shown == 0 and coverage > 0:
        return "under 1 %"
    return f"{shown} %"


# How every line about a dense index still being built starts: an answer that used no
# vectors (the symbol graph, one file's syntax tree) does not say it.
DENSE_NOTICE = "dense search: "


def is_dense_notice(text: str) -> bool:
    return text.startswith(DENSE_NOTICE)


def notice(coverage: float, build: background.Build) -> str:
    """The one line an answer from an index answered first carries."""
    pid = f"pid {build.pid}, " if build.pid else ""
    return (
        f"{DENSE_NOTICE}{percent(coverage)} of chunks, building in the background"
        f" ({pid}log {build.log})"
    )


def said_again(settings: Settings, stats: IndexStats) -> str | None:
    """What each answer from an index answered first (``stats``) says again, or None once the
    background build has cached the full index (then it is opened: a cache hit)."""
    # the build first: one that ends between the two looks has left its entry
    build = background.find(settings, stats.repo_id, stats.state_hash)
    if Path(stats.cache_path).is_dir():
        return None
    coverage = stats.dense_coverage or 0.0
    if build is not None:
        return notice(coverage, build)
    log_file = background.log_path(settings, stats.repo_id, stats.state_hash)
    return (
        f"{DENSE_NOTICE}{percent(coverage)} of chunks; the background index stopped before it"
        f" finished (log {log_file}): `codeagent index` builds it"
    )


def answer_first(
    root: Path, chunked: Chunked, embedder: Embedder, settings: Settings, stats: IndexStats
) -> IndexStore | None:
    """The index to answer from now when building the full one would keep the question
    waiting (the full one started in the background, ``stats`` told), else None: build it
    here, now."""
    estimate = getattr(embedder, "estimate_seconds", None)
    if estimate is None or not background.supported():
        return None
    texts = [c.embed_text for c in chunked.chunks]
    rows, vectors, missing = cached_vectors(texts, embedder, settings)
    if not missing or estimate(missing) <= settings.background_after:
        return None
    store = _store(chunked, embedder, PartialDense(rows, vectors), settings, texts)
    coverage = len(rows) / len(texts)
    build = background.start(root, settings, stats.repo_id, stats.state_hash)
    if build is None:
        return None
    stats.dense_coverage = round(coverage, 4)
    stats.notices.append(notice(coverage, build))
    return store
