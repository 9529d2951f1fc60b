"""A whole cold index build with and without Python call targets, in-process.

    taskset -c 0 env PYTHONPATH=src python bench/bench_build_targets.py REPO [--runs 9]

Builds the index of REPO (``--embed none``: the chunks, BM25 and the symbol graph) in a fresh
home each time, serially (one CPU: ``taskset -c 0`` makes the build parse in this process, so
the switch below reaches it), once with the receivers resolved and once without (no binding
nodes gathered, every call site by name, as ``bench/bench_call_targets.py --without``),
interleaved; prints the medians of the CPU seconds and of the paired ratios: what resolution
adds to a whole build, where ``bench_call_targets.py`` gives what it adds to the symbol-graph
phase alone. Run it under the heavy-job lock.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

from bench_call_targets import by_name

from codeagent.config import Settings
from codeagent.index.build import load_or_build


def _build(repo: Path, without: bool) -> float:
    """CPU seconds of one cold build of ``repo`` in a fresh home."""
    home = tempfile.mkdtemp(prefix="codeagent-bench-")
    os.environ["CODEAGENT_HOME"] = home
    try:
        with by_name() if without else nullcontext():
            started = time.process_time()
            load_or_build(repo, Settings.load(llm="none", embed="none"))
            return time.process_time() - started
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    repo = args.repo.resolve()
    _build(repo, False)  # both ways once first, not timed
    _build(repo, True)
    with_targets, without = [], []
    for _ in range(args.runs):
        with_targets.append(_build(repo, False))
        without.append(_build(repo, True))
    ratios = sorted(a / b - 1 for a, b in zip(with_targets, without, strict=True))
    print(
        f"{repo.name}: cpu median {statistics.median(with_targets):.3f} s with targets, "
        f"{statistics.median(without):.3f} s without; paired median "
        f"{statistics.median(ratios):+.1%} (min {ratios[0]:+.1%}, max {ratios[-1]:+.1%}); "
        f"fastest runs {min(with_targets) / min(without) - 1:+.1%}"
    )


if __name__ == "__main__":
    main()
