"""The graph's edge functions: pure functions of the state naming the next node."""

from __future__ import annotations

from typing import Literal

from codeagent.agent.state import AgentState


def after_route(state: AgentState) -> Literal["ast", "symbols", "clarify", "rag"]:
    """The tool the route chose."""
    tool = state["route"].tool
    return tool if tool in ("ast", "symbols", "clarify") else "rag"


def after_ast(state: AgentState) -> Literal["answer", "rag"]:
    """Answer from the structural result, or fall back to search when the tool failed."""
    return "rag" if state.get("fallback") else "answer"
