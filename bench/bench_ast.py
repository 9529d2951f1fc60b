"""AST tool speed on the largest standard-library module: cold (first parse) vs warm (cache hit).

Usage: ``python bench/bench_ast.py [FILE.py]`` (default: the largest top-level stdlib module
by lines). Prints a Markdown section: milliseconds per query, median of several runs.
"""

from __future__ import annotations

import ast
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from codeagent.tools.ast_tool import run_ast_query
from codeagent.tools.ast_tool import source as ast_source
from codeagent.tools.ast_tool.models import ClassInfo
from codeagent.tools.ast_tool.resolve import _LIST_TTL_S, relative_path, repo_files

RUNS = 7


def largest_stdlib_module() -> Path:
    stdlib = Path(os.path.dirname(json.__file__)).parent
    sizes = {}
    for path in stdlib.glob("*.py"):
        with path.open("rb") as handle:
            sizes[path] = sum(1 for _ in handle)
    return max(sizes, key=lambda p: (sizes[p], p.name))


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def parse_without_gc(text: str) -> None:
    """``ast.parse`` as the tool runs it: with the cyclic garbage collector paused."""
    gc.disable()
    try:
        ast.parse(text)
    finally:
        gc.enable()


def measure(query: Callable[[], object], text: str) -> tuple[float, float, float]:
    """Median ms of: a cold query, the same minus an ``ast.parse`` timed just before it
    (the overhead above the parse floor, robust to a busy machine), a warm query."""
    cold, overhead, warm = [], [], []
    for _ in range(RUNS):
        parse = timed(lambda: parse_without_gc(text))
        ast_source.clear_cache()
        cold.append(timed(query))
        overhead.append(cold[-1] - parse)
        warm.append(timed(query))
    return statistics.median(cold), statistics.median(overhead), statistics.median(warm)


def main(argv: list[str]) -> int:
    path = Path(argv[0]).resolve() if argv else largest_stdlib_module()
    root, name = path.parent, path.name
    lines = len(path.read_bytes().splitlines())
    text = path.read_text(encoding="utf-8", errors="replace")

    classes = run_ast_query(root, name, "classes").items
    biggest = max(
        (c for c in classes if isinstance(c, ClassInfo)),
        key=lambda c: len(c.methods),
        default=None,
    )
    cls = biggest.name if biggest else None
    method = f"{cls}.{biggest.methods[0].name}" if biggest and biggest.methods else None
    queries: list[tuple[str, str | None]] = [
        ("functions", None),
        ("classes", None),
        ("methods", cls),
        ("imports", None),
        ("variables", None),
        ("decorators", None),
        ("calls", "isinstance"),
        ("definition", method),
        ("outline", None),
    ]

    version = sys.version.split()[0]
    print(f"File: `{name}` from the standard library, {lines:,} lines; Python {version}.")
    print(f"Median of {RUNS} runs; cold = parse cache cleared before each query.\n")
    print("| operation | symbol | items | cold ms | cold minus ast.parse ms | warm ms |")
    print("|---|---|---:|---:|---:|---:|")
    for operation, symbol in queries:
        if operation in {"methods", "definition"} and symbol is None:
            continue

        def query(operation: str = operation, symbol: str | None = symbol) -> object:
            return run_ast_query(root, name, operation, symbol)  # type: ignore[arg-type]

        items = len(run_ast_query(root, name, operation, symbol).items)  # type: ignore[arg-type]
        cold, overhead, warm = measure(query, text)
        print(
            f"| {operation} | {symbol or ''} | {items} | {cold:.1f} | {overhead:.1f} | {warm:.2f} |"
        )

    parse = statistics.median(timed(lambda: parse_without_gc(text)) for _ in range(RUNS))
    module = path.stem
    resolve_cold = statistics.median(timed(lambda: repo_files(root, fresh=True)) for _ in range(3))
    resolve_warm = statistics.median(
        timed(lambda: relative_path(root, module)) for _ in range(RUNS)
    )
    print(
        f"\n`ast.parse` alone: {parse:.1f} ms (garbage collector paused, as the tool parses): "
        "the floor of a cold query."
    )
    print(
        f"Resolving `{module}` by module name among {len(repo_files(root)):,} files: "
        f"{resolve_cold:.0f} ms to list the files (once per {_LIST_TTL_S:.0f} s), "
        f"{resolve_warm:.2f} ms per lookup with the list cached."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
