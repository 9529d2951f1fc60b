"""The LLM router: structured output, the rule router taking over when the LLM fails,
and the check every decision passes (an ast route needs a resolvable Python file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.router import route_question, validate
from codeagent.agent.state import RouteDecision


def decision(**fields: Any) -> str:
    base = {"tool": "rag", "file": None, "operation": None, "symbol": None, "reason": "r"}
    return json.dumps({**base, **fields})


def route(question: str, root: Path, model: Any, timeout: float = 5.0) -> RouteDecision:
    return route_question(question, [], root, model, timeout=timeout)


def test_the_llm_decides_an_ast_route_and_the_file_is_normalised(
    sample_repo: Path, make_model: Any
) -> None:
    model = make_model(
        decision(tool="ast", file="models.py", operation="methods", symbol="`Cart`", reason="x")
    )
    got = route("what can a cart do?", sample_repo, model)
    assert (got.tool, got.file, got.operation, got.symbol) == (
        "ast",
        "shop/models.py",
        "methods",
        "Cart",
    )
    assert got.decided_by == "llm"
    # the question reached the model inside the router prompt
    assert "what can a cart do?" in str(model.seen[0][-1].content)


def test_the_llm_decides_rag(sample_repo: Path, make_model: Any) -> None:
    got = route("list the classes in shop/models.py", sample_repo, make_model(decision()))
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
    sample_repo: Path, make_model: Any, reply: str
) -> None:
    got = route("list the classes in shop/models.py", sample_repo, make_model(reply))
    assert (got.tool, got.operation, got.file) == ("ast", "classes", "shop/models.py")
    assert got.decided_by == "rules"
    assert got.reason.startswith("LLM router failed:")


def test_a_model_without_structured_output_falls_back_to_the_rules(sample_repo: Path) -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    got = route("how is tax applied?", sample_repo, FakeListChatModel(responses=["x"]))
    assert (got.tool, got.decided_by) == ("rag", "rules")
    assert "LLM router failed" in got.reason


def test_a_router_timeout_falls_back_to_the_rules(sample_repo: Path, make_model: Any) -> None:
    model = make_model(decision(tool="rag"), router_delay=2.0)
    got = route("outline of shop/payments.py", sample_repo, model, timeout=0.2)
    assert (got.tool, got.operation, got.decided_by) == ("ast", "outline", "rules")
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
    sample_repo: Path, make_model: Any, fields: dict[str, Any], why: str
) -> None:
    got = route("anything", sample_repo, make_model(decision(tool="ast", **fields)))
    assert got.tool == "rag"
    assert why in got.reason
    assert "the LLM chose ast" in got.reason


def test_validate_clears_the_ast_fields_of_a_rag_route(sample_repo: Path) -> None:
    got = validate(
        RouteDecision(tool="rag", file="shop/models.py", operation="classes"), sample_repo
    )
    assert (got.file, got.operation, got.symbol) == (None, None, None)


def test_without_a_model_the_rules_decide(sample_repo: Path) -> None:
    got = route("list the classes in shop/models.py", sample_repo, None)
    assert (got.tool, got.decided_by) == ("ast", "rules")
