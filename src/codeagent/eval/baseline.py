"""The plain baseline every reported number stands beside: BM25 over source ``.py`` files.

Deliberately naive and independent of the product's ranking, so that it stays a fixed floor
while the product changes: the project's chunks of ``.py`` files that are not tests, docs or
examples; each chunk is its path and its text, tokenized by bm25s's own tokenizer (lower-cased
words of two or more characters, English stopwords dropped, no stemming, no identifier
splitting); a file scores its best chunk. Nothing else: no symbol boost, no dense side, no
reordering by file kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any

from codeagent.records import Chunk

# A path with one of these directories, or a test module's name, is not "source". This rule
# is the baseline's own on purpose, not the product's ``codeagent.rank.file_roles.path_kind``:
# that one is part of the product's ranking and changes with it (it also sets benchmarks,
# tutorials, vendored trees and build files aside), while every reported baseline figure
# must keep meaning the same fixed floor.
NON_SOURCE_DIRS = frozenset({"test", "tests", "testing", "doc", "docs", "example", "examples"})


def is_source_py(path: str) -> bool:
    """Whether ``path`` is a ``.py`` file outside tests, docs and examples."""
    parts = PurePosixPath(path).parts
    if not parts or not parts[-1].endswith(".py"):
        return False
    if any(part.lower() in NON_SOURCE_DIRS for part in parts[:-1]):
        return False
    name = parts[-1]
    return not (name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"))


def _tokenize(texts: list[str], *, ids: bool = True) -> Any:
    import bm25s

    return bm25s.tokenize(texts, stopwords="en", return_ids=ids, show_progress=False)


class BaselineRanker:
    """Files ranked by their best BM25 chunk; built once per checkout."""

    def __init__(self, chunks: Iterable[Chunk]) -> None:
        import bm25s

        kept = [c for c in chunks if is_source_py(c.path)]
        self.paths = [c.path for c in kept]
        self._model: Any = None
        self._vocab: dict[str, int] = {}
        if kept:
            tokens = _tokenize([f"{c.path}\n{c.text}" for c in kept])
            self._vocab = tokens.vocab
            self._model = bm25s.BM25()
            self._model.index(tokens, show_progress=False)

    def rank(self, question: str, depth: int = 20) -> list[str]:
        """Up to ``depth`` files, best first; ties keep the order of the chunks."""
        if self._model is None or depth <= 0:
            return []
        words = _tokenize([question], ids=False)[0]  # repeats count, as bm25s queries do
        ids = [self._vocab[word] for word in words if word in self._vocab]
        if not ids:
            return []
        scores = self._model.get_scores(ids)
        best: dict[str, float] = {}
        for path, score in zip(self.paths, scores, strict=True):
            if score > 0 and score > best.get(path, 0.0):
                best[path] = float(score)
        order = sorted(best, key=lambda path: -best[path])  # stable: first chunk wins ties
        return order[:depth]
