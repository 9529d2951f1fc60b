"""The search half of :class:`codeagent.store.store.IndexStore`: BM25 scores, the dense
neighbours, and the two rankings fused by RRF with at most ``per_file`` chunks of one file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from codeagent.errors import BackendUnavailableError
from codeagent.records import Chunk, SearchHit
from codeagent.store.fusion import rrf_fuse
from codeagent.tokens import bm25_terms

if TYPE_CHECKING:
    import numpy as np

    from codeagent.embed.embedders import Embedder
    from codeagent.store.bm25_index import Bm25Index
    from codeagent.store.dense import DenseIndex


class Searching:
    """Search over what the store holds (its chunks, BM25 index, dense index and embedder,
    given by the store)."""

    embedder: Embedder | None

    @property
    def chunks(self) -> list[Chunk]:
        raise NotImplementedError

    @property
    def bm25(self) -> Bm25Index:
        raise NotImplementedError

    @property
    def dense(self) -> DenseIndex | None:
        raise NotImplementedError

    def drop_dense(self, reason: str) -> None:
        raise NotImplementedError

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
        if self.embedder is None or dense is None or not len(dense):
            return None  # an empty index answers nothing: no query model loaded for it
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
