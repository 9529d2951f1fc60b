"""What ``Workspace.ask_stream()`` yields, in order: a ``route`` event (and another when a
tool fails and its fallback takes over), ``notice`` events as things happen, ``token`` events
carrying the answer text (their texts join to the answer), a ``sources`` event, and the
``result`` event, always last (an ``error`` event instead when the answer stops: the server's).

    for event in workspace.ask_stream("how does retry work?"):
        if event.type == "token":
            print(event.text, end="")

Every event is a pydantic model with ``type`` and ``to_json()`` (one JSON object per event,
e.g. a server-sent event; :mod:`codeagent.wire` writes and reads them back). A front end
reads fields only: the route event carries the line to say about it (``line``, None: nothing
to say) and the tool's ``label``; a fallback is a typed :class:`~codeagent.route.Fallback`; a
notice has a ``kind``; the deterministic answer's
token carries the ``terms`` its lines were chosen by (to highlight).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from codeagent.result import AskResult, Source
from codeagent.route import Fallback, RouteDecision


class _Event(BaseModel):
    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class RouteEvent(_Event):
    type: Literal["route"] = "route"
    route: RouteDecision
    fallback: Fallback | None = None
    line: str | None = None  # what a front end says about the route (None: nothing)
    label: str = ""  # what the routed tool is, in a few words ("search")

    def to_json(self) -> dict[str, Any]:
        fallback = self.fallback.to_json() if self.fallback is not None else None
        route = self.route.to_json()
        return {"type": self.type, "route": route, "fallback": fallback, "line": self.line,
                "label": self.label}  # fmt: skip


# index: about the index (built, updated, catching up); question: the question was changed
# (cut, control tokens removed); route: said by the route; llm: the chat model failed.
NoticeKind = Literal["index", "question", "route", "llm"]


class NoticeEvent(_Event):
    type: Literal["notice"] = "notice"
    kind: NoticeKind
    text: str


class SourcesEvent(_Event):
    type: Literal["sources"] = "sources"
    sources: list[Source]


class TokenEvent(_Event):
    type: Literal["token"] = "token"
    text: str
    terms: list[str] = []  # words to highlight in the text's numbered code lines


class ResultEvent(_Event):
    type: Literal["result"] = "result"
    result: AskResult

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "result": self.result.to_json()}


# failed: the answer could not be given (one line says why); internal: a bug (logged in full
# by the server); timeout: the answer made no progress for the server's idle timeout.
ErrorKind = Literal["failed", "internal", "timeout"]


class ErrorEvent(_Event):
    """The answer stopped: the last event, instead of a result."""

    type: Literal["error"] = "error"
    kind: ErrorKind = "failed"
    message: str


Event = RouteEvent | NoticeEvent | SourcesEvent | TokenEvent | ResultEvent | ErrorEvent

__all__ = [
    "ErrorEvent",
    "ErrorKind",
    "Event",
    "NoticeEvent",
    "NoticeKind",
    "ResultEvent",
    "RouteEvent",
    "SourcesEvent",
    "TokenEvent",
]
