"""The agent's typed state and the values it carries between nodes.

Nodes return partial updates of :class:`AgentState`; ``notices`` and ``timings`` are merged
by reducers so several nodes can add to them. The route and its fallback are
:mod:`codeagent.route`'s, a source :mod:`codeagent.result`'s. Only light
imports here (pydantic, typing).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from codeagent.result import Source
from codeagent.route import Fallback, RouteDecision

__all__ = ["AgentState", "Turn"]


class Turn(TypedDict):
    """One past question and its answer, as a follow-up question sees it."""

    question: str
    answer: str


def merge_timings(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    """Reducer: add the seconds of the same stage (``ast`` then ``rag`` both count as retrieve)."""
    merged = dict(left)
    for key, value in right.items():
        merged[key] = merged.get(key, 0.0) + value
    return merged


class AgentState(TypedDict, total=False):
    question: str  # already sanitised and capped
    history: list[Turn]  # already sanitised and capped
    route: RouteDecision
    fallback: Fallback | None
    tool_result: Any  # the ToolResult of the tool that answered
    sources: list[Source]
    answer: str
    unverified: list[str]  # citations in the answer that do not exist in the repository
    across: bool  # asked of several repositories: the across step retrieves
    states: dict[str, str | None]  # asked of several: the state each searched one answered from
    notices: Annotated[list[str], operator.add]
    timings: Annotated[dict[str, float], merge_timings]
