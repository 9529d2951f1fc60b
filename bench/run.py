"""Run every benchmark script in this folder (``bench_*.py``), one process each.

Usage: ``make bench`` or ``python bench/run.py [NAME ...]`` (NAME is e.g. ``index``).
Each script prints a Markdown section; see docs/benchmarks.md for recorded results. The
scripts that need a large repository (``symbols``, ``edit_phases``, ``map``) take it from
``BENCH_LARGE_REPO`` (a git checkout, e.g. sympy) and are skipped, with a line saying so,
without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEEDS_LARGE_REPO = {"bench_symbols", "bench_edit_phases", "bench_map"}


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv]
    failed = 0
    large = os.environ.get("BENCH_LARGE_REPO", "")
    for script in scripts:
        print(f"\n## {script.stem}\n", flush=True)
        args = [sys.executable, str(script)]
        if script.stem in NEEDS_LARGE_REPO:
            if not large:
                print("skipped: set BENCH_LARGE_REPO=PATH (a large git checkout, e.g. sympy)")
                continue
            args.append(large)
        failed += subprocess.run(args, check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
