"""Which Python call sites a "who calls" answer could do without their targets.

    PYTHONPATH=src python bench/bench_call_names.py REPO

Parses every tracked Python file of REPO, builds the symbol graph, and counts the call sites
whose called name no definition of the repository carries (``len``, ``append`` where no class
defines one, ``dumps``), then asks ``who calls NAME`` (through ``callers_result``, as the
symbol tool does) for each such name and counts the sites the answer lists as resolved: calls
tied to a name outside the repository (``json.dumps``, ``sys.exit``, ``len``), which only a
target written at index time gives. Those sites cannot be left without a target (every site
"by name") without changing an answer.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench_call_targets import parsed_trees

from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CALL_FIELDS
from codeagent.tools.symbol_tool.callers import callers_result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    args = parser.parse_args()
    root = args.repo.resolve()
    trees = parsed_trees(root)
    graph = SymbolGraph.build(trees, root)
    defined = {d.name for d in graph._defs if d.kind != "module"}
    sites = sum(len(flat) // CALL_FIELDS for flat in graph.calls.values())
    undefined = sorted(name for name in graph.calls if name not in defined)
    undefined_sites = sum(len(graph.calls[name]) // CALL_FIELDS for name in undefined)
    answered, listed_resolved, examples = 0, 0, []
    for name in undefined:
        resolved = [i for i in callers_result(graph, name, None).items if i.resolved]
        if resolved:
            answered += 1
            listed_resolved += len(resolved)
            if len(examples) < 4:
                examples.append(f"{name} ({resolved[0].target})")
    print(
        f"{len(trees)} files, {sites} call sites; of names no definition carries: "
        f"{undefined_sites} ({undefined_sites / max(sites, 1):.0%}), {len(undefined)} names; "
        f"their who-calls answers list {listed_resolved} of those sites as resolved "
        f"({answered} names), e.g. {', '.join(examples)}"
    )


if __name__ == "__main__":
    main()
