"""What fusing a how-question's two orders costs (``codeagent.rank.ranking.fuse``), in-process.

Usage::

    python bench/bench_how_fusion.py REPO QUESTIONS.jsonl [--rounds 3] [--embed local]

Opens (or builds, in ``CODEAGENT_HOME``'s cache) the index of the checkout REPO with vectors,
takes the questions of QUESTIONS.jsonl (a ``question`` per line; a suite such as
``eval/swe-qa-NAME.jsonl`` at its commit) that the fusion runs for (how-questions:
:func:`codeagent.rank.how_order.is_how_question`), and times
:func:`codeagent.rank.ranking.rank_files` for each with the fusion off and on, the two ways in
turn, ``--rounds`` times. Prints p50 and p95 of each way, in milliseconds. The query's
embedding and the dense search are in both. Run it under the heavy-job lock.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from codeagent.config import Settings
from codeagent.errors import CodeAgentError
from codeagent.index.build import load_or_build
from codeagent.rank import how_order, ranking
from codeagent.rank.query import analyze


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path, nargs="?")
    parser.add_argument("questions", type=Path, nargs="?")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embed", default="local")
    args = parser.parse_args()
    if args.repo is None or args.questions is None:  # as `make bench` runs it
        print("skipped: give REPO QUESTIONS.jsonl (a checkout with vectors, its questions)")
        return
    try:
        settings = Settings.load(llm="none", embed=args.embed)
        store, _ = load_or_build(args.repo.resolve(), settings)
        lines = args.questions.read_text(encoding="utf-8").splitlines()
    except (CodeAgentError, OSError) as exc:
        raise SystemExit(f"bench_how_fusion: {exc}") from None
    asked = [str(json.loads(line)["question"]) for line in lines if line.strip()]
    questions = [(q, analyze(q)) for q in asked if how_order.is_how_question(q, analyze(q))]
    if not questions:
        raise SystemExit(f"{args.questions}: no how-question")
    for question, analysis in questions[:3]:  # the per-index tables, the models: not timed
        ranking.rank_files(store, question, analysis)
    times: dict[bool, list[float]] = {False: [], True: []}
    kept = ranking.FUSE_HOW
    try:
        for _ in range(args.rounds):
            for fuse in (False, True):
                ranking.FUSE_HOW = fuse
                for question, analysis in questions:
                    started = time.perf_counter()
                    ranking.rank_files(store, question, analysis)
                    times[fuse].append(time.perf_counter() - started)
    finally:
        ranking.FUSE_HOW = kept
    print(f"{len(store.chunks)} chunks, {len(questions)} how-questions, {args.rounds} rounds")
    for fuse, taken in times.items():
        taken.sort()
        p95 = taken[min(len(taken) - 1, int(0.95 * len(taken)))]
        print(
            f"fusion {'on ' if fuse else 'off'}: p50 {1000 * statistics.median(taken):.1f} ms, "
            f"p95 {1000 * p95:.1f} ms"
        )


if __name__ == "__main__":
    main()
