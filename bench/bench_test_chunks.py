"""What telling a Rust file's tests apart costs :func:`codeagent.rank.retrieve.retrieve`.

Usage::

    python bench/bench_test_chunks.py CHECKOUT QUESTIONS.jsonl [--rounds 5]

Opens the index of ``CHECKOUT`` (built with ``codeagent index`` before; ``CODEAGENT_EMBED``
picks it), asks each question of ``QUESTIONS.jsonl`` (its ``question`` fields; the lines whose
``repo`` ends with the checkout's folder name after ``+``, or all when none does) with ``k = 6``
three ways in turn, ``--rounds`` times: without the tests told apart, with them remembered from
the round before (every question after a file's first), and with them found again for each
question (a file's first question). Prints p50 and p95 per way, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from benchrepo import checkout_questions

import codeagent.rank.retrieve as retrieve_module
from codeagent import Workspace
from codeagent.rank import test_chunks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    questions = checkout_questions(args.checkout, args.questions)
    store = Workspace.open(args.checkout).get_store()
    for question in questions:  # load what every way needs (BM25, the tables)
        retrieve_module.retrieve(store, question, 6)
    told_apart = retrieve_module._tests_after
    times: dict[str, list[float]] = {"without": [], "remembered": [], "found again": []}
    for _ in range(args.rounds):
        for way, seconds in times.items():
            retrieve_module._tests_after = told_apart if way != "without" else _nothing
            for question in questions:
                if way == "found again":
                    test_chunks._FOUND.clear()
                start = time.perf_counter()
                retrieve_module.retrieve(store, question, 6)
                seconds.append(time.perf_counter() - start)
    retrieve_module._tests_after = told_apart
    print(f"{len(questions)} questions x {args.rounds} rounds, {len(store.chunks)} chunks")
    for way, seconds in times.items():
        p95 = sorted(seconds)[int(0.95 * (len(seconds) - 1))]
        print(f"{way}: p50 {1000 * statistics.median(seconds):.1f} ms, p95 {1000 * p95:.1f} ms")


def _nothing(*_: object) -> None:
    return None


if __name__ == "__main__":
    main()
