"""The dev run's report: ``report.json`` (config, checkouts, skips, tables, every record) and
``tables.md`` (the per-repository tables, the skips and the run's cost)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from codeagent.eval.report import _round, write_report_files
from codeagent.eval.tables import build_tables, render_tables


def build_dev_report(
    records: Sequence[Mapping[str, Any]],
    *,
    config: Mapping[str, Any],
    groups: Sequence[Mapping[str, Any]] = (),
    skipped: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    report = {
        "config": dict(config),
        "checkouts": list(groups),
        "skipped": list(skipped),
        "tables": build_tables(records),
        "questions": list(records),
    }
    rounded = _round(report)
    assert isinstance(rounded, dict)
    return rounded


def render_dev_report(report: Mapping[str, Any]) -> str:
    config = report["config"]
    lines = [
        f"### Dev run: {', '.join(config.get('rankers', []))}, embed {config.get('embed')}, "
        f"split {config.get('split')}",
        "",
        f"Suites: {', '.join(config.get('suites', []))}; k {config.get('k')}; "
        f"commit sample: {config.get('max_commits') or 'all'} per repository "
        f"(seed {config.get('seed')}); date {config.get('date')}."
        + (" **Partial: the run is still going.**" if config.get("partial") else ""),
        "",
        render_tables(report["tables"]),
    ]
    skipped: dict[tuple[str, str], list[int]] = {}
    for skip in report["skipped"]:
        entry = skipped.setdefault((skip["repo"], skip["reason"]), [0, 0])
        entry[0] += 1
        entry[1] += skip["questions"]
    if skipped:
        lines.append("Skipped (not scored):")
        for (repo, reason), (commits, questions) in sorted(skipped.items()):
            lines.append(f"- {repo}: {questions} questions, {commits} commits ({reason})")
        lines.append("")
    checkouts = report["checkouts"]
    index_s = sum(c.get("index_seconds") or 0.0 for c in checkouts)
    search_s = sum(c.get("search_seconds") or 0.0 for c in checkouts)
    lines.append(
        f"Cost: {len(checkouts)} checkouts, index {index_s:.0f} s, search {search_s:.0f} s, "
        f"run {config.get('seconds')} s."
    )
    return "\n".join(lines).rstrip() + "\n"


def write_dev_report(report: Mapping[str, Any], out_dir: Path) -> tuple[Path, Path]:
    """Write ``report.json`` and ``tables.md`` into ``out_dir`` (created if needed)."""
    return write_report_files(report, out_dir, "tables.md", render_dev_report(report))
