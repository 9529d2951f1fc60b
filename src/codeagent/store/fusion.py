"""What the store ranks by: a chunk's BM25 terms, and Reciprocal Rank Fusion of the
rankings (BM25, dense)."""

from __future__ import annotations

from codeagent.records import Chunk
from codeagent.tokens import bm25_terms

RRF_K = 60


def rrf_fuse(
    rankings: dict[str, list[int]], k: int = RRF_K
) -> list[tuple[int, float, dict[str, int]]]:
    """Reciprocal Rank Fusion: score(d) = sum over rankings of 1 / (k + rank of d), rank from 1.

    ``rankings`` maps a name (``bm25``, ``dense``) to item ids, best first. Returns
    ``(id, score, {name: rank})`` best first; ties keep the order items were first seen in.
    """
    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, ranking in rankings.items():
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            ranks.setdefault(item, {})[name] = rank
    order = sorted(scores, key=lambda item: -scores[item])
    return [(item, scores[item], ranks[item]) for item in order]


SYMBOL_BOOST = 2  # extra copies of the symbol's tokens: a definition outranks its callers


def bm25_tokens(chunk: Chunk) -> list[str]:
    """BM25 terms of a chunk: its path, symbol and text, the symbol counted extra."""
    return bm25_terms(chunk.embed_text) + bm25_terms(chunk.symbol) * SYMBOL_BOOST
