"""The graph's edge functions: pure functions of the state naming the next node."""

from __future__ import annotations

from codeagent.agent.state import AgentState

ANSWER = "answer"


def after_route(state: AgentState) -> str:
    """The tool the route chose (its node has the tool's name)."""
    return state["route"].tool


def after_tool(state: AgentState, *, tool: str, fallback: str) -> str:
    """Answer from ``tool``'s result, or go to ``fallback`` when ``tool`` failed."""
    failed = state.get("fallback")
    return fallback if failed is not None and failed.from_ == tool else ANSWER
