"""Scoring functions against values worked out by hand."""

from __future__ import annotations

import pytest

from codeagent.eval import metrics

RANKED = ["a.py", "b.py", "c.py", "d.py", "e.py", "f.py"]


def test_hit_at_k() -> None:
    assert metrics.hit_at_k(RANKED, ["c.py"], 1) == 0.0
    assert metrics.hit_at_k(RANKED, ["c.py"], 3) == 1.0
    assert metrics.hit_at_k(RANKED, ["z.py", "a.py"], 1) == 1.0
    assert metrics.hit_at_k([], ["a.py"], 10) == 0.0


def test_recall_at_k() -> None:
    # two of the three expected files are in the top 5; one in the top 3
    assert metrics.recall_at_k(RANKED, ["b.py", "e.py", "z.py"], 5) == pytest.approx(2 / 3)
    assert metrics.recall_at_k(RANKED, ["b.py", "e.py", "z.py"], 3) == pytest.approx(1 / 3)
    assert metrics.recall_at_k(RANKED, [], 5) == 0.0


def test_reciprocal_rank() -> None:
    assert metrics.reciprocal_rank(RANKED, ["d.py", "f.py"]) == 0.25
    assert metrics.reciprocal_rank(RANKED, ["a.py"]) == 1.0
    assert metrics.reciprocal_rank(RANKED, ["z.py"]) == 0.0


def test_file_scores_has_every_k() -> None:
    scores = metrics.file_scores(RANKED, ["e.py"])
    assert scores == {
        "hit@1": 0.0, "hit@3": 0.0, "hit@5": 1.0, "hit@10": 1.0,
        "recall@1": 0.0, "recall@3": 0.0, "recall@5": 1.0, "recall@10": 1.0,
        "mrr": 0.2,
    }  # fmt: skip


def test_set_scores() -> None:
    # predicted {a, b, c}, expected {b, c, d, e}: 2 common -> precision 2/3, recall 2/4
    got = metrics.set_scores(["a", "b", "c"], ["b", "c", "d", "e"])
    assert got == {"precision": pytest.approx(2 / 3), "recall": 0.5, "exact": 0.0}
    assert metrics.set_scores(["x", "y"], ["y", "x"]) == {"precision": 1, "recall": 1, "exact": 1}
    assert metrics.set_scores([], ["a"]) == {"precision": 0.0, "recall": 0.0, "exact": 0.0}
    assert metrics.set_scores([], []) == {"precision": 1.0, "recall": 1.0, "exact": 1.0}


def test_extract_py_paths() -> None:
    text = (
        "In `src/requests/utils.py` (lines 769-771) see utils.py:803, and flask/app.py. "
        "Also ./setup.py, not foo.pyi or x.python; again src/requests/utils.py."
    )
    assert metrics.extract_py_paths(text) == [
        "src/requests/utils.py",
        "utils.py",
        "flask/app.py",
        "setup.py",
    ]


def test_resolve_paths_exact_then_unique_suffix() -> None:
    existing = ["src/flask/app.py", "src/flask/sansio/app.py", "src/flask/ctx.py", "setup.py"]
    resolved, unresolved = metrics.resolve_paths(
        ["flask/app.py", "ctx.py", "app.py", "setup.py", "missing.py", "src/flask/ctx.py"],
        existing,
    )
    # "app.py" matches two files (ambiguous); "src/flask/ctx.py" repeats "ctx.py"'s match
    assert resolved == ["src/flask/app.py", "src/flask/ctx.py", "setup.py"]
    assert unresolved == ["app.py", "missing.py"]


def test_routing_accuracy_and_confusion() -> None:
    pairs = [("ast", "ast"), ("ast", "rag"), ("rag", "rag"), ("rag", "rag"), ("rag", "error")]
    got = metrics.routing(pairs)
    assert got["accuracy"] == pytest.approx(3 / 5)
    assert got["n"] == 5
    assert got["confusion"] == {"ast": {"ast": 1, "rag": 1}, "rag": {"error": 1, "rag": 2}}
    assert metrics.routing([])["accuracy"] is None


def test_percentile_and_latency() -> None:
    # sorted 1,2,3,4: p50 sits halfway between 2 and 3; p95 at 0.85 of the way from 3 to 4
    assert metrics.percentile([4, 1, 3, 2], 50) == 2.5
    assert metrics.percentile([4, 1, 3, 2], 95) == pytest.approx(3.85)
    assert metrics.percentile([7.0], 95) == 7.0
    assert metrics.percentile([], 50) is None
    got = metrics.latency([{"route": 1.0, "retrieve": None}, {"route": 3.0, "retrieve": 2.0}])
    assert got == {
        "retrieve": {"p50": 2.0, "p95": 2.0, "n": 1},
        "route": {"p50": 2.0, "p95": pytest.approx(2.9), "n": 2},
    }


def test_mean_none_when_empty() -> None:
    assert metrics.mean([]) is None
    assert metrics.mean([1.0, 0.0, 0.5]) == 0.5
