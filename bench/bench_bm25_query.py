"""BM25 at query time on a stored entry: opening the index, then scoring questions.

Usage::

    CODEAGENT_HOME=H python bench/bench_bm25_query.py ENTRY [--rounds 5]

ENTRY is an index directory (``<home>/cache/<repo id>/<state hash>``, built with
``--embed none``). In a fresh process: the CPU time of the first ``store.bm25`` (reading the
BM25 files), then of :meth:`~codeagent.store.store.IndexStore.bm25_scores` for short
questions and for long ones (issue-length texts, each word counted), median over the rounds.
Runs against whichever ``codeagent`` is on the path, so two versions compare on their own
entries of the same state. Prints Markdown.
"""

from __future__ import annotations

import argparse
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
    print(f"| open BM25 | {opened * 1000:.0f} ms |")
    for name, ms in rows:
        print(f"| scores, {name} question | {ms:.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
