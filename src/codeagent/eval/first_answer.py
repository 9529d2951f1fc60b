"""The ``answer_first`` ranker of ``codeagent eval-dev``: each question answered as the first
question on a repository seen for the first time is, while its dense index is still being
built (:mod:`codeagent.index.answer_first`): BM25, the symbol graph, and dense search over the
chunks of the question's candidate files only, embedded first
(:mod:`codeagent.index.first_vectors`).

Every question starts from an empty dense index (no vector of an earlier question is seen).
The budget is the shipped ``first_embed_seconds`` at the shipped quiet-machine rate
(:data:`codeagent.embed.speed.TOKENS_PER_SECOND`), not this machine's measured one, so the
files chosen do not depend on how busy the machine was. Vectors are deterministic, so one
text is embedded once per run (a memo), which changes no result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from codeagent.errors import EvalError
from codeagent.index.first_vectors import FirstVectors

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder

Span = tuple[str, int, int]


class _QuietRate:
    """The local embedder with the estimate of a quiet two-core machine."""

    def __init__(self, embedder: Embedder) -> None:
        self.inner = embedder
        self.id, self.dim = embedder.id, embedder.dim

    def estimate_seconds(self, texts: list[str]) -> float:
        from codeagent.embed import speed
        from codeagent.embed.embedders import DOC_TOKENS

        return speed.tokens(texts, DOC_TOKENS) / speed.TOKENS_PER_SECOND


class _Memo(FirstVectors):
    """First vectors from a run-wide memo (text -> vector) instead of the embedding cache."""

    memo: dict[str, np.ndarray]
    embedded: list[int]  # chunks embedded first, per question
    deadline = False  # the files chosen by the quiet rate's estimate alone, whatever the load

    def _embed(self, chosen: list[int]) -> np.ndarray:
        import numpy as np

        inner: Any = getattr(self.embedder, "inner", self.embedder)
        texts = [self.texts[i] for i in chosen]
        missing = [t for t in dict.fromkeys(texts) if t not in self.memo]
        if missing:
            for text, row in zip(missing, inner.embed_documents(missing), strict=True):
                self.memo[text] = np.asarray(row, dtype=np.float32)
        self.embedded.append(len(chosen))
        return np.vstack([self.memo[t] for t in texts])


def answer_first_ranker(
    store: Any,
    settings: Settings,
    search: Callable[[Any, str], tuple[list[str], list[Span]]],
    memo: dict[str, np.ndarray],
    counts: list[int],
) -> Callable[[str], tuple[list[str], list[Span]]]:
    """A ranker over ``store``'s chunks, BM25 and symbols with an index answered first;
    ``search(store, question)`` ranks as the product does; ``counts`` gets the number of
    chunks embedded first for each question."""
    import numpy as np

    from codeagent.embed.embedders import make_embedder
    from codeagent.index.answer_first import PartialDense
    from codeagent.store.store import IndexStore

    embedder = make_embedder("local", settings)
    if embedder is None:
        raise EvalError("the answer_first ranker needs the local embedder (pip install '.[local]')")
    quiet = _QuietRate(embedder)
    texts = [c.embed_text for c in store.chunks]
    quick = IndexStore(store.chunks, embedder, bm25=store.bm25, symbols=store.symbols)

    def rank(question: str) -> tuple[list[str], list[Span]]:
        empty = np.zeros((0, embedder.dim), dtype=np.float32)
        dense = PartialDense(np.zeros(0, dtype=np.int64), empty)
        first = _Memo(dense, texts, quiet, settings)  # type: ignore[arg-type]
        first.memo, first.embedded = memo, []
        dense.first = first
        quick._dense = dense  # one store for every question: its file table is built once
        found = search(quick, question)
        counts.append(sum(first.embedded))
        return found

    return rank
