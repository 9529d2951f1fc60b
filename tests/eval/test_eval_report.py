"""Aggregates, the JSON and Markdown reports, and comparing two reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.errors import EvalError
from codeagent.eval.markdown import render_markdown
from codeagent.eval.report import (
    aggregate,
    build_report,
    compare,
    format_compare,
    load_report,
    to_json,
    write_reports,
)


def record(qid: str, suite: str = "s", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": qid,
        "suite": suite,
        "question": f"question {qid}",
        "repo": "stdlib:json",
        "commit": None,
        "expected_route": "rag",
        "route": "rag",
        "decided_by": "rules",
        "fallback": None,
        "error": None,
        "expected_files": ["a.py"],
        "unresolved_files": [],
        "cited_files": [],
        "ranked_files": ["a.py"],
        "answer": "",
        "ast_names": None,
        "scores": {},
        "timings": {"route": 0.1, "total": 1.0},
        "judge": None,
    }
    base.update(fields)
    return base


def file_scores(rr: float) -> dict[str, float]:
    hit = 1.0 if rr else 0.0
    scores = {f"hit@{k}": hit if rr >= 1 / k else 0.0 for k in (1, 3, 5, 10)}
    scores.update({f"recall@{k}": v for k, v in ((1, 0.0), (3, 0.0), (5, 0.0), (10, 0.0))})
    scores["mrr"] = rr
    return scores


RECORDS = [
    record("r1", scores=file_scores(1.0)),
    record("r2", scores=file_scores(1 / 3), timings={"route": 0.3, "total": 3.0}),
    record("r3", route="ast", fallback="file_not_found", scores=file_scores(0.0)),
    record("e1", route="error", error="RuntimeError: boom", timings={"total": 0.5}),
    record(
        "s1",
        suite="t",
        expected_route="ast",
        route="ast",
        scores={"precision": 1.0, "recall": 0.5, "exact": 0.0},
        judge={"correctness": 8, "completeness": 6, "rationale": ""},
    ),
]


def test_aggregate_hand_computed() -> None:
    agg = aggregate(RECORDS[:4])
    assert agg["questions"] == 4
    assert agg["errors"] == 1
    assert agg["fallback_rate"] == pytest.approx(1 / 3)
    assert agg["routing"]["accuracy"] == 0.5  # r1, r2 right; r3 ast, e1 error
    assert agg["routing"]["confusion"] == {"rag": {"ast": 1, "error": 1, "rag": 2}}
    assert agg["retrieval"]["n"] == 3
    assert agg["retrieval"]["hit@1"] == pytest.approx(1 / 3)
    assert agg["retrieval"]["hit@3"] == pytest.approx(2 / 3)
    assert agg["retrieval"]["mrr"] == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert agg["structural"] == {"n": 0, "precision": None, "recall": None, "exact": None}
    assert agg["latency"]["route"]["p50"] == pytest.approx(0.1)
    assert agg["latency"]["total"]["n"] == 4


def test_report_json_is_stable_and_rounded(tmp_path: Path) -> None:
    config = {"llm": "none", "embed": "none", "k": 10}
    first = to_json(build_report(RECORDS, config=config))
    second = to_json(build_report(list(RECORDS), config=dict(reversed(config.items()))))
    assert first == second
    data = json.loads(first)
    assert list(data) == sorted(data)
    assert data["suites"]["s"]["retrieval"]["mrr"] == 0.4444  # 4 digits
    assert data["suites"]["t"]["judge"] == {"completeness": 6.0, "correctness": 8.0, "n": 1}
    assert data["overall"]["questions"] == 5
    assert [q["id"] for q in data["questions"]] == ["r1", "r2", "r3", "e1", "s1"]
    json_path, md_path = write_reports(build_report(RECORDS, config=config), tmp_path / "out")
    assert json_path.read_text(encoding="utf-8") == first
    assert md_path.read_text(encoding="utf-8").startswith("# codeagent eval report")


def test_markdown_has_tables_and_worst_questions() -> None:
    groups = [{"repo": "stdlib:json", "commit": None, "questions": 5, "index_seconds": 0.5}]
    md = render_markdown(build_report(RECORDS, config={"llm": "none"}, groups=groups))
    assert "| scope | questions | errors | routing % |" in md
    assert "| s | 4 | 1 | 50.0 |" in md
    assert "Routing (rows expected, columns actual):" in md
    assert "### Errors" in md
    assert "RuntimeError: boom" in md
    assert "### Misrouted" in md
    assert "| s | r3 | rag | ast |" in md
    lowest = md.split("### Lowest reciprocal rank")[1]
    assert lowest.index("| s | r3 |") < lowest.index("| s | r2 |")  # worst first
    assert "| s | r1 |" not in lowest  # a perfect rank is not "worst"
    assert "### Structural answers not exact" in md
    assert "| stdlib:json |  | 5 | 0.500 |" in md


def test_compare_lists_changed_aggregates(tmp_path: Path) -> None:
    old = build_report(RECORDS[:3], config={})
    new = build_report([*RECORDS[:2], record("r3", scores=file_scores(1.0))], config={})
    rows = dict((key, (a, b)) for key, a, b in compare(old, new))
    assert rows["overall.routing.accuracy"] == (pytest.approx(2 / 3, abs=1e-4), 1.0)
    assert rows["s.retrieval.mrr"] == (0.4444, 0.7778)
    assert "overall.questions" not in rows  # unchanged
    text = format_compare(compare(old, new))
    assert "s.retrieval.mrr" in text
    assert "(+0.3334)" in text
    assert format_compare([]) == "no differences in the aggregates"
    path = tmp_path / "old.json"
    path.write_text(to_json(old), encoding="utf-8")
    assert load_report(path)["overall"] == old["overall"]


def test_load_report_errors(tmp_path: Path) -> None:
    with pytest.raises(EvalError, match="report not found"):
        load_report(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(EvalError, match="not a codeagent eval report"):
        load_report(bad)
