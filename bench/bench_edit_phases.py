"""CPU seconds per index phase after a one-file edit (and what BM25 from scratch would cost).

Usage::

    python bench/bench_edit_phases.py [--embed hash:384] [--home DIR] REPO

REPO is a git work tree. It is indexed once (cold, unless ``--home`` already holds its index),
then a small function is appended to the Python file in the middle of ``git ls-files`` and it is
indexed again in this process, with the phase clocks of ``load_or_build`` reading process CPU
time (``time.process_time``: all threads) instead of the wall clock, so the figures hold on a
loaded machine. The edit's BM25 index is derived from the previous state's; for comparison,
the same chunks are then tokenised and indexed from scratch. The edited file is restored
afterwards. Prints Markdown.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path


def _cpu_clock() -> types.SimpleNamespace:
    """The ``time`` module with ``perf_counter`` reading process CPU time."""
    return types.SimpleNamespace(**{**vars(time), "perf_counter": time.process_time})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--embed", default="hash:384")
    parser.add_argument("--home", type=Path, default=None)
    parser.add_argument("--force-cold", action="store_true", help="rebuild the unedited state")
    args = parser.parse_args()
    repo = args.repo.resolve()
    home = args.home or Path(tempfile.mkdtemp(prefix="codeagent-bench-edit-"))
    os.environ["CODEAGENT_HOME"] = str(home)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    from codeagent.config import Settings
    from codeagent.index import build
    from codeagent.store import store

    settings = Settings.load(embed=args.embed)
    start = time.process_time()
    _, cold = build.load_or_build(repo, settings, force=args.force_cold)
    print(f"cold (or cached): {time.process_time() - start:.1f} CPU s, {cold.chunks} chunks\n")

    files = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.split()
    target = repo / files[len(files) // 2]
    original = target.read_bytes()
    build.time = _cpu_clock()  # type: ignore[attr-defined]
    store.time = _cpu_clock()  # type: ignore[attr-defined]
    try:
        stamp = f"\n\ndef added_by_bench(x):  # {time.time()}\n    return x + 1\n"
        target.write_bytes(original + stamp.encode())  # a new state on every run
        start = time.process_time()
        index, stats = build.load_or_build(repo, settings)
        total = time.process_time() - start
    finally:
        target.write_bytes(original)
    print(f"one-file edit of {target.relative_to(repo)}: {total:.2f} CPU s in all\n")
    print("| phase | CPU s |")
    print("|---|---:|")
    for name, seconds in stats.seconds.items():
        if name != "total":
            print(f"| {name} | {seconds:.2f} |")

    # What the BM25 phase would cost from scratch, on the same chunks.
    from codeagent.store import bm25_build

    t0 = time.process_time()
    tokens = [store.bm25_tokens(c) for c in index.chunks]
    t1 = time.process_time()
    bm25_build.build(tokens)
    t2 = time.process_time()
    print(f"\nBM25 from scratch: tokenising {t1 - t0:.2f} CPU s, the index {t2 - t1:.2f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
