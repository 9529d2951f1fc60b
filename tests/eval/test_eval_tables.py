"""Per-repository tables of a dev run, checked against numbers worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from codeagent.eval.tables import benchmark_of, build_tables, render_tables


def rec(
    suite: str, repo: str, ranker: str, error: str | None = None, **scores: float
) -> dict[str, Any]:
    return {
        "suite": suite,
        "repo": f"https://github.com/{repo}",
        "ranker": ranker,
        "error": error,
        "scores": {k.replace("_at_", "@"): v for k, v in scores.items()},
    }


def loc(repo: str, ranker: str, hits: tuple[int, int, int, int]) -> dict[str, Any]:
    h1, h3, h5, h10 = (float(h) for h in hits)
    return rec("swebench-dev", repo, ranker, hit_at_1=h1, hit_at_3=h3, hit_at_5=h5, hit_at_10=h10)


def qa(repo: str, ranker: str, r5: float, r10: float) -> dict[str, Any]:
    return rec(f"swe-qa-{repo.split('/')[1]}", repo, ranker, recall_at_5=r5,
               recall_at_10=r10)  # fmt: skip


RECORDS = [
    # requests (fit): product hits at 1 once out of 2; baseline never at 1.
    loc("psf/requests", "product", (1, 1, 1, 1)),
    loc("psf/requests", "baseline", (0, 1, 1, 1)),
    loc("psf/requests", "product", (0, 0, 1, 1)),
    loc("psf/requests", "baseline", (0, 0, 0, 1)),
    # pylint (fit): one question, and one errored.
    loc("pylint-dev/pylint", "product", (0, 0, 0, 0)),
    loc("pylint-dev/pylint", "baseline", (1, 1, 1, 1)),
    rec("swebench-dev", "pylint-dev/pylint", "product", error="CloneError: x"),
    rec("swebench-dev", "pylint-dev/pylint", "baseline", error="CloneError: x"),
    # astropy (choose).
    loc("astropy/astropy", "product", (1, 1, 1, 1)),
    loc("astropy/astropy", "baseline", (0, 0, 0, 0)),
    # SWE-QA, fit: two questions on requests.
    qa("psf/requests", "product", 0.5, 1.0),
    qa("psf/requests", "baseline", 0.0, 0.5),
    qa("psf/requests", "product", 1.0, 1.0),
    qa("psf/requests", "baseline", 1.0, 1.0),
    # A suite of neither benchmark, and a repository of neither split: left out.
    rec("stdlib", "psf/requests", "product", exact=1.0),
    loc("pytest-dev/pytest", "product", (1, 1, 1, 1)),
]


def test_benchmark_of() -> None:
    assert benchmark_of("swebench-dev") == "swebench"
    assert benchmark_of("swebench-loc") == "swebench"
    assert benchmark_of("swe-qa-flask") == "swe-qa"
    assert benchmark_of("stdlib") is None


def test_rows_means_and_pooled() -> None:
    tables = build_tables(RECORDS)
    assert set(tables) == {"fit", "choose", "none"}
    held = tables["fit"]["swebench"]
    assert list(held["rows"]) == ["psf/requests", "pylint-dev/pylint"]
    req = held["rows"]["psf/requests"]
    assert req["product"] == {
        "n": 2, "errors": 0, "hit@1": 0.5, "hit@3": 0.5, "hit@5": 1.0, "hit@10": 1.0
    }  # fmt: skip
    assert req["baseline"]["hit@1"] == 0.0
    assert req["baseline"]["hit@3"] == 0.5
    flask = held["rows"]["pylint-dev/pylint"]
    assert flask["product"]["n"] == 1
    assert flask["product"]["errors"] == 1
    assert flask["baseline"]["hit@1"] == 1.0
    # Mean over repositories: (0 + 0.5) / 2 for product Acc@1, (1 + 0) / 2 for the baseline.
    assert held["mean"]["product"]["hit@1"] == pytest.approx(0.25)
    assert held["mean"]["baseline"]["hit@1"] == pytest.approx(0.5)
    assert held["mean"]["product"]["n"] == 2
    # Mean over questions: 1 of 3 scored product questions hit at 1; Acc@5 2 of 3.
    assert held["pooled"]["product"]["hit@1"] == pytest.approx(1 / 3)
    assert held["pooled"]["product"]["hit@5"] == pytest.approx(2 / 3)
    assert held["pooled"]["product"]["n"] == 3
    assert held["pooled"]["product"]["errors"] == 1
    qa_table = tables["fit"]["swe-qa"]
    assert qa_table["rows"]["psf/requests"]["product"]["recall@5"] == pytest.approx(0.75)
    assert qa_table["rows"]["psf/requests"]["baseline"]["recall@10"] == pytest.approx(0.75)
    assert tables["choose"]["swebench"]["rows"]["astropy/astropy"]["baseline"]["hit@10"] == 0.0
    assert list(tables["none"]["swebench"]["rows"]) == ["pytest-dev/pytest"]


def test_markdown() -> None:
    text = render_tables(build_tables(RECORDS))
    assert "#### Fit: SWE-bench file Acc@k (%, product / baseline)" in text
    assert "| psf/requests | 2 | 50.0 / 0.0 | 50.0 / 50.0 | 100.0 / 50.0 | 100.0 / 100.0 |" in text
    assert "| pylint-dev/pylint | 1 (1 errors) | 0.0 / 100.0 |" in text
    assert "| **mean over repositories** | 2 repos | 25.0 / 50.0 |" in text
    assert "| psf/requests | 2 | 75.0 / 50.0 | 100.0 / 75.0 |" in text
    # Fit comes before choose.
    assert text.index("#### Fit") < text.index("#### Choose")


def test_other_languages_get_one_table_per_family() -> None:
    def mined(repo: str, ranker: str, hit: int) -> dict[str, Any]:
        h = float(hit)
        return rec("mined-langs", repo, ranker, hit_at_1=h, hit_at_3=h, hit_at_5=h, hit_at_10=h)

    records = [
        mined("gorilla/mux", "product", 1),
        mined("gorilla/mux", "baseline", 0),
        mined("spf13/cobra", "product", 0),
        mined("spf13/cobra", "baseline", 0),
        mined("serde-rs/json", "product", 1),
        mined("serde-rs/json", "baseline", 1),
    ]
    tables = build_tables(records)
    assert set(tables) == {"langs:go", "langs:rust"}
    go = tables["langs:go"]["mined"]
    assert go["mean"]["product"]["hit@5"] == 0.5
    assert go["mean"]["baseline"]["hit@5"] == 0.0
    text = render_tables(tables)
    assert "#### Other languages, Go: Mined commits: file Acc@k (%, product / baseline)" in text
    assert text.index("Other languages, Go") < text.index("Other languages, Rust")
