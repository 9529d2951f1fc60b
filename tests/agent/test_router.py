"""The LLM router: structured output, the rule router taking over when the LLM fails,
and the check every decision passes (an ast route needs a resolvable Python file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.router import route_question, validate
from codeagent.route import RouteDecision
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import default_registry


def decision(**fields: Any) -> str:
    base = {"tool": "rag", "file": None, "operation": None, "symbol": None, "reason": "r"}
    return json.dumps({**base, **fields})


@pytest.fixture
def ctx(sample_repo: Path, tool_context: Any) -> ToolContext:
    return tool_context(sample_repo)


def route(question: str, ctx: ToolContext, model: Any, timeout: float = 5.0) -> RouteDecision:
    return route_question(question, [], ctx, default_registry(), model, timeout=timeout)


def fields(got: RouteDecision, *names: str) -> tuple[Any, ...]:
    return tuple(getattr(got, n) if n in ("tool", "decided_by") else got.args.get(n) for n in names)


def test_the_llm_decides_an_ast_route_and_the_file_is_normalised(
    ctx: ToolContext, make_model: Any
) -> None:
    model = make_model(
        decision(tool="ast", file="models.py", operation="methods", symbol="`Cart`", reason="x")
    )
    got = route("what can a cart do?", ctx, model)
    assert fields(got, "tool", "file", "operation", "symbol") == (
        "ast",
        "shop/models.py",
        "methods",
        "Cart",
    )
    assert got.decided_by == "llm"
    # the question reached the model inside the router prompt
    assert "what can a cart do?" in str(model.seen[0][-1].content)


def test_the_llm_decides_rag(ctx: ToolContext, make_model: Any) -> None:
    got = route("list the classes in shop/models.py", ctx, make_model(decision()))
    assert (got.tool, got.decided_by) == ("rag", "llm")


@pytest.mark.parametrize(
    "reply",
    [
        "this is not JSON at all",
        json.dumps({"tool": "grep"}),  # not a tool
        decision(tool="ast", file="shop/models.py", operation="everything"),  # not an operation
    ],
)
def test_invalid_router_output_falls_back_to_the_rules(
    ctx: ToolContext, make_model: Any, reply: str
) -> None:
    got = route("list the classes in shop/models.py", ctx, make_model(reply))
    assert fields(got, "tool", "operation", "file") == ("ast", "classes", "shop/models.py")
    assert got.decided_by == "rules"
    assert got.reason.startswith("LLM router failed:")


def test_a_model_without_structured_output_falls_back_to_the_rules(ctx: ToolContext) -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    got = route("how is tax applied?", ctx, FakeListChatModel(responses=["x"]))
    assert (got.tool, got.decided_by) == ("rag", "rules")
    assert "LLM router failed" in got.reason


def test_a_router_timeout_falls_back_to_the_rules(ctx: ToolContext, make_model: Any) -> None:
    model = make_model(decision(tool="rag"), router_delay=2.0)
    got = route("outline of shop/payments.py", ctx, model, timeout=0.2)
    assert fields(got, "tool", "operation", "decided_by") == ("ast", "outline", "rules")
    assert "router_timeout" in got.reason


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"file": "shop/nowhere.py", "operation": "classes"}, "nowhere.py"),
        ({"file": "README.md", "operation": "outline"}, "not a Python file"),
        ({"file": None, "operation": "classes"}, "names no file"),
        ({"file": "shop/models.py", "operation": None}, "no operation"),
        ({"file": "shop/models.py", "operation": "calls", "symbol": ""}, "needs a symbol"),
    ],
)
def test_an_ast_route_without_a_usable_file_goes_to_rag(
    ctx: ToolContext, make_model: Any, fields: dict[str, Any], why: str
) -> None:
    got = route("anything", ctx, make_model(decision(tool="ast", **fields)))
    assert got.tool == "rag"
    assert why in got.reason
    assert "the LLM chose ast" in got.reason
    assert got.decided_by == "fallback"


def test_validate_clears_the_ast_fields_of_a_rag_route(ctx: ToolContext) -> None:
    decision = RouteDecision(tool="rag", args={"file": "shop/models.py", "operation": "classes"})
    got = validate(decision, ctx, default_registry())
    assert got.args == {}


def test_without_a_model_the_rules_decide(ctx: ToolContext) -> None:
    got = route("list the classes in shop/models.py", ctx, None)
    assert (got.tool, got.decided_by) == ("ast", "rules")
