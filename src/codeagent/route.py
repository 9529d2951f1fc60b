"""The route a question took: which tool, with which arguments, who decided and why
(:class:`RouteDecision`), and the fallback taken when a tool could not answer (:class:`Fallback`).

Carried by the agent's state, the events a front end reads and the result of a question; JSON
through ``to_json()``. Only light imports (pydantic, typing).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DecidedBy", "Fallback", "RouteDecision"]

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
