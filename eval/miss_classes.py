"""What fills the first k files when the product misses: misses of an ``eval-dev`` report by class.

For every question of the chosen benchmark that the product misses at k (no expected file
among its first k files), each of those k files is classed by its path
(:func:`codeagent.rank.file_roles.path_kind`: code, tests, docs, config, other, junk; a
package's ``__init__.py`` apart, since hub modules crowd out the helper that holds the fix), and
the miss by where the expected file went: ranked 6-10, ranked 11-20, or not ranked. The same
questions' baseline result stands beside it (the misses the baseline finds). Reads
``report.json``; runs nothing.

    PYTHONPATH=src python eval/miss_classes.py REPORT.json [--k 5] [--bench swebench]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from codeagent.eval.tables import benchmark_of
from codeagent.rank.file_roles import path_kind


def slot_class(path: str) -> str:
    if path.rsplit("/", 1)[-1] == "__init__.py":
        return "package __init__"
    return path_kind(path)


def where(ranked: list[str], expected: list[str], k: int) -> str:
    ranks = [ranked.index(p) + 1 for p in expected if p in ranked]
    if not ranks:
        return "not ranked"
    best = min(ranks)
    return f"ranked {k + 1}-10" if best <= 10 else "ranked 11-20"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--bench", default="swebench", choices=("swebench", "swe-qa"))
    args = parser.parse_args()
    records = json.loads(args.report.read_text(encoding="utf-8"))["questions"]
    key = f"hit@{args.k}" if args.bench == "swebench" else f"recall@{max(args.k, 5)}"
    by_id = {(r["id"], r["ranker"]): r for r in records}
    slots: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    per_repo: Counter[str] = Counter()
    found_by_baseline = 0
    total = 0
    for record in records:
        if record["ranker"] != "product" or benchmark_of(record["suite"]) != args.bench:
            continue
        if record["error"] is not None or key not in record["scores"]:
            continue
        total += 1
        if record["scores"][key] > 0:
            continue
        per_repo[record["repo"]] += 1
        slots.update(slot_class(p) for p in record["ranked_files"][: args.k])
        misses[where(record["ranked_files"], record["expected_files"], args.k)] += 1
        baseline = by_id.get((record["id"], "baseline"))
        if baseline is not None and baseline["scores"].get(key, 0) > 0:
            found_by_baseline += 1
    missed = sum(misses.values())
    print(f"{args.bench}: {missed} of {total} questions missed at {args.k} ({key} = 0)")
    print(f"  of which the baseline finds {found_by_baseline}")
    print(
        "  where the expected file went: " + ", ".join(f"{n} {w}" for w, n in misses.most_common())
    )
    print(f"  what fills the first {args.k} slots of the misses ({missed * args.k} slots):")
    for name, n in slots.most_common():
        print(f"    {name}: {n}")
    print("  misses per repository: " + ", ".join(f"{r} {n}" for r, n in per_repo.most_common()))


if __name__ == "__main__":
    main()
