"""Deriving a BM25 index from an earlier one, at its edges: an index of chunks without terms,
one chunk left, two chunks that swap places, a last term left in no chunk, terms the pool made,
earlier ranges that overlap, and when an earlier entry's index is trusted. Truth: the same
chunks indexed from scratch (every array equal), the index's own load checks, and files whose
hashes are computed here."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from codeagent.records import Chunk
from codeagent.store.bm25_build import Earlier, build, derive, index_chunks, moved_chunks
from codeagent.store.bm25_index import FILES, Bm25Index
from codeagent.store.entry_files import sha256_file
from codeagent.store.fusion import bm25_tokens


def postings(index: Bm25Index) -> dict[str, list[tuple[int, int]]]:
    """Each term's (chunk, count) pairs, in stored order (a derived index numbers terms in
    the order it met them, so only the terms' order may differ from a fresh build's)."""
    out = {}
    for t, term in enumerate(index.terms):
        start, end = int(index.starts[t]), int(index.starts[t + 1])
        docs, freqs = index.docs[start:end].tolist(), index.freqs[start:end].tolist()
        out[term] = list(zip(docs, freqs, strict=True))
    return out


def assert_same_index(ours: Bm25Index, fresh: Bm25Index) -> None:
    assert postings(ours) == postings(fresh)
    assert len(ours.terms) == len(fresh.terms)
    assert ours.lengths.tolist() == fresh.lengths.tolist()
    for name in ("starts", "docs", "freqs", "lengths"):
        assert getattr(ours, name).dtype == getattr(fresh, name).dtype, name


@pytest.mark.parametrize("docs", [[], [[]], [[], [], []]])
def test_an_index_without_terms_saves_and_loads(tmp_path: Path, docs: list[list[str]]) -> None:
    build(docs).save(tmp_path / "bm25")
    loaded = Bm25Index.load(tmp_path / "bm25")
    assert loaded.terms == []
    assert loaded.num_docs == len(docs)
    assert loaded.get_scores([]).tolist() == [0.0] * len(docs)


def test_one_chunk_left(tmp_path: Path) -> None:
    base = build([["a", "b"], ["b", "c", "b"]])
    derived = derive(base, np.array([-1, 0], dtype=np.int32), [], 1)
    assert_same_index(derived, build([["b", "c", "b"]]))
    derived.save(tmp_path / "bm25")
    assert Bm25Index.load(tmp_path / "bm25").terms == ["b", "c"]


def test_two_chunks_that_swap_places() -> None:
    """Two postings, out of order once the chunks are renumbered: sorted again."""
    base = build([["x"], ["x", "x"]])
    derived = derive(base, np.array([1, 0], dtype=np.int32), [], 2)
    assert_same_index(derived, build([["x", "x"], ["x"]]))


def test_the_last_term_left_in_no_chunk_is_dropped() -> None:
    base = build([["a"], ["z"]])
    derived = derive(base, np.array([0, -1], dtype=np.int32), [], 1)
    assert_same_index(derived, build([["a"]]))


def _chunk(path: str, text: str) -> Chunk:
    return Chunk(path=path, start_line=1, end_line=1, text=text, symbol="")


def test_terms_the_pool_made_are_used_and_the_rest_made_here() -> None:
    chunks = [_chunk("a.py", "def alpha(): pass"), _chunk("b.py", "def beta(): pass")]
    index = index_chunks(chunks, terms=[["planted"], None])
    assert_same_index(index, build([["planted"], bm25_tokens(chunks[1])]))


def test_earlier_ranges_that_overlap_are_not_used() -> None:
    """a.py and b.py both claim earlier chunk 0 (and chunk 2 is no one's): the counts add up,
    yet the ranges do not tile the earlier chunks."""
    before = {"a.py": ("d1", 0, 2), "b.py": ("d2", 0, 1)}
    now = {"a.py": ("d1", 0, 2), "b.py": ("d2", 2, 1)}
    assert moved_chunks(before, now, 3, 3) is None
    # a.py claims earlier chunks 1-2, b.py chunk 2 again (chunk 0 is no one's)
    later = {"a.py": ("d1", 1, 2), "b.py": ("d2", 2, 1)}
    assert moved_chunks(later, now, 3, 3) is None
    tiled = {"a.py": ("d1", 0, 2), "b.py": ("d2", 2, 1)}
    found = moved_chunks(tiled, now, 3, 3)
    assert found is not None
    assert found[0].tolist() == [0, 1, 2]
    assert found[1] == []


def _saved(entry: Path, index: Bm25Index) -> dict[str, str]:
    """Save ``index`` in the entry ``entry``; its files as a manifest lists them."""
    index.save(entry / "bm25")
    return {f"bm25/{name}": sha256_file(entry / "bm25" / name) for name in FILES}


def _earlier(tmp_path: Path, *, sealed: bool, chunks: int = 2) -> Earlier:
    entry = tmp_path / "entry"
    files = _saved(entry, build([["a", "b"], ["b"]]))
    return Earlier(entry, {"files": files, "chunks": chunks}, sealed, {})


@pytest.mark.parametrize("sealed", [True, False])
def test_an_earlier_index_whose_files_match_is_used(tmp_path: Path, sealed: bool) -> None:
    loaded = _earlier(tmp_path, sealed=sealed).load()
    assert loaded is not None
    assert_same_index(loaded, build([["a", "b"], ["b"]]))


def test_a_file_that_differs_from_the_manifest_is_used_only_under_a_seal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Unsealed, every file is hashed: one that differs from its manifest line stops the reuse.
    Sealed, the seal vouches for the files and nothing is hashed."""
    caplog.set_level(logging.INFO, logger="codeagent.store.bm25_build")
    earlier = _earlier(tmp_path, sealed=False)
    earlier.manifest["files"]["bm25/terms.json"] = "0" * 64
    assert earlier.load() is None
    reasons = [r.getMessage().rpartition(": ")[2] for r in caplog.records]
    assert reasons == ["bm25/terms.json is missing or does not match the manifest"]
    vouched = Earlier(earlier.directory, earlier.manifest, True, {})
    assert vouched.load() is not None


def test_an_earlier_index_of_other_chunks_is_not_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="codeagent.store.bm25_build")
    assert _earlier(tmp_path, sealed=True, chunks=3).load() is None
    reasons = [r.getMessage().rpartition(": ")[2] for r in caplog.records]
    assert reasons == ["it does not cover the entry's chunks"]


def test_an_earlier_entry_is_reused_as_a_fresh_build_would_index(tmp_path: Path) -> None:
    """b.py unchanged (moved to the front), a.py gone, c.py new: through the earlier entry's
    files, its ranges and the chunks' new places, every array is a fresh build's."""
    a, b = _chunk("a.py", "def alpha(): return beta()"), _chunk("b.py", "def beta(): return 2")
    c = _chunk("c.py", "def gamma(): return alpha")
    entry = tmp_path / "entry"
    files = _saved(entry, build([bm25_tokens(a), bm25_tokens(b)]))
    before = {"a.py": ("da", 0, 1), "b.py": ("db", 1, 1)}
    earlier = Earlier(entry, {"files": files, "chunks": 2}, False, before)
    now = {"b.py": ("db", 0, 1), "c.py": ("dc", 1, 1)}
    index = index_chunks([b, c], now, earlier)
    assert_same_index(index, build([bm25_tokens(b), bm25_tokens(c)]))
