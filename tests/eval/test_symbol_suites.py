"""The checked-in symbol suites: they load, and their standard-library questions (truth from
pyclbr and __subclasses__, computed by eval/eval_symbols.py) are answered exactly by the rule
router and the symbol tool."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

import pytest

from codeagent.agent.rules import route_by_rules
from codeagent.config import Settings
from codeagent.eval.repos import stdlib_dir
from codeagent.eval.suite import SuiteItem, load_suite
from codeagent.index.chunking import parse_python
from codeagent.index.lazy import LazyIndex
from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import default_registry
from codeagent.tools.symbol_tool import SymbolArgs, run_symbol_query

EVAL_DIR = Path(__file__).resolve().parents[2] / "eval"
SYMBOLS = load_suite(EVAL_DIR / "symbols.jsonl")
ROUTING = load_suite(EVAL_DIR / "repo-wide-routing.jsonl")


def test_the_suites_are_big_enough_and_sourced() -> None:
    assert len(SYMBOLS) >= 60
    assert len(ROUTING) >= 40
    assert all(item.source and item.expected_route for item in SYMBOLS + ROUTING)
    assert all(item.expected_symbols for item in SYMBOLS)


@cache
def _graph(package: str) -> SymbolGraph:
    root = stdlib_dir() / package
    trees = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = parse_python(rel, path.read_text(encoding="utf-8"))
        if tree is not None:
            trees[rel] = tree
    return SymbolGraph.build(trees, root=root)


def _unjudged(name: str, operation: str | None) -> bool:
    """Answers the truth could not see: test packages, modules frozen into the interpreter
    (pyclbr); for subclasses, classes that importing does not reach (another platform's
    module, a class under ``if __name__ == "__main__"`` or deleted after use)."""
    module = name.rsplit(".", 1)[0]
    if ".test." in module or module.startswith("importlib."):
        return True
    if operation != "subclasses":
        return False
    for cut in range(name.count("."), 0, -1):
        try:
            target: object = importlib.import_module(name.rsplit(".", cut)[0])
        except ImportError:
            continue
        for attr in name.split(".")[-cut:]:
            target = getattr(target, attr, None)
        return target is None
    return True


STDLIB = [i for i in SYMBOLS if i.repo.startswith("stdlib:")]


@pytest.mark.slow
@pytest.mark.parametrize("item", STDLIB, ids=[i.id for i in STDLIB])
def test_stdlib_symbol_questions_are_answered_exactly(item: SuiteItem) -> None:
    package = item.repo.removeprefix("stdlib:")
    graph = _graph(package)
    root = stdlib_dir() / package
    settings = Settings(llm="none", embed="none")
    decision = route_by_rules(
        item.question, ToolContext(root, settings, LazyIndex(root, settings)), default_registry()
    )
    assert decision.tool == "symbols"
    args = SymbolArgs.model_validate(decision.args)
    result = run_symbol_query(graph, args)
    # pyclbr reports no modules: a module of the same name is not compared.
    got = {f"{graph.files[i.path]['m']}.{i.name}" for i in result.items if i.kind != "module"}
    want = set(item.expected_symbols or [])
    assert want <= got
    assert all(_unjudged(name, args.operation) for name in got - want), got - want
