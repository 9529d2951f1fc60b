"""A references question ("who calls NAME") on a large repository, in-process, after warm.

    PYTHONPATH=src python bench/bench_callers_scale.py REPO [--names get send run close]

Parses every tracked Python file of REPO, counts the chunks the index would make of them
(:func:`codeagent.index.chunking.chunk_file`), builds the symbol graph
(``SymbolGraph.build``), reloads it from its records as a server does, ``warm()``s its tables,
then asks ``who calls NAME`` through the symbol tool (``run_symbol_query``, operation
``callers``: the sites, each resolved or by name, the resolved first) for each name twice: the
first time (its sites' targets resolved then) and again (cached), in milliseconds. Run it under
the heavy-job lock.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import time
from pathlib import Path

from codeagent.index.chunking import chunk_file
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CALL_FIELDS
from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--names", nargs="+", default=["get", "send", "run", "close"])
    args = parser.parse_args()
    root = args.repo.resolve()
    listed = subprocess.run(
        ["git", "ls-files", "-z", "*.py"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split("\0")[:-1]  # -z: names as they are (not quoted), spaces kept
    trees, chunks = {}, 0
    for path in listed:
        try:
            text = (root / path).read_text(encoding="utf-8")
            trees[path] = tree = ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        chunks += len(chunk_file(path, text, tree))
    started = time.perf_counter()
    graph = SymbolGraph(SymbolGraph.build(trees, root).records())
    graph.warm()
    sites = sum(len(flat) for flat in graph.calls.values()) // CALL_FIELDS
    print(
        f"{len(trees)} files, {chunks} chunks, {sites} call sites; "
        f"graph built and warmed in {time.perf_counter() - started:.1f} s"
    )
    for name in args.names:
        for when in ("first", "again"):
            started = time.perf_counter()
            try:
                items = run_symbol_query(graph, SymbolArgs(operation="callers", name=name)).items
            except SymbolToolError:
                items = []
            ms = (time.perf_counter() - started) * 1000
            print(f"who calls {name} ({when}): {ms:.1f} ms, {len(items)} sites")


if __name__ == "__main__":
    main()
