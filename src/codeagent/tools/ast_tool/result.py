"""``AstResult``: one answered query, with its text rendering, names and citations."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from codeagent.tools.ast_tool.models import (
    CallSite,
    ClassInfo,
    DecoratorUse,
    Definition,
    FunctionInfo,
    ImportInfo,
    Item,
    Operation,
    OutlineEntry,
    VariableInfo,
)
from codeagent.tools.ast_tool.render import render, unique


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

    def render(self) -> str:
        """A deterministic, readable text answer with ``path:line`` locations."""
        return render(self)

    def names(self) -> list[str]:
        """The names this result answers with, each once, in source order.

        functions/classes/methods: their names; imports: ``import a.b`` gives ``a.b`` and
        ``from m import x`` gives ``x`` (a star import gives ``m.*``); variables: the assigned
        names; decorators: the decorator names without arguments; calls: the qualified names
        of the calling scopes (``<module>`` for module level); definition and outline: the
        qualified names of the definitions.
        """
        names: list[str] = []
        for item in self.items:
            if isinstance(item, FunctionInfo | ClassInfo | VariableInfo):
                names.append(item.name)
            elif isinstance(item, ImportInfo):
                module = "." * item.level + (item.module or "")
                for n in item.names:
                    names.append(f"{module}.*" if n.name == "*" else n.name)
            elif isinstance(item, DecoratorUse):
                names.append(item.name)
            elif isinstance(item, CallSite):
                names.append(item.scope)
            elif isinstance(item, Definition | OutlineEntry):
                names.append(item.qualname)
        return unique(names)

    def citations(self) -> list[tuple[str, int, int]]:
        """``(path, start_line, end_line)`` of each source this answer rests on, each once."""
        spans: list[tuple[int, int]] = []
        for item in self.items:
            if isinstance(item, FunctionInfo | ClassInfo | Definition):
                spans.append((item.start_line, item.end_line))
            elif isinstance(item, OutlineEntry):
                if item.depth == 0:
                    spans.append((item.start_line, item.end_line))
            elif isinstance(item, ImportInfo | VariableInfo | CallSite):
                spans.append((item.line, item.end_line))
            elif isinstance(item, DecoratorUse):
                spans.append((item.line, item.line))
        return [(self.path, start, end) for start, end in unique(spans)]
