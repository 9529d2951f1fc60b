"""An answer's events on the wire: one JSON object per event, written by the server
(:func:`encode`, :func:`sse`, :func:`ndjson`) and read back by a client (:func:`decode`).

The events are :mod:`codeagent.events` (``route``, ``notice``, ``token``, ``sources``, then
``result`` or ``error``, always last); their ``to_json()`` is the object on the wire. A
client reads it back as the same event: :data:`FIELDS` names each event's fields, with the
value a field takes when the JSON leaves it out, and :func:`decode` builds an object with
those attributes (a result's sources as :class:`WireSource`), which is what a printer of
in-process events reads. tests/core/test_wire.py holds :data:`FIELDS` to the typed events.

Standard library only, and its cheap part: ``codeagent ask`` through a running server
imports this and nothing heavy (tests/server/test_lean_client.py).
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

# Each event's fields (besides ``type``) and their values when the JSON leaves them out.
FIELDS: dict[str, dict[str, Any]] = {
    "route": {"route": None, "fallback": None, "line": None, "label": ""},
    "notice": {"kind": "", "text": ""},
    "sources": {"sources": []},
    "token": {"text": "", "terms": []},
    "result": {"result": None},
    "error": {"kind": "failed", "message": ""},
}
ERROR_KINDS = ("failed", "internal", "timeout")  # as codeagent.events.ErrorKind


def encode(event: Any) -> dict[str, Any]:
    """The JSON object of a typed event (its ``to_json()``)."""
    data: dict[str, Any] = event.to_json()
    return data


def ndjson(event: Any) -> str:
    """The event as one line of newline-delimited JSON."""
    return json.dumps(encode(event)) + "\n"


def sse(event: Any) -> dict[str, str]:
    """The event as a server-sent event (its type names it)."""
    data = encode(event)
    return {"event": data["type"], "data": json.dumps(data)}


class WireSource:
    """A source read back: ``path``, ``start_line``, ``end_line``, ``score`` (and ``repo``
    when the answer came from several repositories)."""

    __slots__ = ("end_line", "path", "repo", "score", "start_line")

    def __init__(self, data: dict[str, Any]) -> None:
        self.path = str(data.get("path", ""))
        self.start_line = int(data.get("start_line", 0))
        self.end_line = int(data.get("end_line", 0))
        self.score = data.get("score")
        self.repo = data.get("repo")

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


class WireResult:
    """A result read back: every field of its JSON as an attribute, the sources as
    :class:`WireSource`; ``json`` is the object as it came."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.json = data
        self.sources = [WireSource(s) for s in data.get("sources", [])]


class WireEvent:
    """An event read back: ``type`` and the fields :data:`FIELDS` names for it."""

    type: str
    route: dict[str, Any] | None  # route
    fallback: dict[str, Any] | None
    line: str | None
    label: str
    kind: str  # notice, error
    text: str  # notice, token
    terms: list[str]  # token
    sources: list[WireSource]  # sources
    result: WireResult  # result
    message: str  # error

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.type = kind
        for name, default in FIELDS[kind].items():
            value = data.get(name, default)
            if name == "sources":
                value = [WireSource(s) for s in value]
            elif name == "result":
                value = WireResult(value or {})
            elif isinstance(value, list):
                value = list(value)
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"WireEvent({self.type!r})"


def decode(data: dict[str, Any]) -> WireEvent:
    """The event a JSON object of the wire is; ValueError for an object that is none."""
    kind = data.get("type") if isinstance(data, dict) else None
    if kind not in FIELDS:
        raise ValueError(f"not an answer event: {str(data)[:80]}")
    return WireEvent(str(kind), data)


__all__ = ["FIELDS", "WireEvent", "WireResult", "WireSource", "decode", "encode", "ndjson", "sse"]
