"""The default dense index: exact inner-product search with FAISS ``IndexFlatIP``.

Exact search over normalised vectors is cosine similarity; a flat index holds 1M chunks of
384 dimensions in about 1.5 GB and answers in milliseconds at repository sizes. One query (what
a question asks) is scored by one matrix-vector product over the index's own rows, read in
place: three times faster than FAISS's own loop for a single query on this machine (56k rows
of 384: 2.9 ms against 9.3 ms), the same scores but for a float's last bits. A batch of
queries goes to FAISS.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


class FaissFlatIndex:
    """A :class:`~codeagent.store.dense.DenseIndex` on ``faiss.IndexFlatIP``."""

    backend = "faiss-flat"
    file_name = "dense.faiss"
    requires = ("faiss",)  # the modules it imports (`codeagent doctor` checks them)

    def __init__(self, dim: int, *, index: Any = None) -> None:
        import faiss

        self.dim = dim
        self._index = index if index is not None else faiss.IndexFlatIP(dim)
        self._lock = threading.Lock()  # an add may move the rows a search reads in place

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def add(self, vectors: np.ndarray) -> None:
        import numpy as np

        rows = np.ascontiguousarray(vectors, dtype=np.float32)
        with self._lock:
            self._index.add(rows)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` best rows of each query by inner product, best first: ``(scores, ids)``,
        each ``(len(queries), k)``; past the last row, ids ``-1`` (as FAISS pads)."""
        import faiss
        import numpy as np

        queries = np.ascontiguousarray(queries, dtype=np.float32)
        with self._lock:
            n = len(self)
            if len(queries) != 1 or n == 0 or k <= 0:
                return self.flat_search(queries, k)
            rows = faiss.rev_swig_ptr(self._index.get_xb(), n * self.dim).reshape(n, self.dim)
            product = rows @ queries[0]
        return _best(product, k)

    def flat_search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`search` by FAISS's own flat search, every query (what a batch takes; what
        ``bench/bench_how_fusion.py`` times one query against)."""
        import numpy as np

        scores, ids = self._index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
        return scores, ids

    def vectors(self) -> np.ndarray:
        """Every stored row, ``(len, dim)``."""
        rows: np.ndarray = self._index.reconstruct_n(0, len(self))
        return rows

    def save(self, path: Path) -> None:
        import faiss

        faiss.write_index(self._index, str(path))

    @classmethod
    def load(cls, path: Path) -> FaissFlatIndex:
        import faiss

        index = faiss.read_index(str(path))
        return cls(int(index.d), index=index)


def _best(product: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` highest of ``product`` best first (a tie: the lower id first), as one query's
    row of FAISS's answer."""
    import numpy as np

    n = len(product)
    top = np.argpartition(-product, k - 1)[:k] if k < n else np.arange(n)
    top = top[np.lexsort((top, -product[top]))]
    ids = np.full(k, -1, dtype=np.int64)
    scores = np.full(k, -np.finfo(np.float32).max, dtype=np.float32)
    ids[: len(top)], scores[: len(top)] = top, product[top]
    return scores[None, :], ids[None, :]
