"""Chunk level for mined commits, in any language: does one of the first k chunks a ranker
cites overlap a line the commit edits (at its parent, where the question is asked)?

    python eval/edit_hits.py OUT/report.json --mirrors DIR [--k 1,3,5,10] [--json OUT.json]

``codeagent eval-dev`` scores this itself now (``edit@k`` in its tables, ``gold_edits`` in its
records); this reads a report written before, or re-scores one. Reads the records of an
``eval-dev`` report of mined commits (``eval/mine_commits.py``: each
item's id is ``OWNER/NAME@COMMIT``, its ``commit`` the parent, its ``expected_files`` the
source files the commit changed) and the commits' diffs from the bare mirrors (``git diff
-U0 PARENT COMMIT -- FILES``): the truth is git's, not the project's chunker. A hunk that
removes or rewrites lines is those lines of the parent; one that only adds lines is the two
lines around the place it adds them. ``edit@k`` is 1 when one of the first ``k`` cited chunks
(``cited_chunks``: the product's RAG sources in order; the baseline's best BM25 chunks) shares
a line with a hunk of the same file. Prints one table per report: per repository, n, then
``edit@k`` as product / baseline, the mean over repositories, and the cited chunks' median
length in lines (a longer chunk overlaps more lines: read the figures with it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from codeagent.eval.functions import Span, edited_lines, hits_at
from codeagent.eval.mirrors import find_mirror


def score(report: dict[str, Any], mirrors: Path, ks: list[int]) -> dict[str, Any]:
    """Per repository and ranker: ``edit@k`` means and the cited chunks' lengths."""
    sums: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    lengths: dict[str, list[int]] = defaultdict(list)
    gold_of: dict[str, list[Span]] = {}
    for record in report["questions"]:
        if record.get("error") or not record.get("expected_files"):
            continue
        repo, _, short = str(record["id"]).partition("@")
        mirror = find_mirror(mirrors, repo)
        if mirror is None or not short:
            continue
        if record["id"] not in gold_of:
            gold_of[record["id"]] = edited_lines(
                mirror, record["commit"], short, record["expected_files"]
            )
        gold = gold_of[record["id"]]
        if not gold:
            continue
        chunks = [(c[0], c[1], c[2]) for c in record.get("cited_chunks") or []]
        cell = sums[(repo, record["ranker"])]
        for name, value in hits_at(chunks, gold, "edit", ks).items():
            cell[name].append(value)
        lengths[record["ranker"]] += [c[2] - c[1] + 1 for c in chunks[:5]]
    table: dict[str, Any] = {"repos": {}, "chunk_lines": {}}
    for (repo, ranker), cell in sorted(sums.items()):
        row = table["repos"].setdefault(repo, {})
        row[ranker] = {name: 100 * statistics.fmean(v) for name, v in cell.items()}
        row["n"] = len(next(iter(cell.values())))
    for ranker, found in lengths.items():
        table["chunk_lines"][ranker] = statistics.median(found) if found else 0
    return table


def markdown(table: dict[str, Any], ks: list[int]) -> str:
    rankers = ("product", "baseline")
    head = "| repository | n | " + " | ".join(f"edit@{k}" for k in ks) + " |"
    lines = [head, "|---" * (2 + len(ks)) + "|"]
    means: dict[str, dict[str, list[float]]] = {r: defaultdict(list) for r in rankers}
    for repo, row in table["repos"].items():
        cells = []
        for k in ks:
            values = [row.get(r, {}).get(f"edit@{k}") for r in rankers]
            for r, v in zip(rankers, values, strict=True):
                if v is not None:
                    means[r][f"edit@{k}"].append(v)
            cells.append(" / ".join("-" if v is None else f"{v:.1f}" for v in values))
        lines.append(f"| {repo} | {row['n']} | " + " | ".join(cells) + " |")
    mean_cells = []
    for k in ks:
        values = [means[r][f"edit@{k}"] for r in rankers]
        mean_cells.append(" / ".join(f"{statistics.fmean(v):.1f}" if v else "-" for v in values))
    lines.append(
        f"| **mean over repositories** | {len(table['repos'])} | " + " | ".join(mean_cells) + " |"
    )
    lengths = ", ".join(f"{r} {v:g}" for r, v in table["chunk_lines"].items())
    lines.append(f"\ncited chunks' median length (first five), lines: {lengths}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--k", default="1,3,5,10")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    try:
        ks = [int(k) for k in args.k.split(",") if k.strip()]
        report = json.loads(args.report.read_text(encoding="utf-8"))
        if not isinstance(report, dict) or not isinstance(report.get("questions"), list):
            raise ValueError(f"{args.report} is not an eval-dev report (no questions)")
        if not args.mirrors.is_dir():
            raise ValueError(f"no mirrors folder at {args.mirrors}")
        table = score(report, args.mirrors, ks)
    except (OSError, ValueError, subprocess.CalledProcessError) as exc:
        parser.exit(2, f"edit_hits: {exc}\n")
    if args.json is not None:
        args.json.write_text(json.dumps(table, indent=1, sort_keys=True), encoding="utf-8")
    print(markdown(table, ks))


if __name__ == "__main__":
    sys.exit(main())
