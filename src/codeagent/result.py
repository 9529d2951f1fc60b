"""What one question produced: :class:`AskResult` (``to_json()`` is ``ask --json``) and the
:class:`Source` locations listed under its answer."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from codeagent.route import Fallback, RouteDecision


class Source(BaseModel):
    """One source listed under an answer: a verified location in the repository."""

    path: str
    start_line: int
    end_line: int
    score: float | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


class AskResult(BaseModel):
    question: str
    route: RouteDecision
    fallback: Fallback | None = None
    answer: str
    sources: list[Source] = Field(default_factory=list)
    tool_result: dict[str, Any] | None = None
    timings: dict[str, float] = Field(default_factory=dict)
    notices: list[str] = Field(default_factory=list)
    unverified: list[str] = Field(default_factory=list)
    # The state hash of the index the answer read (see codeagent.repo.state); None when it
    # read none: an exact answer from one file's syntax tree, read from disk as it is now.
    state: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``codeagent ask --json`` object."""
        return {
            "question": self.question,
            "route": self.route.to_json(),
            "fallback": self.fallback.to_json() if self.fallback is not None else None,
            "answer": self.answer,
            "sources": [s.model_dump() for s in self.sources],
            "tool_result": self.tool_result,
            "timings": self.timings,
            "state": self.state,
        }
