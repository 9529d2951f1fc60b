"""Read a workspace's event stream in tests: the result, the token texts, the notices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Collected:
    result: Any = None
    tokens: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)


def collect(workspace: Any, question: str, conversation: Any = None) -> Collected:
    got = Collected()
    for event in workspace.ask_stream(question, conversation):
        got.events.append(event)
        if event.type == "token":
            got.tokens.append(event.text)
        elif event.type == "notice":
            got.notices.append(event.text)
        elif event.type == "result":
            got.result = event.result
    return got
