"""BM25 over stored term frequencies: scores computed at query time, so the index updates.

The index keeps, per term, the chunks it occurs in and how often (postings, sorted by chunk),
and each chunk's length in terms. Nothing that depends on the whole corpus (document
frequency, the average length, the scores) is stored: a query computes them for its own
terms, which costs a few milliseconds. So the index of a new repository state is the previous
one with the removed chunks dropped and the new ones added (:mod:`codeagent.store.bm25_build`),
and its scores are those of an index built from scratch.

Scoring is Lucene's BM25 as ``bm25s`` computes it (k1 1.5, b 0.75; idf ``log(1 + (N - df +
0.5) / (df + 0.5))``, the term part ``tf / (tf + k1 (1 - b + b dl / avgdl))``), in the same
precision, so rankings are those of the ``bm25s`` index this replaced.

On disk, in ``bm25/`` of an entry (:data:`FILES`)::

    params.json    {"format", "tokens", "k1", "b", "docs", "terms", "postings"}
    terms.json     {"terms": [term, ...]}: a term's id is its position
    starts.npy     int64 (terms + 1): term t's postings are [starts[t], starts[t + 1])
    docs.npy       int32 (postings): the chunk of each posting, ascending within a term
    freqs.npy      int32 (postings): how often the term occurs in that chunk
    lengths.npy    int32 (chunks): each chunk's number of terms

:meth:`Bm25Index.load` raises ``ValueError`` for files that disagree with each other.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

FORMAT = 1
TOKENS_VERSION = 2  # codeagent.tokens.bm25_terms (2: irregular forms); a change bumps entry FORMAT
K1 = 1.5
B = 0.75
FILES = ("params.json", "terms.json", "starts.npy", "docs.npy", "freqs.npy", "lengths.npy")


class Bm25Index:
    """Postings and chunk lengths of one repository state; BM25 scores on demand."""

    def __init__(
        self,
        terms: list[str],
        starts: np.ndarray,
        docs: np.ndarray,
        freqs: np.ndarray,
        lengths: np.ndarray,
    ) -> None:
        self.terms = terms
        self.starts = starts
        self.docs = docs
        self.freqs = freqs
        self.lengths = lengths
        self._vocab: dict[str, int] | None = None
        self._norm: np.ndarray | None = None
        # term -> (its chunks, its score in each): computed at a term's first query, kept (at
        # most what an index of precomputed scores holds)
        self._parts: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    @property
    def num_docs(self) -> int:
        return len(self.lengths)

    @property
    def vocab_dict(self) -> dict[str, int]:
        """Term -> id (every term occurs in at least one chunk)."""
        if self._vocab is None:
            self._vocab = {term: i for i, term in enumerate(self.terms)}
        return self._vocab

    def docs_of(self, term_id: int) -> np.ndarray:
        """The chunks holding the term, ascending (its document frequency is their count)."""
        return self.docs[self.starts[term_id] : self.starts[term_id + 1]]

    def idf(self, df: int) -> float:
        n = self.num_docs
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def get_scores(self, tokens: list[str]) -> np.ndarray:
        """The BM25 score of every chunk for ``tokens`` (each occurrence counts; every token
        must be in :attr:`vocab_dict`), float32."""
        import numpy as np

        if self._norm is None:
            average = (self.lengths.mean() if self.num_docs else 0.0) or 1.0  # no terms at all
            self._norm = K1 * ((1 - B) + B * self.lengths / average)
        scores = np.zeros(self.num_docs, dtype=np.float32)
        parts = self._parts
        for token in tokens:
            if token not in parts:
                t = self.vocab_dict[token]
                start, end = int(self.starts[t]), int(self.starts[t + 1])
                docs = self.docs[start:end]
                tf = self.freqs[start:end]
                part = self._norm.take(docs)  # in place from here: float64, as bm25s computes
                part += tf
                np.divide(tf, part, out=part)
                part *= np.float32(self.idf(end - start))
                parts[token] = docs, part.astype(np.float32)
            docs, part = parts[token]
            np.add.at(scores, docs, part)  # faster than scores[docs] += part here
        return scores

    # -- files -------------------------------------------------------------------------

    def save(self, folder: Path) -> None:
        import numpy as np

        folder.mkdir(parents=True, exist_ok=True)
        params = {
            "format": FORMAT,
            "tokens": TOKENS_VERSION,
            "k1": K1,
            "b": B,
            "docs": self.num_docs,
            "terms": len(self.terms),
            "postings": len(self.docs),
        }
        (folder / "params.json").write_text(json.dumps(params), encoding="utf-8")
        text = json.dumps({"terms": self.terms}, ensure_ascii=False, separators=(",", ":"))
        (folder / "terms.json").write_text(text, encoding="utf-8")
        for name, array in (
            ("starts", self.starts),
            ("docs", self.docs),
            ("freqs", self.freqs),
            ("lengths", self.lengths),
        ):
            np.save(folder / f"{name}.npy", array, allow_pickle=False)

    @classmethod
    def load(cls, folder: Path) -> Bm25Index:
        """The index saved in ``folder``; ``ValueError`` (or ``OSError``) if it is not whole,
        of another format or token version, or its parts disagree."""
        import numpy as np

        params = json.loads((folder / "params.json").read_text(encoding="utf-8"))
        if not isinstance(params, dict):
            raise ValueError("params.json is not an object")
        if (params.get("format"), params.get("tokens")) != (FORMAT, TOKENS_VERSION):
            raise ValueError(f"format {params.get('format')}, tokens {params.get('tokens')}")
        if (params.get("k1"), params.get("b")) != (K1, B):
            raise ValueError("other BM25 parameters")
        terms = json.loads((folder / "terms.json").read_text(encoding="utf-8"))["terms"]

        def array(name: str, dtype: Any) -> np.ndarray:
            data: np.ndarray = np.load(folder / f"{name}.npy", allow_pickle=False)
            if data.ndim != 1 or data.dtype != dtype:
                raise ValueError(f"{name}.npy is not a {np.dtype(dtype).name} vector")
            return data

        index = cls(
            terms,
            array("starts", np.int64),
            array("docs", np.int32),
            array("freqs", np.int32),
            array("lengths", np.int32),
        )
        index.check(params)
        return index

    def check(self, params: dict[str, Any]) -> None:
        """``ValueError`` unless the parts agree with each other and with ``params``."""
        import numpy as np

        n, v, p = self.num_docs, len(self.terms), len(self.docs)
        if (params.get("docs"), params.get("terms"), params.get("postings")) != (n, v, p):
            raise ValueError("counts differ from params.json")
        if not all(isinstance(t, str) for t in self.terms) or len(set(self.terms)) != v:
            raise ValueError("terms.json does not hold distinct terms")
        starts = self.starts
        if len(starts) != v + 1 or starts[0] != 0 or starts[-1] != p or len(self.freqs) != p:
            raise ValueError("postings do not match the terms")
        if v and np.any(np.diff(starts) <= 0):
            raise ValueError("a term without postings")
        if p and (self.docs.min() < 0 or self.docs.max() >= n or self.freqs.min() < 1):
            raise ValueError("a posting outside the chunks")
        if np.any(np.bincount(self.docs, weights=self.freqs, minlength=n) != self.lengths):
            raise ValueError("chunk lengths differ from the postings")
        step = np.diff(self.docs)
        step[starts[1:-1] - 1] = 1  # where one term's postings end and the next begin
        if np.any(step <= 0):
            raise ValueError("postings out of order")
