"""A file whose expressions nest too deeply for the default recursion limit still gets its
symbols, under its own module name, with its package's relative imports resolved (the deeper
retry in ``symbols/graph.py``). Truth: the file as written here."""

from __future__ import annotations

import ast
import sys

import pytest

from codeagent.symbols.extract import extract
from codeagent.symbols.graph import SymbolGraph

DEEP_SUM = "+".join(["1"] * 2000)  # parses, but walking it needs more than 1000 frames
INIT = f"from .sub import helper\n\n\ndef total():\n    return helper({DEEP_SUM})\n"
DEEP = f"def f():\n    return g({DEEP_SUM})\n\n\nclass K:\n    pass\n"


def test_the_fixture_is_too_deep_for_the_default_limit() -> None:
    assert sys.getrecursionlimit() <= 1000 + 100
    with pytest.raises(RecursionError):
        extract(ast.parse(DEEP), "pkg.deep", False)


def test_a_deeply_nested_file_keeps_its_symbols_and_module_name() -> None:
    trees = {"pkg/__init__.py": ast.parse(INIT), "pkg/deep.py": ast.parse(DEEP),
             "pkg/sub.py": ast.parse("def helper(x):\n    return x\n")}  # fmt: skip
    graph = SymbolGraph.build(trees)
    assert [(d.full_name, d.line) for d in graph.definitions("K")] == [("pkg.deep.K", 5)]
    assert [(c.path, c.line, c.scope) for c in graph.callers("g")] == [("pkg/deep.py", 2, "f")]
    imports = graph.imports_of("pkg/__init__.py")
    assert [(i.module, i.name, i.line) for i in imports] == [("pkg.sub", "helper", 1)]
    assert [(d.full_name, d.line) for d in graph.definitions("total")] == [("pkg.total", 4)]
