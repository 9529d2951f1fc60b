"""The answer when a file name matches several files and none is clearly the source file:
the candidates, and the question back to the user."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Clarification(BaseModel):
    """``name`` matches every path in ``candidates``; the answer asks which one."""

    model_config = ConfigDict(frozen=True)

    name: str
    candidates: list[str]

    def render(self) -> str:
        lines = [f"`{self.name}` matches {len(self.candidates)} files in the repository:"]
        lines += [f"  {path}" for path in self.candidates]
        lines += [
            f"Which one do you mean? Ask again with more of the path (e.g. {self.candidates[0]})."
        ]
        return "\n".join(lines)

    def context(self) -> str:
        return self.render()

    def citations(self) -> list[tuple[str, int, int]]:
        return []
