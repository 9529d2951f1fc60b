"""The graph's edge functions: pure functions of the state naming the next node."""

from __future__ import annotations

from typing import Literal

from codeagent.agent.state import AgentState


def after_route(state: AgentState) -> Literal["ast", "rag"]:
    """The tool the route chose."""
    return "ast" if state["route"].tool == "ast" else "rag"


def after_ast(state: AgentState) -> Literal["answer", "rag"]:
    """Answer from the AST result, or fall back to search when the AST tool failed."""
    return "rag" if state.get("fallback") else "answer"
