"""BM25 from stored term counts: the scores against bm25s and a hand-written formula, and a
new state's index derived from the previous one against a rebuild from scratch."""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from codeagent.index.chunking import chunk_file, parse_python
from codeagent.records import Chunk
from codeagent.store.bm25_build import build, derive, moved_chunks
from codeagent.store.bm25_index import Bm25Index
from codeagent.store.fusion import bm25_tokens
from codeagent.tokens import bm25_terms

SRC = Path(__file__).resolve().parents[2] / "src" / "codeagent"
QUERIES = ["parse header", "seal damaged entry rebuild", "embedder cache vectors", "index index"]


def own_chunks(folder: str) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path in sorted((SRC / folder).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(SRC).as_posix()
        chunks += chunk_file(rel, text, parse_python(rel, text), None, None)
    return chunks


def by_formula(docs: list[list[str]], query: list[str]) -> list[float]:
    """Lucene BM25 (k1 1.5, b 0.75) written out, one chunk at a time."""
    n, average = len(docs), sum(map(len, docs)) / len(docs)
    scores = []
    for doc in docs:
        counts, total = Counter(doc), 0.0
        for term in query:
            df = sum(term in d for d in docs)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            tf = counts[term]
            total += idf * tf / (tf + 1.5 * (1 - 0.75 + 0.75 * len(doc) / average))
        scores.append(total)
    return scores


def test_scores_are_those_of_bm25s_on_real_code() -> None:
    import bm25s

    tokens = [bm25_tokens(c) for c in own_chunks("store")]
    ours = build(tokens)
    theirs = bm25s.BM25()
    theirs.index(tokens, show_progress=False)
    assert set(ours.terms) == set(theirs.vocab_dict) - {""}  # bm25s adds an empty term
    for query in QUERIES:
        terms = [t for t in bm25_terms(query) if t in ours.vocab_dict]
        assert terms
        expected = np.asarray(theirs.get_scores(terms))
        scores = ours.get_scores(terms)
        assert scores.dtype == expected.dtype == np.float32
        np.testing.assert_array_equal(scores, expected)  # the same precision: the same bits


def test_scores_follow_the_formula() -> None:
    docs = [["a", "b", "a"], ["b", "c"], ["c", "c", "c", "d"], [], ["a"]]
    index = build(docs)
    for query in (["a"], ["c", "a"], ["b", "b"], ["d", "a", "c"]):
        expected = by_formula(docs, query)
        np.testing.assert_allclose(index.get_scores(query), expected, rtol=1e-6)
    assert index.docs_of(index.vocab_dict["c"]).tolist() == [1, 2]


def random_docs(rng: random.Random, n: int) -> list[list[str]]:
    words = [f"w{i}" for i in range(40)]
    return [[rng.choice(words) for _ in range(rng.randint(0, 12))] for _ in range(n)]


@pytest.mark.parametrize("shuffle", [False, True])
def test_deriving_equals_building_from_scratch(shuffle: bool) -> None:
    """Drop some chunks, move the rest (in order, or shuffled), add new ones with new terms:
    the postings and every term's scores are a fresh build's."""
    rng = random.Random(7 + shuffle)
    before = [["gone", "w3"], *random_docs(rng, 59)]  # the only chunk with "gone" goes
    base = build(before)
    survivors = [i for i in range(1, 60) if rng.random() > 0.2]
    new_docs = [*random_docs(rng, 15), ["only_new", "w1"]]
    n = len(survivors) + len(new_docs)
    places = list(range(n))
    if shuffle:
        rng.shuffle(places)
    else:  # survivors keep their order, new chunks fall in between
        places = sorted(rng.sample(range(n), len(survivors))) + [0] * len(new_docs)
        rest = sorted(set(range(n)) - set(places[: len(survivors)]))
        places[len(survivors) :] = rest
    after: list[list[str]] = [[] for _ in range(n)]
    moved = np.full(60, -1, dtype=np.int32)
    for old, place in zip(survivors, places, strict=False):
        moved[old] = place
        after[place] = before[old]
    added = list(zip(places[len(survivors) :], new_docs, strict=True))
    for place, doc in added:
        after[place] = doc
    derived, fresh = derive(base, moved, added, n), build(after)
    assert "gone" in base.terms
    assert sorted(derived.terms) == sorted(fresh.terms)  # terms left in no chunk are gone
    assert derived.lengths.tolist() == fresh.lengths.tolist()
    for term in fresh.terms:
        assert derived.docs_of(derived.vocab_dict[term]).tolist() == (
            fresh.docs_of(fresh.vocab_dict[term]).tolist()
        )
        assert derived.get_scores([term]).tolist() == fresh.get_scores([term]).tolist()
    expected = by_formula(after, ["w1", "w2"])
    np.testing.assert_allclose(derived.get_scores(["w1", "w2"]), expected, rtol=1e-6)


def test_moved_chunks_maps_unchanged_files_only() -> None:
    before = {"a.py": ("d1", 0, 2), "b.py": ("d2", 2, 1), "c.py": ("d3", 3, 2)}
    now = {"a.py": ("d1", 0, 2), "b.py": ("dX", 2, 3), "new.py": ("d4", 5, 1), "c.py": ("d3", 6, 2)}
    found = moved_chunks(before, now, 5, 8)
    assert found is not None
    moved, fresh = found
    assert moved.tolist() == [0, 1, -1, 6, 7]
    assert fresh == [2, 3, 4, 5]
    assert moved_chunks(before, now, 6, 8) is None  # the earlier ranges do not tile its chunks
    assert moved_chunks(before, now, 5, 9) is None
    assert moved_chunks({**before, "c.py": ("d3", 4, 2)}, now, 5, 8) is None  # out of range


def saved(tmp_path: Path) -> Path:
    folder = tmp_path / "bm25"
    build([["a", "b"], ["b", "c", "c"], ["d"]]).save(folder)
    return folder


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    loaded = Bm25Index.load(saved(tmp_path))
    expected = by_formula([["a", "b"], ["b", "c", "c"], ["d"]], ["c", "b"])
    np.testing.assert_allclose(loaded.get_scores(["c", "b"]), expected, rtol=1e-6)
    assert loaded.terms == ["a", "b", "c", "d"]


# The saved index of [["a", "b"], ["b", "c", "c"], ["d"]]: terms a b c d, postings (by term)
# a:[0] b:[0, 1] c:[1] d:[2], so starts [0, 1, 3, 4, 5], docs [0, 0, 1, 1, 2],
# freqs [1, 1, 1, 2, 1], lengths [2, 3, 1]. Each damage below breaks one rule only.
DISTINCT = "terms.json does not hold distinct terms"
MISMATCH = "postings do not match the terms"
DAMAGES = [
    ("params.json", lambda p: [p], "params.json is not an object"),
    ("params.json", lambda p: {**p, "tokens": 0}, "format 1, tokens 0"),
    ("params.json", lambda p: {**p, "k1": 1.2}, "other BM25 parameters"),
    ("params.json", lambda p: {**p, "docs": 4}, "counts differ from params.json"),
    ("terms.json", lambda t: {"terms": ["a", "a", "c", "d"]}, DISTINCT),
    ("terms.json", lambda t: {"terms": ["a", "b", "c", 4]}, DISTINCT),
    ("lengths.npy", lambda a: a.astype(np.int64), "lengths.npy is not a int32 vector"),
    ("starts.npy", lambda a: np.array([0, 1, 3, 4, 5, 5]), MISMATCH),
    ("starts.npy", lambda a: np.array([1, 1, 3, 4, 5]), MISMATCH),
    ("starts.npy", lambda a: np.array([0, 1, 3, 4, 6]), MISMATCH),
    ("freqs.npy", lambda a: np.array([1, 1, 1, 2, 1, 1], np.int32), MISMATCH),
    ("starts.npy", lambda a: np.array([0, 0, 2, 4, 5]), "a term without postings"),
    ("docs.npy", lambda a: np.array([-1, 0, 1, 1, 2], np.int32), "a posting outside the chunks"),
    ("docs.npy", lambda a: np.array([0, 0, 1, 1, 3], np.int32), "a posting outside the chunks"),
    ("freqs.npy", lambda a: np.array([1, 1, 1, 2, 0], np.int32), "a posting outside the chunks"),
    ("freqs.npy", lambda a: a + 1, "chunk lengths differ from the postings"),
    ("docs.npy", lambda a: np.array([0, 1, 0, 1, 2], np.int32), "postings out of order"),
]


def _damage(folder: Path, name: str, damage: object) -> None:
    path = folder / name
    if name.endswith(".json"):
        path.write_text(json.dumps(damage(json.loads(path.read_text()))))  # type: ignore[operator]
    else:
        np.save(path, damage(np.load(path)))  # type: ignore[operator]


@pytest.mark.parametrize(("name", "damage", "message"), DAMAGES)
def test_files_that_disagree_are_refused(
    tmp_path: Path, name: str, damage: object, message: str
) -> None:
    folder = saved(tmp_path)
    _damage(folder, name, damage)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Bm25Index.load(folder)


def test_a_posting_twice_in_a_term_is_refused(tmp_path: Path) -> None:
    """b's postings [0, 0] (chunk 0 counted twice, its length made to agree): out of order."""
    folder = saved(tmp_path)
    _damage(folder, "docs.npy", lambda a: np.array([0, 0, 0, 1, 2], np.int32))
    _damage(folder, "lengths.npy", lambda a: np.array([3, 2, 1], np.int32))
    with pytest.raises(ValueError, match=r"^postings out of order$"):
        Bm25Index.load(folder)


def test_empty_chunks_at_the_end_load(tmp_path: Path) -> None:
    """Chunks without terms (no postings) after the last one with terms are still chunks."""
    docs: list[list[str]] = [["a", "b"], ["b"], [], []]
    build(docs).save(tmp_path / "bm25")
    loaded = Bm25Index.load(tmp_path / "bm25")
    assert loaded.num_docs == 4
    np.testing.assert_allclose(loaded.get_scores(["b"]), by_formula(docs, ["b"]), rtol=1e-6)


def test_saved_into_a_new_folder_then_over_itself(tmp_path: Path) -> None:
    folder = tmp_path / "entry" / "parts" / "bm25"  # none of these exist yet
    build([["a"], ["b", "b"]]).save(folder)
    build([["größe", "ß"], ["ß"]]).save(folder)  # the same folder again: replaced
    loaded = Bm25Index.load(folder)
    assert loaded.terms == ["größe", "ß"]
    assert loaded.get_scores(["größe"]).argmax() == 0


class _Planted:
    """Unpickling this touches a file: a part that is a pickle must never be unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Path.touch, (self.marker,))


def test_a_part_holding_a_pickle_is_refused_without_unpickling_it(tmp_path: Path) -> None:
    folder = saved(tmp_path)
    marker = tmp_path / "unpickled"
    hostile = np.empty(5, dtype=object)
    hostile[:] = [_Planted(marker)] * 5
    np.save(folder / "docs.npy", hostile, allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle"):  # numpy's refusal, before any check
        Bm25Index.load(folder)
    assert not marker.exists()
