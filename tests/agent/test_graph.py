"""The graph's shape, its pure edge functions, and the order of nodes on each route."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.context import RunContext
from codeagent.agent.edges import after_route, after_tool
from codeagent.agent.graph import build_graph
from codeagent.config import Settings
from codeagent.index.lazy import LazyIndex
from codeagent.route import Fallback, RouteDecision
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import default_registry


def test_after_route_follows_the_route() -> None:
    assert after_route({"route": RouteDecision(tool="ast", args={"file": "a.py"})}) == "ast"
    assert after_route({"route": RouteDecision(tool="rag")}) == "rag"


def test_after_tool_falls_back_only_when_that_tool_failed() -> None:
    edge = {"tool": "ast", "fallback": "rag"}
    assert after_tool({"fallback": None}, **edge) == "answer"
    assert after_tool({}, **edge) == "answer"
    failed = Fallback.model_validate({"from": "ast", "to": "rag", "reason": "symbol not found"})
    assert after_tool({"fallback": failed}, **edge) == "rag"
    # a fallback recorded by an earlier tool does not send this one on
    other = Fallback.model_validate({"from": "other", "to": "ast", "reason": "x"})
    assert after_tool({"fallback": other}, **edge) == "answer"


class CountingIndex(LazyIndex):
    def __init__(self, root: Path, settings: Settings, store: Any) -> None:
        super().__init__(root, settings, store=None)
        self.fake, self.loads = store, 0

    def get(self) -> Any:
        self.loads += 1
        return self.fake


def test_graph_shape() -> None:
    graph = build_graph(default_registry()).get_graph()
    nodes = {"__start__", "route", "symbols", "ast", "rag", "across", "answer", "__end__"}
    assert set(graph.nodes) == nodes
    edges = {(e.source, e.target, e.conditional) for e in graph.edges}
    assert edges == {
        ("__start__", "route", False),
        ("route", "symbols", True),
        ("symbols", "answer", True),
        ("symbols", "rag", True),
        ("route", "ast", True),
        ("route", "rag", True),
        ("ast", "answer", True),
        ("ast", "rag", True),
        ("rag", "answer", False),
        ("route", "across", True),  # a question asked of several repositories
        ("across", "answer", False),
        ("answer", "__end__", False),
    }


@pytest.mark.parametrize(
    ("question", "order", "loads"),
    [
        ("list the classes in shop/models.py", ["route", "ast", "answer"], 0),
        ("how are payments retried?", ["route", "rag", "answer"], 1),
        ("methods of class Basket in shop/models.py", ["route", "ast", "rag", "answer"], 1),
        ("list the functions in shop/broken.py", ["route", "ast", "rag", "answer"], 1),
    ],
)
def test_node_order_per_route(
    sample_repo: Path,
    settings: Settings,
    fake_store: Any,
    question: str,
    order: list[str],
    loads: int,
) -> None:
    registry = default_registry()
    index = CountingIndex(sample_repo, settings, fake_store)
    run = RunContext(ToolContext(sample_repo, settings, index, question), registry)
    graph = build_graph(registry)
    updates = list(
        graph.stream({"question": question, "history": []}, context=run, stream_mode="updates")
    )
    assert [next(iter(u)) for u in updates] == order
    assert index.loads == loads  # the index is loaded only when search runs
