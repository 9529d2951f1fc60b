"""BM25 at query time on a stored entry: opening the index, then scoring questions.

Usage::

    CODEAGENT_HOME=H python bench/bench_bm25_query.py ENTRY [--rounds 5]

ENTRY is an index directory (``<home>/cache/<repo id>/<state hash>``, built with
``--embed none``). In a fresh process: the CPU time of the first ``store.bm25`` (reading the
BM25 files), then of :meth:`~codeagent.store.store.IndexStore.bm25_scores` for short
questions and for long ones (each word counted), median over the rounds (a term's scores are
kept once computed, so these are the warm figures), and for the 38 issue reports of
``eval/swebench-loc.jsonl`` each scored as the first question of a process (no term's
scores kept): median and p95. Runs against whichever ``codeagent`` is on the path, so two
versions compare on their own entries of the same state. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

SHORT = [
    "where is the derivative of a product computed",
    "how are rational numbers simplified",
    "matrix determinant",
    "solve a system of linear equations",
    "printing latex for integrals",
    "series expansion around infinity",
]
LONG = [
    " ".join(SHORT) * 4,
    "When I call simplify on an expression with nested square roots and trigonometric "
    "functions the result is not simplified and the printer shows the latex output wrong "
    "for the integral of a piecewise function with symbolic limits; the matrix solver "
    "raises an error for a singular matrix instead of returning the nullspace " * 3,
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("entry", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from codeagent.store.store import IndexStore

    store = IndexStore.load(args.entry, None)
    start = time.process_time()
    store.bm25  # noqa: B018 - the first use reads the files
    opened = time.process_time() - start
    store.bm25_scores("warm up the stemmer")
    rows = []
    for name, questions in (("short", SHORT), ("long", LONG)):
        per_round = []
        for _ in range(args.rounds):
            start = time.process_time()
            for question in questions:
                store.bm25_scores(question)
            per_round.append((time.process_time() - start) / len(questions))
        rows.append((name, statistics.median(per_round) * 1000))
    issues = Path(__file__).resolve().parents[1] / "eval" / "swebench-loc.jsonl"
    first = []
    for line in issues.read_text(encoding="utf-8").splitlines():
        kept = getattr(store.bm25, "_parts", None)  # the scores a term keeps, where it does
        if kept is not None:
            kept.clear()
        start = time.process_time()
        store.bm25_scores(json.loads(line)["question"])
        first.append(time.process_time() - start)
    first.sort()
    print(f"| open BM25 | {opened * 1000:.0f} ms |")
    for name, ms in rows:
        print(f"| scores, {name} question (warm) | {ms:.1f} ms |")
    p95 = first[min(len(first) - 1, int(0.95 * len(first)))]
    print(
        f"| scores, issue report, first question | median {statistics.median(first) * 1000:.1f}"
        f" ms, p95 {p95 * 1000:.1f} ms ({len(first)} issues) |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
