"""``AstResult``: one answered query, with its text rendering, names and citations."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from codeagent.tools.ast_tool.models import Item, Operation
from codeagent.tools.ast_tool.operations import render_lines
from codeagent.tools.ast_tool.render import unique


class AstResult(BaseModel):
    """The answer to one AST query about the file ``path`` (POSIX, relative to the root).

    ``symbol`` is the symbol asked about (for ``methods`` and ``definition`` the qualified
    name it resolved to); ``items`` hold one typed model per answered fact, in source order.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    operation: Operation
    symbol: str | None = None
    line_count: int
    items: list[Item]

    def render(self, *, long: bool = False) -> str:
        """A deterministic, readable text answer with ``path:line`` locations; ``long``:
        with every signature (a class listing is one line per class otherwise)."""
        return render_lines(self.operation, self, long=long)

    def names(self) -> list[str]:
        """The names this result answers with, each once, in source order.

        functions/classes/methods: their names; imports: ``import a.b`` gives ``a.b`` and
        ``from m import x`` gives ``x`` (a star import gives ``m.*``); variables: the assigned
        names; decorators: the decorator names without arguments; calls: the qualified names
        of the calling scopes (``<module>`` for module level); definition and outline: the
        qualified names of the definitions.
        """
        return unique([name for item in self.items for name in item.answer_names()])

    def citations(self) -> list[tuple[str, int, int]]:
        """``(path, start_line, end_line)`` of each source this answer rests on, each once."""
        spans = [span for item in self.items if (span := item.span()) is not None]
        return [(self.path, start, end) for start, end in unique(spans)]
