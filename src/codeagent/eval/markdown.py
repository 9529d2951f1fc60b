"""``report.md``: the aggregates as tables, then the worst questions (deterministic text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WORST = 10


def _fmt(value: Any, *, percent: bool = False) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{100 * value:.1f}" if percent else f"{value:.3f}"
    return str(value)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return [*lines, ""]


def _summary(scopes: Mapping[str, Mapping[str, Any]]) -> list[str]:
    header = [
        "scope",
        "questions",
        "errors",
        "routing %",
        "fallback %",
        "hit@1",
        "hit@3",
        "hit@5",
        "hit@10",
        "MRR",
        "cited R@5",
        "cited R@10",
        "set exact %",
    ]
    rows = []
    for name, agg in scopes.items():
        ret, cited = agg["retrieval"], agg["cited_files"]
        rows.append(
            [
                name,
                agg["questions"],
                agg["errors"],
                _fmt(agg["routing"]["accuracy"], percent=True),
                _fmt(agg["fallback_rate"], percent=True),
                *(_fmt(ret[f"hit@{k}"], percent=True) for k in (1, 3, 5, 10)),
                _fmt(ret["mrr"]),
                _fmt(cited["cited_recall@5"], percent=True),
                _fmt(cited["cited_recall@10"], percent=True),
                _fmt(agg["structural"]["exact"], percent=True),
            ]
        )
    return _table(header, rows)


def _details(name: str, agg: Mapping[str, Any]) -> list[str]:
    lines = [f"### {name}", ""]
    ret = agg["retrieval"]
    ks = (1, 3, 5, 10)
    lines += _table(
        ["n", *(f"recall@{k}" for k in ks), *(f".py hit@{k}" for k in ks)],
        [
            [
                ret["n"],
                *(_fmt(ret[f"recall@{k}"], percent=True) for k in ks),
                *(_fmt(ret.get(f"py_hit@{k}"), percent=True) for k in ks),
            ]
        ],
    )
    st = agg["structural"]
    lines += _table(
        ["structural n", "precision", "recall", "exact"],
        [[st["n"], _fmt(st["precision"]), _fmt(st["recall"]), _fmt(st["exact"])]],
    )
    confusion = agg["routing"]["confusion"]
    actual = sorted({a for row in confusion.values() for a in row})
    if confusion:
        lines.append("Routing (rows expected, columns actual):")
        lines.append("")
        lines += _table(
            ["expected \\ actual", *actual],
            [[exp, *(row.get(a, 0) for a in actual)] for exp, row in confusion.items()],
        )
    if agg["latency"]:
        lines += _table(
            ["stage", "p50 s", "p95 s", "n"],
            [[s, _fmt(v["p50"]), _fmt(v["p95"]), v["n"]] for s, v in agg["latency"].items()],
        )
    judge = agg["judge"]
    if judge["n"]:
        lines += _table(
            ["judged", "correctness", "completeness"],
            [[judge["n"], _fmt(judge["correctness"]), _fmt(judge["completeness"])]],
        )
    return lines


def _worst(questions: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["## Worst questions", ""]
    errors = [q for q in questions if q["error"]]
    if errors:
        lines += ["### Errors", ""]
        lines += _table(
            ["suite", "id", "error"], [[q["suite"], q["id"], q["error"]] for q in errors]
        )
    misroutes = [
        q
        for q in questions
        if q["expected_route"] and not q["error"] and q["route"] != q["expected_route"]
    ]
    if misroutes:
        lines += ["### Misrouted", ""]
        lines += _table(
            ["suite", "id", "expected", "actual", "question"],
            [
                [q["suite"], q["id"], q["expected_route"], q["route"], _short(q["question"])]
                for q in misroutes
            ],
        )
    ranked = sorted(
        (q for q in questions if "mrr" in q["scores"]),
        key=lambda q: (q["scores"]["mrr"], q["suite"], q["id"]),
    )
    low = [q for q in ranked if q["scores"]["mrr"] < 1.0][:WORST]
    if low:
        lines += ["### Lowest reciprocal rank", ""]
        lines += _table(
            ["suite", "id", "RR", "expected", "top 3 retrieved"],
            [
                [
                    q["suite"],
                    q["id"],
                    _fmt(q["scores"]["mrr"]),
                    ", ".join(q["expected_files"]),
                    ", ".join(q["ranked_files"][:3]),
                ]
                for q in low
            ],
        )
    inexact = [q for q in questions if q["scores"].get("exact") == 0.0][:WORST]
    if inexact:
        lines += ["### Structural answers not exact", ""]
        lines += _table(
            ["suite", "id", "precision", "recall", "route", "fallback"],
            [
                [
                    q["suite"],
                    q["id"],
                    _fmt(q["scores"]["precision"]),
                    _fmt(q["scores"]["recall"]),
                    q["route"],
                    q["fallback"] or "",
                ]
                for q in inexact
            ],
        )
    return lines


def _short(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def render_markdown(report: Mapping[str, Any]) -> str:
    """The whole report as Markdown."""
    config = report.get("config", {})
    lines = ["# codeagent eval report", ""]
    for key, value in sorted(config.items()):
        shown = ", ".join(map(str, value)) if isinstance(value, list) else value
        lines.append(f"- {key}: " + ("—" if shown is None else f"`{shown}`"))
    lines.append("")
    scopes = {**report["suites"], "overall": report["overall"]}
    lines += ["## Summary", "", "Percentages; retrieval over questions expecting RAG.", ""]
    lines += _summary(scopes)
    lines += ["## Details", ""]
    details = report["suites"] if len(report["suites"]) == 1 else scopes
    for name, agg in details.items():
        lines += _details(name, agg)
    repos = report.get("repositories") or []
    if repos:
        lines += ["## Checkouts", ""]
        lines += _table(
            ["repo", "commit", "questions", "index s", "chunks", "embedded"],
            [
                [
                    r["repo"],
                    (r.get("commit") or "")[:12],
                    r["questions"],
                    _fmt(r.get("index_seconds")),
                    _fmt(r.get("chunks")),
                    _fmt(r.get("chunks_embedded")),
                ]
                for r in repos
            ],
        )
    lines += _worst(report["questions"])
    return "\n".join(lines).rstrip() + "\n"
