"""The AST tool's answer when a file name is ambiguous: the candidates, and a question."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codeagent.display import safe_name
from codeagent.result import Source


@dataclass(frozen=True)
class CandidatesResult:
    """``name`` matches several files and no single one is the project's source."""

    name: str
    candidates: list[str]

    def render(self) -> str:
        lines = [f"{self.name} matches {len(self.candidates)} files in the repository:"]
        lines += [f"  {safe_name(path)}" for path in self.candidates]
        lines.append("Which one do you mean? Ask again with its path.")
        return "\n".join(lines)

    def context(self) -> str:
        return f"Files named {self.name}:\n\n{self.render()}"

    def citations(self) -> list[Source]:
        return []

    def to_json(self) -> dict[str, Any]:
        return {"file": self.name, "candidates": list(self.candidates)}

    def names(self) -> list[str]:
        return list(self.candidates)
