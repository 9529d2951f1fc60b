"""Run every benchmark script in this folder (``bench_*.py``), one process each.

Usage: ``make bench`` or ``python bench/run.py [NAME ...]`` (NAME is e.g. ``index``).
Each script prints a Markdown section; see docs/benchmarks.md for recorded results. The
scripts that need a large Python repository (:data:`NEEDS_REPO`) take it from
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
LARGE = ("BENCH_LARGE_REPO", "a large git checkout, e.g. sympy")
TYPESCRIPT = ("BENCH_TS_REPO", "a TypeScript git checkout")
# the scripts that take a repository, and the variable that gives it
NEEDS_REPO = {
    **dict.fromkeys((
        "bench_symbols", "bench_edit_phases", "bench_map", "bench_build_targets",
        "bench_call_names", "bench_call_targets", "bench_callers_scale", "bench_mcp_start",
        "bench_fresh_clone", "bench_pool", "bench_reopen", "bench_server_questions",
        "bench_tuned_speed", "bench_lang_chunks",
    ), LARGE),
    "bench_ts_targets": TYPESCRIPT,
}  # fmt: skip
BY_HAND = {
    "bench_edit_fresh": "REPO FILE",
    "bench_how_fusion": "REPO QUESTIONS.jsonl",
    "bench_test_chunks": "CHECKOUT QUESTIONS.jsonl",
    "bench_bm25_query": "ENTRY (a cache entry's folder)",
    "bench_declarations": "CHECKOUT QUESTIONS.jsonl",
    "bench_before_after": "--before SRC --after SRC --repo REPO",
    "bench_first_answer": "--before SRC --after SRC",
}


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv]
    failed = 0
    for script in scripts:
        print(f"\n## {script.stem}\n", flush=True)
        args = [sys.executable, str(script)]
        if script.stem in BY_HAND:
            print(f"skipped: run it by hand with {BY_HAND[script.stem]} (see its docstring)")
            continue
        if script.stem in NEEDS_REPO:
            variable, what = NEEDS_REPO[script.stem]
            if not os.environ.get(variable):
                print(f"skipped: set {variable}=PATH ({what})")
                continue
            args.append(os.environ[variable])
        failed += subprocess.run(args, check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
