"""Smoke run: a few stdlib questions through the real agent, no LLM, BM25 only (a few seconds)."""

from __future__ import annotations

from pathlib import Path

from codeagent.config import Settings
from codeagent.eval.report import build_report
from codeagent.eval.runner import EvalRun, run_items
from codeagent.eval.suite import load_suite

SUITE = Path(__file__).resolve().parents[2] / "eval" / "stdlib.jsonl"
PACKAGES = {"stdlib:json", "stdlib:urllib"}


def test_stdlib_subset_through_the_agent() -> None:
    items = [i for i in load_suite(SUITE) if i.repo in PACKAGES]
    assert len(items) >= 15
    run = EvalRun(settings=Settings.load(llm="none", embed="none", k=10))
    records = run_items(items, run)
    report = build_report(records, config={"llm": "none", "embed": "none"})
    overall = report["overall"]
    assert overall["errors"] == 0, [r["error"] for r in records if r["error"]]
    assert overall["routing"]["accuracy"] >= 0.95
    assert [g["repo"] for g in run.groups] == ["stdlib:json", "stdlib:urllib"]  # indexed once each
    structural = overall["structural"]
    assert structural["n"] == sum(1 for i in items if i.expected_symbols is not None)
    assert structural["exact"] == 1.0, [r["id"] for r in records if r["scores"].get("exact") == 0]
    # Ranking quality is measured by `make eval`; here only that files are ranked at all.
    assert overall["retrieval"]["n"] == sum(1 for i in items if i.expected_route == "rag")
    assert overall["retrieval"]["hit@10"] >= 0.5
