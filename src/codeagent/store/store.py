"""The searchable index of one repository state: BM25 + a dense index, fused by RRF.

BM25 (bm25s) over code-aware, stemmed terms of each chunk's path, symbol and code; an inner
product index over L2-normalised vectors; the top of each fused (k = 60), ``per_file`` kept.

Entry files and checks: :mod:`codeagent.store.entry_files`; an entry whose seal vouches for
it opens without reading them (:mod:`codeagent.store.seal`), and the chunks, BM25, the dense
index (any :class:`~codeagent.store.dense.DenseIndex` backend) and the symbol graph load at
first use; a part that fails to load marks the entry damaged, rebuilt at the next open.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from codeagent.errors import CodeAgentError
from codeagent.records import Chunk, SearchHit
from codeagent.store.dense import (
    DEFAULT_BACKEND,
    DenseIndex,
    DenseIndexType,
    backend_class,
    backend_with_id,
)
from codeagent.store.entry_files import (
    BM25_DIR,
    CorruptIndexError,
    read_chunks,
    read_manifest,
    write_chunks,
    write_manifest,
)
from codeagent.store.fusion import bm25_tokens, rrf_fuse
from codeagent.store.seal import check_in_background, mark_damaged, open_checked, signatures
from codeagent.store.seal import write_seal as seal
from codeagent.symbols.graph import SymbolGraph
from codeagent.tokens import bm25_terms

if TYPE_CHECKING:
    import numpy as np

    from codeagent.embed.embedders import Embedder

log = logging.getLogger(__name__)

__all__ = ["CorruptIndexError", "IndexStore", "bm25_tokens", "rrf_fuse"]

T = TypeVar("T")


class IndexStore:
    """Chunks plus their BM25 and (optionally) dense indexes."""

    def __init__(
        self,
        chunks: list[Chunk] | None,
        embedder: Embedder | None,
        *,
        bm25: Any = None,
        dense: DenseIndex | None = None,
        dense_type: DenseIndexType | None = None,
        directory: Path | None = None,
        manifest: dict[str, Any] | None = None,
        symbols: SymbolGraph | None = None,
        sealed: bool = False,
    ) -> None:
        self._chunks = chunks  # None: read from ``directory`` at first use
        self.embedder = embedder
        self.embedder_id: str | None = embedder.id if embedder is not None else None
        self.manifest: dict[str, Any] = manifest or {}
        self._bm25 = bm25
        self._dense = dense
        self._dense_type = dense_type
        self._directory = directory
        self._symbols = symbols
        self.sealed = sealed  # opened on its seal: the content was not read

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
            index.add(vectors)
        seconds["dense"] = seconds.get("dense", 0.0) + time.perf_counter() - middle
        return cls(chunks, embedder, bm25=bm25, dense=index, symbols=symbols)

    @property
    def chunks(self) -> list[Chunk]:
        """The chunks, in index order (read at first use when the entry opened on its seal)."""
        if self._chunks is None:
            expected = self.manifest.get("chunks")
            self._chunks = self._load_part("chunks", lambda d: read_chunks(d, expected))
        return self._chunks

    @property
    def symbols(self) -> SymbolGraph:
        """The repository symbol graph (loaded at first use; empty when none was built)."""
        if self._symbols is None:
            if self._directory is None:
                self._symbols = SymbolGraph({})
            else:
                self._symbols = self._load_part("the symbol graph", SymbolGraph.load)
        return self._symbols

    def _load_part(self, what: str, load: Callable[[Path], T]) -> T:
        """``load(directory)``; a failure marks the entry damaged (rebuilt at the next open)."""
        directory = self._directory
        assert directory is not None
        try:
            return load(directory)
        except CorruptIndexError as exc:
            reason = str(exc)
        except (MemoryError, CodeAgentError):  # not the entry's fault: raised as they are
            raise
        except Exception as exc:  # whatever a damaged file makes a third-party loader raise
            reason = f"index at {directory}: unreadable {what}: {exc}"
        mark_damaged(directory, reason)
        raise CorruptIndexError(f"{reason}; it is rebuilt at the next run")

    def check_later(self, on_damage: Callable[[Exception], None] | None = None) -> Any:
        """Hash the files of an entry opened on its seal in a (started) background thread."""
        if not self.sealed or self._directory is None:
            return None
        return check_in_background(self._directory, self.manifest, on_damage)

    # -- search ---------------------------------------------------------------------------

    @property
    def bm25(self) -> Any:
        if self._bm25 is None:
            import bm25s

            self._bm25 = self._load_part(
                "bm25",
                lambda d: bm25s.BM25.load(str(d / BM25_DIR), load_vocab=True, show_progress=False),
            )
        return self._bm25

    @property
    def dense(self) -> DenseIndex | None:
        backend = self.manifest.get("dense_backend")
        if self._dense is None and self._directory is not None and backend:
            kind = self._dense_type
            if kind is None or kind.backend != backend:
                kind = backend_with_id(backend)
            path = self._directory / (self.manifest.get("dense_file") or kind.file_name)
            if path.is_file():
                self._dense = self._load_part("the dense index", lambda _d: kind.load(path))
        return self._dense

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

    def dense_scores(self, query: str, depth: int) -> list[tuple[int, float]]:
        """The ``depth`` nearest chunks to ``query`` with their cosine, best first (or [])."""
        if self.embedder is None or self.dense is None:
            return []
        vector = self.embedder.embed_query(query).reshape(1, -1)
        scores, ids = self.dense.search(vector, min(depth, len(self.chunks)))
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
        if self.embedder is None or self.dense is None:
            return []
        vector = self.embedder.embed_query(query).reshape(1, -1)
        wanted = depth if allowed is None else len(self.chunks)
        _scores, ids = self.dense.search(vector, wanted)
        ranking = [int(i) for i in ids[0] if i >= 0 and (allowed is None or allowed[i])]
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
        seal(directory, signatures(directory, self.manifest))  # as written: no need to hash

    @classmethod
    def load(
        cls,
        directory: Path,
        embedder: Embedder | None,
        dense: DenseIndexType | None = None,
        *,
        verify: bool = False,
    ) -> IndexStore:
        """Open a saved index; :class:`CorruptIndexError` if it is incomplete or damaged. Its
        files are hashed unless its seal vouches for them (``verify``: hashed anyway)."""
        manifest = read_manifest(directory)
        expected = embedder.id if embedder is not None else None
        if manifest.get("embedder") != expected:
            raise CorruptIndexError(
                f"index at {directory} was built with embedder {manifest.get('embedder')},"
                f" not {expected}"
            )
        chunks = open_checked(directory, manifest, verify=verify)  # None: opened on its seal
        return cls(
            chunks,
            embedder,
            dense_type=dense,
            directory=directory,
            manifest=manifest,
            sealed=chunks is None,
        )
