"""The plain baseline every reported number stands beside: BM25 over the source files of the
repository's language (``.py`` by default).

Deliberately naive and independent of the product's ranking, so that it stays a fixed floor
while the product changes: the project's chunks of the source files of one language family
(:mod:`codeagent.eval.sources`: not tests, docs, examples or vendored code); each chunk is
its path and its text, tokenized by bm25s's own tokenizer (lower-cased words of two or more
characters, English stopwords dropped, no stemming, no identifier splitting); a file scores
its best chunk. Nothing else: no symbol boost, no dense side, no
reordering by file kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from codeagent.eval.sources import DEFAULT_FAMILY, is_source, rule_for
from codeagent.records import Chunk


def is_source_py(path: str) -> bool:
    """Whether ``path`` is a ``.py`` file outside tests, docs and examples."""
    return is_source(path, DEFAULT_FAMILY)


def _tokenize(texts: list[str], *, ids: bool = True) -> Any:
    import bm25s

    return bm25s.tokenize(texts, stopwords="en", return_ids=ids, show_progress=False)


class BaselineRanker:
    """Files ranked by their best BM25 chunk; built once per checkout, over the source files
    of ``language`` (a family of :data:`codeagent.eval.sources.RULES`)."""

    def __init__(self, chunks: Iterable[Chunk], language: str = DEFAULT_FAMILY) -> None:
        import bm25s

        rule_for(language)  # an unknown language: EvalError before any work
        kept = [c for c in chunks if is_source(c.path, language)]
        self.paths = [c.path for c in kept]
        self.spans = [(c.path, c.start_line, c.end_line) for c in kept]
        self._model: Any = None
        self._vocab: dict[str, int] = {}
        if kept:
            tokens = _tokenize([f"{c.path}\n{c.text}" for c in kept])
            self._vocab = tokens.vocab
            self._model = bm25s.BM25()
            self._model.index(tokens, show_progress=False)

    def _scores(self, question: str) -> Any:
        """BM25 scores of every kept chunk for ``question``; None when no word is known."""
        if self._model is None:
            return None
        words = _tokenize([question], ids=False)[0]  # repeats count, as bm25s queries do
        ids = [self._vocab[word] for word in words if word in self._vocab]
        return self._model.get_scores(ids) if ids else None

    def rank_chunks(self, question: str, depth: int = 10) -> list[tuple[str, int, int]]:
        """Up to ``depth`` chunks ``(path, start, end)``, best first (function-level scoring:
        :mod:`codeagent.eval.functions`); ties keep the order of the chunks."""
        scores = self._scores(question) if depth > 0 else None
        if scores is None:
            return []
        order = sorted(range(len(self.spans)), key=lambda i: -float(scores[i]))
        return [self.spans[i] for i in order[:depth] if scores[i] > 0]

    def rank(self, question: str, depth: int = 20) -> list[str]:
        """Up to ``depth`` files, best first; ties keep the order of the chunks."""
        scores = self._scores(question) if depth > 0 else None
        if scores is None:
            return []
        best: dict[str, float] = {}
        for path, score in zip(self.paths, scores, strict=True):
            if score > 0 and score > best.get(path, 0.0):
                best[path] = float(score)
        order = sorted(best, key=lambda path: -best[path])  # stable: first chunk wins ties
        return order[:depth]
