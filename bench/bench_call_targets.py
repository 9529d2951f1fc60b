"""The symbol-graph phase with and without call-target resolution, in-process.

    PYTHONPATH=src python bench/bench_call_targets.py REPO [--runs 5]

Parses every tracked Python file of REPO once (not timed), then times
``SymbolGraph.build(trees, root)`` (each file's structure, definitions, imports and call
sites, with their targets where the code says them: the symbol-graph phase of an index build)
``--runs`` times and prints the median and min in seconds, wall and CPU (this process's).
Then, on a fresh graph from the same records, the first ``who calls NAME`` of common
names (resolution happens then, for that name's sites only) in milliseconds. Run it with
PYTHONPATH at the sources before and after the change, paired (farm-bench --vs), under the
heavy-job lock.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import time
from pathlib import Path

from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query

NAMES = ("send", "get", "run", "close")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    root = args.repo.resolve()
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    trees = {}
    for path in listed:
        try:
            trees[path] = ast.parse((root / path).read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
    times, cpu = [], []
    graph = None
    for _ in range(args.runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        graph = SymbolGraph.build(trees, root)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    assert graph is not None
    print(
        f"graph_build_s median {statistics.median(times):.3f} min {min(times):.3f}; "
        f"cpu median {statistics.median(cpu):.3f} min {min(cpu):.3f} ({len(trees)} files)"
    )
    fresh = SymbolGraph(graph.records())
    for name in NAMES:
        started = time.perf_counter()
        try:
            result = run_symbol_query(fresh, SymbolArgs(operation="callers", name=name))
            count = len(result.items)
        except SymbolToolError:
            count = 0
        print(f"callers {name}: {(time.perf_counter() - started) * 1000:.1f} ms ({count} sites)")


if __name__ == "__main__":
    main()
