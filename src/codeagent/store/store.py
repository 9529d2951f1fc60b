"""The searchable index of one repository state: BM25 + a dense index, fused by RRF.

BM25 (bm25s) runs over code-aware, stemmed terms of each chunk's embedded text (its path,
symbol and code); the dense side is an inner-product index over L2-normalised vectors.
A search takes the top candidates of each side, fuses them with RRF (k = 60) and keeps at most
``per_file`` chunks of any one file.

The files of an entry, their checks and the manifest are :mod:`codeagent.store.entry_files`.
BM25, the dense index and the symbol graph are loaded at first use, so opening a cached index
stays cheap. The dense side is any :class:`~codeagent.store.dense.DenseIndex` backend (the
setting ``dense`` chooses it), named in the manifest with its file.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.errors import BackendUnavailableError
from codeagent.records import Chunk, SearchHit
from codeagent.store.dense import (
    DEFAULT_BACKEND,
    DenseIndex,
    DenseIndexType,
    NamesEmbedder,
    backend_class,
    backend_with_id,
)
from codeagent.store.entry_files import (
    BM25_DIR,
    CorruptIndexError,
    check_bm25_files,
    read_chunks,
    read_manifest,
    verify_files,
    write_chunks,
    write_manifest,
)
from codeagent.store.fusion import RRF_K, bm25_tokens, rrf_fuse
from codeagent.symbols.graph import SymbolGraph
from codeagent.tokens import bm25_terms

if TYPE_CHECKING:
    import numpy as np

    from codeagent.embed.embedders import Embedder

log = logging.getLogger(__name__)

__all__ = ["RRF_K", "CorruptIndexError", "IndexStore", "bm25_tokens", "rrf_fuse"]


class IndexStore:
    """Chunks plus their BM25 and (optionally) dense indexes."""

    def __init__(
        self,
        chunks: list[Chunk],
        embedder: Embedder | None,
        *,
        bm25: Any = None,
        dense: DenseIndex | None = None,
        dense_type: DenseIndexType | None = None,
        directory: Path | None = None,
        manifest: dict[str, Any] | None = None,
        symbols: SymbolGraph | None = None,
    ) -> None:
        self.chunks = chunks
        self.embedder = embedder
        self.embedder_id: str | None = embedder.id if embedder is not None else None
        self.manifest: dict[str, Any] = manifest or {}
        self._bm25 = bm25
        self._dense = dense
        self._dense_type = dense_type
        self._directory = directory
        self._symbols = symbols
        self._dense_off = False  # the dense backend could not be reached: BM25 + symbols
        self.notices: list[str] = []  # said once by take_notices()

    @classmethod
    def build(
        cls,
        chunks: list[Chunk],
        embedder: Embedder | None,
        vectors: np.ndarray | None,
        *,
        dense: DenseIndexType | None = None,
        seconds: dict[str, float] | None = None,
        symbols: SymbolGraph | None = None,
    ) -> IndexStore:
        """Index ``chunks``; ``vectors`` (n, dim) normalised rows, or None for BM25 only.

        ``dense`` is the dense index class (default: the default backend); ``seconds`` gets
        the time of the ``bm25`` and ``dense`` phases added.
        """
        import bm25s

        seconds = seconds if seconds is not None else {}
        start = time.perf_counter()
        bm25 = bm25s.BM25()
        bm25.index([bm25_tokens(c) for c in chunks], show_progress=False)
        middle = time.perf_counter()
        seconds["bm25"] = seconds.get("bm25", 0.0) + middle - start
        index = None
        if embedder is not None and vectors is not None:
            index = (dense or backend_class(DEFAULT_BACKEND))(embedder.dim)
            if isinstance(index, NamesEmbedder):  # e.g. a database naming its collections
                index.embedder_id = embedder.id
            index.add(vectors)
        seconds["dense"] = seconds.get("dense", 0.0) + time.perf_counter() - middle
        return cls(chunks, embedder, bm25=bm25, dense=index, symbols=symbols)

    @property
    def symbols(self) -> SymbolGraph:
        """The repository symbol graph (loaded at first use; empty when none was built)."""
        if self._symbols is None:
            if self._directory is None:
                self._symbols = SymbolGraph({})
            else:
                try:
                    self._symbols = SymbolGraph.load(self._directory)
                except (OSError, ValueError, TypeError, KeyError) as exc:
                    raise CorruptIndexError(
                        f"index at {self._directory}: unreadable symbols: {exc}"
                    ) from exc
        return self._symbols

    # -- search ---------------------------------------------------------------------------

    @property
    def bm25(self) -> Any:
        if self._bm25 is None:
            import bm25s

            assert self._directory is not None
            self._bm25 = bm25s.BM25.load(
                str(self._directory / BM25_DIR), load_vocab=True, show_progress=False
            )
        return self._bm25

    def _dense_kind(self) -> DenseIndexType | None:
        """The class of the stored dense index (None for BM25 only)."""
        backend, kind = self.manifest.get("dense_backend"), self._dense_type
        if not backend or (kind is not None and kind.backend == backend):
            return kind if backend else None
        return backend_with_id(backend)

    @property
    def dense(self) -> DenseIndex | None:
        """The dense index (opened at first use); None for BM25 only, or once it failed."""
        if self._dense is None and self._directory is not None and not self._dense_off:
            kind = self._dense_kind()
            if kind is not None:
                path = self._directory / (self.manifest.get("dense_file") or kind.file_name)
                if path.is_file():
                    try:
                        self._dense = kind.load(path)
                    except BackendUnavailableError as exc:
                        self.drop_dense(str(exc))
        return self._dense

    def drop_dense(self, reason: str) -> None:
        """Search without the dense index from now on (its backend failed with ``reason``)."""
        log.info("dense index unavailable: %s", reason)
        self._dense, self._dense_off = None, True
        self.notices.append(f"{reason}; answering from BM25 + symbols without dense search")

    def take_notices(self) -> list[str]:
        notices, self.notices = self.notices, []
        return notices

    def bm25_scores(self, query: str, *, unique: bool = False) -> np.ndarray | None:
        """The BM25 score of every chunk for ``query``; None when no query term is indexed.

        ``unique`` counts each query term once (a long issue repeats its words).
        """
        import numpy as np

        tokens = [t for t in bm25_terms(query) if t in self.bm25.vocab_dict]
        if unique:
            tokens = list(dict.fromkeys(tokens))
        if not tokens:
            return None
        return np.asarray(self.bm25.get_scores(tokens), dtype=np.float32)

    def _dense_search(self, query: str, k: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The dense ``(scores, ids)`` for ``query``; None without one, or once it failed."""
        dense = self.dense
        if self.embedder is None or dense is None:
            return None
        try:
            return dense.search(self.embedder.embed_query(query).reshape(1, -1), k)
        except BackendUnavailableError as exc:
            self.drop_dense(str(exc))
            return None

    def dense_scores(self, query: str, depth: int) -> list[tuple[int, float]]:
        """The ``depth`` nearest chunks to ``query`` with their cosine, best first (or [])."""
        found = self._dense_search(query, min(depth, len(self.chunks)))
        if found is None:
            return []
        scores, ids = found
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def _bm25_ranking(self, query: str, depth: int, allowed: np.ndarray | None) -> list[int]:
        import numpy as np

        scores = self.bm25_scores(query)
        if scores is None:
            return []
        if allowed is not None:
            scores[~allowed] = 0.0
        order = np.argsort(-scores, kind="stable")[:depth]
        return [int(i) for i in order if scores[i] > 0]

    def _dense_ranking(self, query: str, depth: int, allowed: np.ndarray | None) -> list[int]:
        found = self._dense_search(query, depth if allowed is None else len(self.chunks))
        if found is None:
            return []
        ranking = [int(i) for i in found[1][0] if i >= 0 and (allowed is None or allowed[i])]
        return ranking[:depth]

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        per_file: int = 2,
        exclude: Callable[[str], bool] | None = None,
    ) -> list[SearchHit]:
        """The best ``k`` chunks for ``query``, at most ``per_file`` of one file, best first."""
        if not self.chunks or k <= 0:
            return []
        import numpy as np

        allowed = None
        if exclude is not None:
            allowed = np.array([not exclude(c.path) for c in self.chunks], dtype=bool)
        depth = min(len(self.chunks), max(3 * k * per_file, 50))
        rankings = {"bm25": self._bm25_ranking(query, depth, allowed)}
        dense = self._dense_ranking(query, depth, allowed)
        if dense:
            rankings["dense"] = dense
        hits: list[SearchHit] = []
        taken: Counter[str] = Counter()
        for item, score, ranks in rrf_fuse(rankings):
            chunk = self.chunks[item]
            if taken[chunk.path] >= per_file:
                continue
            taken[chunk.path] += 1
            hits.append(SearchHit.of(chunk, score, ranks))
            if len(hits) == k:
                break
        return hits

    # -- persistence ----------------------------------------------------------------------

    def save(self, directory: Path, *, meta: dict[str, Any] | None = None) -> None:
        """Write the index into ``directory`` (created); the manifest is written last."""
        directory.mkdir(parents=True, exist_ok=True)
        write_chunks(directory, self.chunks)
        self.bm25.save(str(directory / BM25_DIR), show_progress=False)
        self.symbols.save(directory)
        if self.dense is not None:
            self.dense.save(directory / self.dense.file_name)
        fields = {
            "chunks": len(self.chunks),
            "embedder": self.embedder_id,
            "dim": self.embedder.dim if self.embedder is not None else None,
            "dense_backend": self.dense.backend if self.dense is not None else None,
            "dense_file": self.dense.file_name if self.dense is not None else None,
            **(meta or {}),
        }
        self.manifest = write_manifest(directory, fields)

    read_manifest = staticmethod(read_manifest)

    @classmethod
    def load(
        cls, directory: Path, embedder: Embedder | None, dense: DenseIndexType | None = None
    ) -> IndexStore:
        """Open a saved index; :class:`CorruptIndexError` if it is incomplete or damaged."""
        manifest = read_manifest(directory)
        expected = embedder.id if embedder is not None else None
        if manifest.get("embedder") != expected:
            raise CorruptIndexError(
                f"index at {directory} was built with embedder {manifest.get('embedder')},"
                f" not {expected}"
            )
        verify_files(directory, manifest)
        chunks = read_chunks(directory, manifest.get("chunks"))
        check_bm25_files(directory / BM25_DIR)
        store = cls(chunks, embedder, dense_type=dense, directory=directory, manifest=manifest)
        if getattr(store._dense_kind(), "external", False):
            store.dense  # noqa: B018 - rows kept outside the entry are checked when it opens
        return store
