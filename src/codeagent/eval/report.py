"""Aggregate scored records into a report; write it as JSON and Markdown; compare two reports.

``report.json`` holds every question and the aggregates per suite and overall, with sorted
keys and rounded floats so two runs diff cleanly. ``report.md`` shows the same as tables and
lists the worst questions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from codeagent.errors import EvalError
from codeagent.eval import metrics

DIGITS = 4
FILE_KEYS = [
    *(f"hit@{k}" for k in metrics.K_VALUES),
    *(f"recall@{k}" for k in metrics.K_VALUES),
    *(f"py_hit@{k}" for k in metrics.K_VALUES),
]


def aggregate(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The headline numbers over ``records`` (one suite, or all of them)."""
    ran = [r for r in records if r["error"] is None]
    routed = [(r["expected_route"], r["route"] or "none") for r in records if r["expected_route"]]
    retrieval = [r for r in ran if "mrr" in r["scores"]]
    cited = [r for r in ran if "cited_recall@1" in r["scores"]]
    structural = [r for r in ran if "exact" in r["scores"]]
    contains = [r["scores"]["contains"] for r in ran if "contains" in r["scores"]]
    judged = [r["judge"] for r in ran if r.get("judge") and "error" not in r["judge"]]
    return {
        "questions": len(records),
        "errors": len(records) - len(ran),
        "fallback_rate": metrics.mean(1.0 if r["fallback"] else 0.0 for r in ran),
        "routing": metrics.routing(routed),
        "retrieval": {
            "n": len(retrieval),
            **_means(retrieval, [*FILE_KEYS, "mrr"]),
        },
        "cited_files": {
            "n": len(cited),
            **_means(cited, [f"cited_recall@{k}" for k in metrics.K_VALUES]),
        },
        "structural": {
            "n": len(structural),
            **_means(structural, ["precision", "recall", "exact"]),
        },
        "answer_contains": {"n": len(contains), "mean": metrics.mean(contains)},
        "judge": {
            "n": len(judged),
            "correctness": metrics.mean(float(j["correctness"]) for j in judged),
            "completeness": metrics.mean(float(j["completeness"]) for j in judged),
        },
        "latency": metrics.latency(r["timings"] for r in records),
    }


def _means(records: Iterable[Mapping[str, Any]], keys: Sequence[str]) -> dict[str, float | None]:
    rows = [r["scores"] for r in records]
    return {key: metrics.mean(row[key] for row in rows if key in row) for key in keys}


def build_report(
    records: Sequence[Mapping[str, Any]],
    *,
    config: Mapping[str, Any],
    groups: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The full report: run config, checkouts, aggregates per suite and overall, questions."""
    suites: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        suites.setdefault(record["suite"], []).append(record)
    report = {
        "config": dict(config),
        "repositories": list(groups),
        "suites": {name: aggregate(rows) for name, rows in sorted(suites.items())},
        "overall": aggregate(records),
        "questions": list(records),
    }
    rounded = _round(report)
    assert isinstance(rounded, dict)
    return rounded


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, Mapping):
        return {str(k): _round(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_round(v) for v in value]
    return value


def to_json(report: Mapping[str, Any]) -> str:
    return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load_report(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise EvalError(f"report not found: {path}") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EvalError(f"cannot read report {path}: {exc}") from exc
    if not isinstance(data, dict) or "overall" not in data:
        raise EvalError(f"{path} is not a codeagent eval report (no 'overall' key)")
    return data


def write_reports(report: Mapping[str, Any], out_dir: Path) -> tuple[Path, Path]:
    """Write ``report.json`` and ``report.md`` into ``out_dir`` (created if needed)."""
    from codeagent.eval.markdown import render_markdown

    return write_report_files(report, out_dir, "report.md", render_markdown(report))


def write_report_files(
    report: Mapping[str, Any], out_dir: Path, markdown_name: str, markdown: str
) -> tuple[Path, Path]:
    """``report.json`` (the report) and ``markdown_name`` (its tables) in ``out_dir``,
    created if needed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out_dir / "report.json", out_dir / markdown_name
    json_path.write_text(to_json(report), encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return json_path, md_path


def flatten(aggregates: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Numeric leaves as ``"routing.accuracy"`` -> value (confusion counts and n's included)."""
    flat: dict[str, float] = {}
    for key, value in aggregates.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, name + "."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            flat[name] = float(value)
    return flat


def compare(
    old: Mapping[str, Any], new: Mapping[str, Any]
) -> list[tuple[str, float | None, float | None]]:
    """(metric, old, new) for every aggregate that differs between two reports."""

    def scoped(report: Mapping[str, Any]) -> dict[str, float]:
        flat = flatten(report.get("overall", {}), "overall.")
        for suite, aggregates in (report.get("suites") or {}).items():
            flat.update(flatten(aggregates, f"{suite}."))
        return flat

    before, after = scoped(old), scoped(new)
    rows: list[tuple[str, float | None, float | None]] = []
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key), after.get(key)
        if a is None or b is None or abs(a - b) > 1e-9:
            rows.append((key, a, b))
    return rows


def format_compare(rows: Sequence[tuple[str, float | None, float | None]]) -> str:
    """The deltas as aligned text lines (``metric  old -> new  (+delta)``)."""
    if not rows:
        return "no differences in the aggregates"
    width = max(len(key) for key, _, _ in rows)
    lines = []
    for key, old, new in rows:
        delta = f"{new - old:+.4g}" if old is not None and new is not None else "n/a"
        lines.append(f"{key:<{width}}  {_num(old):>8} -> {_num(new):<8}  ({delta})")
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.4g}"
