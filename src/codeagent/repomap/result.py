"""A repository map as it is handed out: its text, and the same as data (``--json``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MapDefinition:
    qualname: str
    kind: str
    line: int
    end_line: int
    signature: str  # the line as the map prints it, without its indent


@dataclass(frozen=True)
class MapFile:
    path: str
    kind: str  # code, tests, docs, vendored, ...
    rank: float  # PageRank (personalised towards the focus when there is one)
    definitions: list[MapDefinition] = field(default_factory=list)


@dataclass(frozen=True)
class RepoMap:
    """The map: ``text`` counts ``tokens`` tokens of ``tokenizer``, never more than ``budget``."""

    text: str
    tokens: int
    budget: int
    tokenizer: str
    files: list[MapFile]
    more: list[str]  # the (at most 200) files ranked next that did not fit, best first
    focus: list[str]
    more_count: int = 0  # how many files that could be shown did not fit
    state: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "tokens": self.tokens,
            "tokenizer": self.tokenizer,
            "state": self.state,
            "focus": self.focus,
            "files": [
                {
                    "path": f.path,
                    "kind": f.kind,
                    "rank": f.rank,
                    "definitions": [
                        {
                            "name": d.qualname,
                            "kind": d.kind,
                            "line": d.line,
                            "end_line": d.end_line,
                            "signature": d.signature,
                        }
                        for d in f.definitions
                    ],
                }
                for f in self.files
            ],
            "more": self.more,
            "more_count": self.more_count,
            "text": self.text,
        }
