"""What ``Workspace.ask_stream()`` yields, in order: a ``route`` event (and another when a
tool fails and its fallback takes over), ``notice`` events as things happen, ``token`` events
carrying the answer text (their texts join to the answer), a ``sources`` event, and the
``result`` event, always last.

    for event in workspace.ask_stream("how does retry work?"):
        if event.type == "token":
            print(event.text, end="")

Every event is a pydantic model with ``type`` and ``to_json()`` (one JSON object per event,
e.g. a server-sent event).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from codeagent.agent.state import RouteDecision
from codeagent.result import AskResult
from codeagent.tools.base import Source


class _Event(BaseModel):
    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class RouteEvent(_Event):
    type: Literal["route"] = "route"
    route: RouteDecision
    fallback: dict[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "route": self.route.to_json(), "fallback": self.fallback}


class NoticeEvent(_Event):
    type: Literal["notice"] = "notice"
    text: str


class SourcesEvent(_Event):
    type: Literal["sources"] = "sources"
    sources: list[Source]


class TokenEvent(_Event):
    type: Literal["token"] = "token"
    text: str


class ResultEvent(_Event):
    type: Literal["result"] = "result"
    result: AskResult

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "result": self.result.to_json()}


Event = RouteEvent | NoticeEvent | SourcesEvent | TokenEvent | ResultEvent

__all__ = ["Event", "NoticeEvent", "ResultEvent", "RouteEvent", "SourcesEvent", "TokenEvent"]
