"""One walk over a parsed file's statements: every definition, import and module-level
assignment, each with the definition it sits in (its scope) and the blocks around it inside
that scope.

Definitions are found in every statement block, not only at the top of a module or class: a
``def`` under ``if TYPE_CHECKING:``, ``try:``/``except ImportError:``, ``with``, ``for``,
``while`` or ``match`` still belongs to the module (or class, or function) that holds the
block, and carries the block. Everything is in source order; a definition comes before what
it holds. Nothing is rendered here: a block's label (``if TYPE_CHECKING``) is computed only
when asked for.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
ScopeKind = Literal["module", "class", "function"]
Label = Callable[[], str]
LABEL_CHARS = 60
_COMPOUND = frozenset(
    {ast.If, ast.Try, ast.TryStar, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith,
     ast.Match}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Block:
    """A compound statement around a definition or statement, and which of its blocks."""

    stmt: ast.stmt
    label: Label  # "if TYPE_CHECKING", "except ImportError", "else of try", ...


@dataclass(slots=True)
class DefSite:
    """A function, method or class: its node, qualified name and where it sits."""

    node: DefNode
    qualname: str  # ``Outer.method``: the names of the definitions around it, then its own
    depth: int  # 0: in the module's own scope (blocks included)
    parent_kind: ScopeKind
    parent: int | None  # the index in ``Structure.defs`` of the definition it is in
    blocks: tuple[Block, ...]  # inside its parent's scope, outermost first

    @property
    def kind(self) -> Literal["class", "method", "function"]:
        if isinstance(self.node, ast.ClassDef):
            return "class"
        return "method" if self.parent_kind == "class" else "function"

    @property
    def start_line(self) -> int:
        """The first decorator's line (as ``inspect`` reports it), else the ``def`` line."""
        decorators = self.node.decorator_list
        return min([self.node.lineno, *(d.lineno for d in decorators)])

    @property
    def end_line(self) -> int:
        return self.node.end_lineno or self.node.lineno

    def condition(self) -> str | None:
        return condition(self.blocks)


@dataclass(slots=True)
class StmtSite:
    """An import or a module-level assignment, with its scope and blocks."""

    stmt: ast.stmt
    scope: int | None  # the index in ``Structure.defs`` of its definition; None: the module
    blocks: tuple[Block, ...]

    def condition(self) -> str | None:
        return condition(self.blocks)


@dataclass
class Structure:
    tree: ast.Module
    defs: list[DefSite] = field(default_factory=list)
    imports: list[StmtSite] = field(default_factory=list)
    assignments: list[StmtSite] = field(default_factory=list)  # module scope only
    scope_of: dict[int, int] = field(default_factory=dict)  # id(def node) -> index in defs
    _members: dict[int, list[DefSite]] | None = field(default=None, repr=False)

    def scope_name(self, scope: int | None) -> str:
        """The qualified name of a scope, ``<module>`` for the module's own."""
        return "<module>" if scope is None else self.defs[scope].qualname

    def members(self, index: int) -> list[DefSite]:
        """The definitions written directly in definition ``index``'s body (no block between)."""
        if self._members is None:
            self._members = {}
            for site in self.defs:
                if site.parent is not None and not site.blocks:
                    self._members.setdefault(site.parent, []).append(site)
        return self._members.get(index, [])


def scan(tree: ast.Module) -> Structure:
    """The structure of one parsed file (see the module doc)."""
    found = Structure(tree)
    _block(found, tree.body, None, "module", 0, ())
    return found


def _block(
    found: Structure,
    stmts: list[ast.stmt],
    parent: int | None,
    kind: ScopeKind,
    depth: int,
    blocks: tuple[Block, ...],
) -> None:
    for stmt in stmts:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            prefix = found.defs[parent].qualname if parent is not None else ""
            qualname = f"{prefix}.{stmt.name}" if prefix else stmt.name
            index = len(found.defs)
            found.defs.append(DefSite(stmt, qualname, depth, kind, parent, blocks))
            found.scope_of[id(stmt)] = index
            own: ScopeKind = "class" if isinstance(stmt, ast.ClassDef) else "function"
            _block(found, stmt.body, index, own, depth + 1, ())
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            found.imports.append(StmtSite(stmt, parent, blocks))
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign) and kind == "module":
            found.assignments.append(StmtSite(stmt, parent, blocks))
        elif type(stmt) in _COMPOUND:
            for label, body in _blocks(stmt):
                _block(found, body, parent, kind, depth, (*blocks, Block(stmt, label)))


def _blocks(stmt: ast.stmt) -> list[tuple[Label, list[ast.stmt]]]:
    """The statement blocks inside a compound statement, each with its (lazy) label."""
    u = ast.unparse
    if isinstance(stmt, ast.If | ast.While):
        word, test = ("if" if isinstance(stmt, ast.If) else "while"), stmt.test
        return _with_else(lambda: f"{word} {u(test)}", stmt)
    if isinstance(stmt, ast.Try | ast.TryStar):
        blocks: list[tuple[Label, list[ast.stmt]]] = [(lambda: "try", stmt.body)]
        for handler in stmt.handlers:
            blocks.append((partial(_except_label, handler), handler.body))
        return [*blocks, (lambda: "else of try", stmt.orelse), (lambda: "finally", stmt.finalbody)]
    if isinstance(stmt, ast.For | ast.AsyncFor):
        loop = stmt

        def for_label() -> str:
            return f"for {u(loop.target)} in {u(loop.iter)}"

        return _with_else(for_label, stmt)
    if isinstance(stmt, ast.With | ast.AsyncWith):
        items = stmt.items
        return [(lambda: "with " + ", ".join(u(item) for item in items), stmt.body)]
    if isinstance(stmt, ast.Match):
        return [(partial(_case_label, case), case.body) for case in stmt.cases]
    return []


def _with_else(
    label: Label, stmt: ast.If | ast.While | ast.For | ast.AsyncFor
) -> list[tuple[Label, list[ast.stmt]]]:
    """The body under ``label`` and the ``else`` block under "else of" the same label."""
    return [(label, stmt.body), (lambda: f"else of {label()}", stmt.orelse)]


def _except_label(handler: ast.ExceptHandler) -> str:
    return f"except {ast.unparse(handler.type)}" if handler.type is not None else "except"


def _case_label(case: ast.match_case) -> str:
    return f"case {ast.unparse(case.pattern)}"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 4].rstrip() + " ..."


def condition(blocks: tuple[Block, ...]) -> str | None:
    """The blocks as one readable condition (``if TYPE_CHECKING > try``), None when none."""
    return " > ".join(_short(b.label()) for b in blocks) if blocks else None
