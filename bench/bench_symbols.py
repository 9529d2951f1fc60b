"""Repository-wide symbol questions on a big index: time after the index is loaded.

Usage: ``python bench/bench_symbols.py REPO [--embed none]`` (e.g. a sympy checkout). Builds
(or loads from the cache) the index with the project's own ``load_or_build``, then opens the
stored entry fresh and times: loading ``symbols.json``, building its lookup tables
(``warm()``), then the first and the median of repeated queries. Prints Markdown.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.store.store import IndexStore
from codeagent.tools.symbol_tool import SymbolArgs, run_symbol_query

RUNS = 7
QUESTIONS = [
    ("definition", "Symbol.free_symbols"),
    ("definition", "simplify"),
    ("callers", "simplify"),
    ("subclasses", "Expr"),
    ("importers", "sympy.core.basic"),
    ("imports", "sympy.core.add"),
    ("methods", "Add"),
]


def ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--embed", default="none")
    args = parser.parse_args()
    root = args.repo.resolve()
    settings = Settings.load(embed=args.embed)
    started = time.perf_counter()
    store, stats = load_or_build(root, settings)
    build_s = time.perf_counter() - started
    fresh = IndexStore.load(Path(stats.cache_path), store.embedder)
    started = time.perf_counter()
    graph = fresh.symbols
    load_ms = ms(started)
    started = time.perf_counter()
    graph.warm()
    warm_ms = ms(started)
    print(f"## Symbol graph: {root.name} ({stats.files_indexed} files, {stats.chunks} chunks)\n")
    print(
        f"index {'loaded' if stats.cache_hit else 'built'} in {build_s:.1f} s; "
        f"symbols.json loaded in {load_ms:.0f} ms, lookup tables built in {warm_ms:.0f} ms "
        f"({len(graph.files)} Python files)\n"
    )
    print("| question | first (ms) | median of next (ms) | items |")
    print("|---|---|---|---|")
    for operation, name in QUESTIONS:
        query = SymbolArgs(operation=operation, name=name)  # type: ignore[arg-type]
        started = time.perf_counter()
        result = run_symbol_query(graph, query, root)
        first = ms(started)
        runs = []
        for _ in range(RUNS):
            started = time.perf_counter()
            run_symbol_query(graph, query, root)
            runs.append(ms(started))
        print(
            f"| {operation} {name} | {first:.1f} | {statistics.median(runs):.1f} | "
            f"{len(result.items)} |"
        )


if __name__ == "__main__":
    main()
