"""The graph's edge functions: pure functions of the state naming the next node."""

from __future__ import annotations

from codeagent.agent.state import AgentState

ANSWER = "answer"
ACROSS = "across"  # the retrieval step of a question asked of several repositories


def after_route(state: AgentState) -> str:
    """The tool the route chose (its node has the tool's name); the step that searches
    several repositories when the question was asked of several."""
    return ACROSS if state.get("across") else state["route"].tool


def after_tool(state: AgentState, *, tool: str, fallback: str) -> str:
    """Answer from ``tool``'s result, or go to ``fallback`` when ``tool`` failed."""
    failed = state.get("fallback")
    return fallback if failed is not None and failed.from_ == tool else ANSWER
