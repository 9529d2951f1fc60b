"""What fusing a how-question's two orders costs (``codeagent.rank.ranking.fuse``), in-process.

Usage::

    python bench/bench_how_fusion.py REPO QUESTIONS.jsonl [--rounds 3] [--embed local]
        [--ways off,on]

Opens (or builds, in ``CODEAGENT_HOME``'s cache) the index of the checkout REPO with vectors,
takes the questions of QUESTIONS.jsonl (a ``question`` per line; a suite such as
``eval/swe-qa-NAME.jsonl`` at its commit) that the fusion runs for (how-questions:
:func:`codeagent.rank.how_order.is_how_question`), and times
:func:`codeagent.rank.ranking.rank_files` for each, the ways in turn, ``--rounds`` times.
Prints p50 and p95 of each way, in milliseconds. A way is the product as shipped (``on``) or
changed by ``+``-joined parts: ``off`` (no fusion), ``faiss`` (one query searched by FAISS's
own loop, not the matrix product of :mod:`codeagent.store.faiss_index`), ``poolN`` (the
second pass's model orders N files, :data:`codeagent.rank.ranking.FUSE_POOL`). So
``--ways faiss+pool300,on,off`` times the fourteenth round's product, this one's, and this
one without the fusion. Run it under the heavy-job lock.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path

from codeagent.config import Settings
from codeagent.errors import CodeAgentError
from codeagent.index.build import load_or_build
from codeagent.rank import how_order, ranking
from codeagent.rank.query import analyze
from codeagent.store.faiss_index import FaissFlatIndex


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path, nargs="?")
    parser.add_argument("questions", type=Path, nargs="?")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embed", default="local")
    parser.add_argument("--ways", default="off,on", help="ways to time in turn (see above)")
    args = parser.parse_args()
    if args.repo is None or args.questions is None:  # as `make bench` runs it
        print("skipped: give REPO QUESTIONS.jsonl (a checkout with vectors, its questions)")
        return
    ways = [way.strip() for way in args.ways.split(",") if way.strip()]
    for way in ways:
        for part in way.split("+"):
            if part not in ("on", "off", "faiss") and not re.fullmatch(r"pool[1-9]\d*", part):
                raise SystemExit(f"bench_how_fusion: unknown way part {part!r} in {way!r}")
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
    times: dict[str, list[float]] = {way: [] for way in ways}
    kept = ranking.FUSE_HOW, ranking.FUSE_POOL, FaissFlatIndex.search
    try:
        for _ in range(args.rounds):
            for way in ways:
                parts = way.split("+")
                ranking.FUSE_HOW = "off" not in parts
                pools = [int(p[4:]) for p in parts if p.startswith("pool")]
                ranking.FUSE_POOL = pools[-1] if pools else kept[1]
                FaissFlatIndex.search = FaissFlatIndex.flat_search if "faiss" in parts else kept[2]
                for question, analysis in questions:
                    started = time.perf_counter()
                    ranking.rank_files(store, question, analysis)
                    times[way].append(time.perf_counter() - started)
    finally:
        ranking.FUSE_HOW, ranking.FUSE_POOL, FaissFlatIndex.search = kept
    print(f"{len(store.chunks)} chunks, {len(questions)} how-questions, {args.rounds} rounds")
    for way, taken in times.items():
        taken.sort()
        p95 = taken[min(len(taken) - 1, int(0.95 * len(taken)))]
        print(f"{way}: p50 {1000 * statistics.median(taken):.1f} ms, p95 {1000 * p95:.1f} ms")


if __name__ == "__main__":
    main()
