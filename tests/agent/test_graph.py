"""The graph's shape, its pure edge functions, and the order of nodes on each route."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.deps import Deps
from codeagent.agent.graph import after_ast, after_route, build_graph
from codeagent.agent.state import RouteDecision
from codeagent.config import Settings


def test_after_route_follows_the_route() -> None:
    assert (
        after_route({"route": RouteDecision(tool="ast", file="a.py", operation="classes")}) == "ast"
    )
    assert after_route({"route": RouteDecision(tool="rag")}) == "rag"


def test_after_ast_falls_back_to_rag_only_when_the_tool_failed() -> None:
    assert after_ast({"fallback": None}) == "answer"
    assert after_ast({}) == "answer"
    assert after_ast({"fallback": {"from": "ast", "reason": "symbol not found"}}) == "rag"


def _deps(root: Path, settings: Settings, store: Any, loads: list[int]) -> Deps:
    def get_store() -> Any:
        loads.append(1)
        return store

    return Deps(repo_root=root, settings=settings, get_store=get_store)


def test_graph_shape(sample_repo: Path, settings: Settings, fake_store: Any) -> None:
    graph = build_graph(_deps(sample_repo, settings, fake_store, [])).get_graph()
    assert set(graph.nodes) == {
        "__start__", "route", "ast", "symbols", "clarify", "rag", "answer", "__end__"
    }  # fmt: skip
    edges = {(e.source, e.target, e.conditional) for e in graph.edges}
    assert edges == {
        ("__start__", "route", False),
        ("route", "ast", True),
        ("route", "rag", True),
        ("route", "symbols", True),
        ("route", "clarify", True),
        ("ast", "answer", True),
        ("ast", "rag", True),
        ("symbols", "answer", True),
        ("symbols", "rag", True),
        ("clarify", "answer", False),
        ("rag", "answer", False),
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
    loaded: list[int] = []
    graph = build_graph(_deps(sample_repo, settings, fake_store, loaded))
    updates = list(graph.stream({"question": question, "history": []}, stream_mode="updates"))
    assert [next(iter(u)) for u in updates] == order
    assert len(loaded) == loads  # the index is loaded only when search runs
