"""Run every benchmark script in this folder (``bench_*.py``), one process each.

Usage: ``make bench`` or ``python bench/run.py [NAME ...]`` (NAME is e.g. ``index``).
Each script prints a Markdown section; see docs/benchmarks.md for recorded results. The
scripts that need a large Python repository (:data:`NEEDS_LARGE_REPO`) take it from
``BENCH_LARGE_REPO`` (a git checkout, e.g. sympy), the TypeScript one from ``BENCH_TS_REPO``;
without it each is skipped with a line saying so. The scripts that need more than a repository
(:data:`BY_HAND`: a file to edit, a suite of questions) are left to be run by hand, as their
docstrings say.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEEDS_LARGE_REPO = {
    "bench_symbols", "bench_edit_phases", "bench_map", "bench_build_targets", "bench_call_names",
    "bench_call_targets", "bench_callers_scale", "bench_mcp_start",
}  # fmt: skip
NEEDS_TS_REPO = {"bench_ts_targets"}
BY_HAND = {
    "bench_edit_fresh": "REPO FILE",
    "bench_how_fusion": "REPO QUESTIONS.jsonl",
    "bench_before_after": "--before SRC --after SRC --repo REPO",
    "bench_first_answer": "--before SRC --after SRC",
}


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv]
    failed = 0
    large = os.environ.get("BENCH_LARGE_REPO", "")
    typescript = os.environ.get("BENCH_TS_REPO", "")
    for script in scripts:
        print(f"\n## {script.stem}\n", flush=True)
        args = [sys.executable, str(script)]
        if script.stem in BY_HAND:
            print(f"skipped: run it by hand with {BY_HAND[script.stem]} (see its docstring)")
            continue
        if script.stem in NEEDS_LARGE_REPO:
            if not large:
                print("skipped: set BENCH_LARGE_REPO=PATH (a large git checkout, e.g. sympy)")
                continue
            args.append(large)
        if script.stem in NEEDS_TS_REPO:
            if not typescript:
                print("skipped: set BENCH_TS_REPO=PATH (a TypeScript git checkout)")
                continue
            args.append(typescript)
        failed += subprocess.run(args, check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
