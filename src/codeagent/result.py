"""What one question produced: :class:`AskResult` (``to_json()`` is ``ask --json``) and the
:class:`Source` locations listed under its answer."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from codeagent.route import Fallback, RouteDecision


class Source(BaseModel):
    """One source listed under an answer: a verified location in the repository (``repo``:
    which one, when the answer searched several; in JSON only then)."""

    path: str
    start_line: int
    end_line: int
    score: float | None = None
    repo: str | None = None

    @model_serializer(mode="wrap")
    def _json(self, dump: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = dump(self)
        if data.get("repo") is None:
            data.pop("repo", None)
        return data

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def to_json(self) -> dict[str, Any]:
        return dict(self.model_dump(mode="json"))


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
    # Asked of several repositories: the repository that answered (a named file's), or the
    # state each searched repository answered from; the JSON then says its notices too.
    repo: str | None = None
    states: dict[str, str | None] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``codeagent ask --json`` object (with ``repo``, ``states``, ``notices`` and
        ``unverified`` when several repositories were asked)."""
        found: dict[str, Any] = {
            "question": self.question,
            "route": self.route.to_json(),
            "fallback": self.fallback.to_json() if self.fallback is not None else None,
            "answer": self.answer,
            "sources": [s.model_dump() for s in self.sources],
            "tool_result": self.tool_result,
            "timings": self.timings,
            "state": self.state,
        }
        if self.states is not None:
            found.update(notices=self.notices, unverified=self.unverified, states=self.states)
        if self.repo is not None:
            found["repo"] = self.repo
        return found
