"""The symbol-graph phase with and without call-target resolution, in-process.

    PYTHONPATH=src python bench/bench_call_targets.py REPO [--runs 5] [--without]

Parses every tracked Python file of REPO once (not timed), then times
``SymbolGraph.build(trees, root)`` (each file's structure, definitions, imports and call
sites, with their targets where the code says them: the symbol-graph phase of an index build)
``--runs`` times and prints the median and min in seconds, wall and CPU (this process's).
Then, on a fresh graph from the same records, the first ``who calls NAME`` of common
names (resolution happens then, for that name's sites only) in milliseconds. Run it with
PYTHONPATH at the sources before and after the change, paired (farm-bench --vs), under the
heavy-job lock.

``--without``: each run is paired with one without the receivers (no binding nodes gathered
in the call walk, no target read: every site by name), interleaved, and the median of the
runs' paired CPU ratios is printed: what resolution adds to the phase; with the fastest run
of each way compared too (less moved by other work on a busy machine).
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from codeagent.symbols import extract
from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query

NAMES = ("send", "get", "run", "close")


class _NoTargets:
    """Every site by name (in place of :class:`codeagent.symbols.receivers.CallTargets`)."""

    def __init__(self, *_: object) -> None:
        pass

    def of(self, *_: object) -> None:
        return None

    def value(self, *_: object) -> None:
        return None


@contextmanager
def by_name() -> Iterator[None]:
    """Inside: no binding nodes gathered in the call walk, no target read (every site by
    name); the receivers as before after."""
    kept = extract.CallTargets, extract.BINDING_NODES, getattr(extract, "fixture_values", None)
    extract.CallTargets, extract.BINDING_NODES = _NoTargets, ()  # type: ignore[misc,assignment]
    if kept[2] is not None:  # pytest's fixtures' values: resolution's too
        extract.fixture_values = lambda *_: {}  # type: ignore[attr-defined]
    try:
        yield
    finally:
        extract.CallTargets, extract.BINDING_NODES = kept[:2]  # type: ignore[misc]
        if kept[2] is not None:
            extract.fixture_values = kept[2]  # type: ignore[attr-defined]


def _build_without(trees: dict[str, ast.Module], root: Path) -> float:
    with by_name():
        started = time.process_time()
        SymbolGraph.build(trees, root)
        return time.process_time() - started


def parsed_trees(root: Path) -> dict[str, ast.Module]:
    """Every tracked Python file of the checkout ``root`` that parses, by path."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "*.py"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split("\0")[:-1]  # -z: names as they are (not quoted), spaces kept
    trees = {}
    for path in listed:
        try:
            trees[path] = ast.parse((root / path).read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
    return trees


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--without", action="store_true", help="pair each run with one by name")
    args = parser.parse_args()
    root = args.repo.resolve()
    trees = parsed_trees(root)
    times, cpu, without = [], [], []
    graph = None
    if args.without:  # both ways once first, not timed
        SymbolGraph.build(trees, root)
        _build_without(trees, root)
    for _ in range(args.runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        graph = SymbolGraph.build(trees, root)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        if args.without:
            without.append(_build_without(trees, root))
    assert graph is not None
    print(
        f"graph_build_s median {statistics.median(times):.3f} min {min(times):.3f}; "
        f"cpu median {statistics.median(cpu):.3f} min {min(cpu):.3f} ({len(trees)} files)"
    )
    if without:
        ratios = sorted(a / b - 1 for a, b in zip(cpu, without, strict=True))
        print(
            f"without targets: cpu median {statistics.median(without):.3f} min {min(without):.3f}; "
            f"paired CPU: median {statistics.median(ratios):+.1%} (min {ratios[0]:+.1%}, "
            f"max {ratios[-1]:+.1%}); fastest runs: {min(cpu) / min(without) - 1:+.1%}"
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
