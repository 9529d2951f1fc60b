"""The agent's typed state and the values it carries between nodes.

Nodes return partial updates of :class:`AgentState`; ``notices`` and ``timings`` are merged
by reducers so several nodes can add to them. Only light imports here (pydantic, typing).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from codeagent.tools.base import Source

__all__ = ["AgentState", "DecidedBy", "Fallback", "RouteDecision", "Source", "Turn"]

DecidedBy = Literal["llm", "rules", "fallback"]


class Fallback(BaseModel):
    """A tool could not answer: the question went from tool ``from`` to tool ``to`` (None:
    answered without a tool), for ``reason`` (one line). JSON: ``{"from", "to", "reason"}``."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    from_: str = Field(alias="from")
    to: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


class RouteDecision(BaseModel):
    """The route taken: the tool, its arguments (JSON data, checked by the tool), why, and
    who decided: the LLM router, the rule router, or ``fallback`` when the chosen tool's
    arguments did not hold up and the question went to the fallback tool instead."""

    model_config = ConfigDict(title="RouteDecision")

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    decided_by: DecidedBy = "rules"
    notice: str | None = None  # said with the answer (e.g. a named file does not exist)
    # The tool the question was meant for could not take it (a named file that does not
    # exist); the answer's fallback, as when a tool fails while running
    fallback: Fallback | None = None

    def to_json(self) -> dict[str, Any]:
        """``tool``, the tool's arguments as top-level keys, ``decided_by``, ``reason``."""
        return {
            "tool": self.tool,
            **self.args,
            "decided_by": self.decided_by,
            "reason": self.reason,
        }


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
