"""parse_one(): one file's share of a build. Its chunks' BM25 terms are made only when asked
(a pool worker asks, so the building process does not tokenise them again; a serial build
does not, so no chunk is tokenised twice), one list per chunk, the chunk's own words."""

from __future__ import annotations

from pathlib import Path

from codeagent.index.per_file import parse_one
from codeagent.store.fusion import bm25_tokens

MODELS = (
    "class Cart:\n    def total(self):\n        return sum_prices(self.items)\n\n\n"
    "def refund_order(order):\n    return order.amount\n"
)


def test_terms_are_made_only_when_asked(tmp_path: Path) -> None:
    plain = parse_one("shop/models.py", MODELS, tmp_path)
    asked = parse_one("shop/models.py", MODELS, tmp_path, terms=True)
    assert plain.terms is None
    assert asked.chunks == plain.chunks
    assert asked.record == plain.record
    assert len(asked.chunks) >= 2
    assert asked.terms == [bm25_tokens(chunk) for chunk in asked.chunks]
    by_symbol = dict(zip((c.symbol for c in asked.chunks), asked.terms, strict=True))
    refund = next(words for symbol, words in by_symbol.items() if "refund_order" in symbol)
    assert "amount" in refund
    assert "total" not in refund


def test_a_file_that_does_not_parse_still_gives_its_windows_terms(tmp_path: Path) -> None:
    text = "def broken(:\n    unfinished_call(\n" + "value = 1\n" * 60
    asked = parse_one("pkg/broken.py", text, tmp_path, terms=True)
    assert parse_one("pkg/broken.py", text, tmp_path).terms is None
    assert len(asked.chunks) >= 2  # line windows
    assert asked.terms == [bm25_tokens(chunk) for chunk in asked.chunks]
    assert "unfinished" in " ".join(asked.terms[0])
