"""The AST tool's typed records of a file (definitions, imports, module-level variables,
decorators), built from its structure (:mod:`codeagent.pysyntax`: the one walk the chunker
and the symbol graph read too).

A definition under ``if TYPE_CHECKING:``, ``try:``/``except ImportError:``, ``with``, ``for``
or ``match`` belongs to the module (or class) that holds the block, and carries the block as
its ``condition``. Repeated definitions (``@overload`` stubs, alternatives in ``if``/``else``,
property setters) are all kept, in source order.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Literal

from codeagent.pysyntax.structure import DefNode, ScopeKind, Structure
from codeagent.tools.ast_tool import describe
from codeagent.tools.ast_tool.models import (
    ClassInfo,
    DecoratorUse,
    FunctionInfo,
    ImportedName,
    ImportInfo,
    VariableInfo,
)
from codeagent.tools.ast_tool.source import ParsedFile

_AUG_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/",
            ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|",
            ast.BitXor: "^", ast.BitAnd: "&", ast.FloorDiv: "//"}  # fmt: skip


@dataclass
class DefRecord:
    """A definition found in the file, with where it sits."""

    node: DefNode
    qualname: str
    depth: int
    parent_kind: ScopeKind
    condition: str | None
    info: FunctionInfo | ClassInfo
    parent: DefRecord | None = None


@dataclass
class Analysis:
    defs: list[DefRecord] = field(default_factory=list)
    imports: list[ImportInfo] = field(default_factory=list)
    variables: list[tuple[VariableInfo, ast.stmt]] = field(default_factory=list)
    decorators: list[DecoratorUse] = field(default_factory=list)

    def top_level(self, kind: type[FunctionInfo] | type[ClassInfo]) -> list[DefRecord]:
        return [d for d in self.defs if d.depth == 0 and isinstance(d.info, kind)]


class _Builder:
    """The AST tool's typed records, built from the file's structure."""

    def __init__(self, parsed: ParsedFile) -> None:
        self.lines = parsed.lines
        self.result = Analysis()

    def build(self, found: Structure) -> Analysis:
        records: list[DefRecord] = []
        for site in found.defs:
            owner = records[site.parent] if site.parent is not None else None
            records.append(
                self.definition(site.node, site.qualname, site.parent_kind, site.depth,
                                site.condition(), owner)
            )  # fmt: skip
        for imported in found.imports:
            stmt = imported.stmt
            assert isinstance(stmt, ast.Import | ast.ImportFrom)
            scope = found.scope_name(imported.scope)
            self.result.imports.append(self.import_(stmt, scope, imported.condition()))
        for assigned in found.assignments:
            stmt = assigned.stmt
            assert isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign)
            self.variables(stmt, assigned.condition())
        return self.result

    def definition(
        self,
        node: DefNode,
        qualname: str,
        parent: ScopeKind,
        depth: int,
        cond: str | None,
        owner: DefRecord | None,
    ) -> DefRecord:
        decorators = [describe.unparse(d) for d in node.decorator_list]
        names = [describe.decorator_name(d) for d in node.decorator_list]
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        end = node.end_lineno or node.lineno
        info: FunctionInfo | ClassInfo
        if isinstance(node, ast.ClassDef):
            bases = [describe.unparse(b) for b in node.bases]
            bases += [describe.unparse(k) for k in node.keywords]
            info = ClassInfo(
                name=node.name,
                qualname=qualname,
                bases=bases,
                decorators=decorators,
                start_line=start,
                def_line=node.lineno,
                end_line=end,
                condition=cond,
            )
            target_kind: Literal["function", "method", "class"] = "class"
        else:
            sig, params, returns = describe.signature(node)
            role = describe.method_role(names) if parent == "class" else "function"
            info = FunctionInfo(
                name=node.name,
                qualname=qualname,
                role=role,
                signature=sig,
                parameters=params,
                returns=returns,
                is_async=isinstance(node, ast.AsyncFunctionDef),
                is_overload=describe.is_overload(names),
                decorators=decorators,
                start_line=start,
                def_line=node.lineno,
                end_line=end,
                condition=cond,
            )
            target_kind = "method" if parent == "class" else "function"
        for dec, name in zip(node.decorator_list, names, strict=True):
            self.result.decorators.append(
                DecoratorUse(
                    name=name,
                    expression=describe.unparse(dec),
                    line=dec.lineno,
                    target=qualname,
                    target_kind=target_kind,
                )
            )
        record = DefRecord(node, qualname, depth, parent, cond, info, owner)
        self.result.defs.append(record)
        return record

    def import_(
        self, stmt: ast.Import | ast.ImportFrom, scope: str, cond: str | None
    ) -> ImportInfo:
        names = [ImportedName(name=a.name, asname=a.asname) for a in stmt.names]
        common = {
            "names": names,
            "line": stmt.lineno,
            "end_line": stmt.end_lineno or stmt.lineno,
            "scope": scope,
            "condition": cond,
        }
        if isinstance(stmt, ast.Import):
            return ImportInfo(is_from=False, **common)
        return ImportInfo(is_from=True, module=stmt.module, level=stmt.level, **common)

    def variables(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, cond: str | None) -> None:
        annotation = operator = None
        if isinstance(stmt, ast.Assign):
            pairs = [p for target in stmt.targets for p in _pairs(target, stmt.value)]
        elif isinstance(stmt, ast.AnnAssign):
            pairs = _pairs(stmt.target, stmt.value)
            annotation = describe.unparse(stmt.annotation)
        else:
            pairs = _pairs(stmt.target, stmt.value)
            operator = _AUG_OPS.get(type(stmt.op), "?") + "="
        for name, value in pairs:
            summary = describe.snippet(self.lines, value) if value is not None else None
            info = VariableInfo(
                name=name,
                line=stmt.lineno,
                end_line=stmt.end_lineno or stmt.lineno,
                annotation=annotation,
                operator=operator or "=",
                value=summary,
                is_constant=describe.is_constant_name(name),
                condition=cond,
            )
            self.result.variables.append((info, stmt))


def _pairs(target: ast.expr, value: ast.expr | None) -> list[tuple[str, ast.expr | None]]:
    """The names a target binds, each with its own value where unpacking pairs them up
    (``a, b = 1, 2``), else with the whole value."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Starred):
        return _pairs(target.value, value)
    if isinstance(target, ast.Tuple | ast.List):
        elements = target.elts
        if (
            isinstance(value, ast.Tuple | ast.List)
            and len(value.elts) == len(elements)
            and not any(isinstance(e, ast.Starred) for e in [*elements, *value.elts])
        ):
            return [p for t, v in zip(elements, value.elts, strict=True) for p in _pairs(t, v)]
        return [p for t in elements for p in _pairs(t, value)]
    return []


def analyze(parsed: ParsedFile) -> Analysis:
    """The file's analysis, computed once per parsed file (and so cached with it)."""
    cached = parsed.memo.get("analysis")
    if isinstance(cached, Analysis):
        return cached
    result = _Builder(parsed).build(parsed.structure())
    _attach_members(result)
    parsed.memo["analysis"] = result
    return result


def _attach_members(result: Analysis) -> None:
    """Fill each class's ``methods`` and ``nested_classes``, innermost classes first (the
    models are frozen, so each class is rebuilt once its members are final)."""
    members: dict[int, tuple[list[FunctionInfo], list[ClassInfo]]] = {}
    for record in reversed(result.defs):
        info = record.info
        if isinstance(info, ClassInfo) and id(record) in members:
            methods, nested = members[id(record)]
            info = info.model_copy(
                update={"methods": methods[::-1], "nested_classes": nested[::-1]}
            )
            record.info = info
        if record.parent_kind != "class" or record.parent is None:
            continue
        methods, nested = members.setdefault(id(record.parent), ([], []))
        if isinstance(info, FunctionInfo):
            methods.append(info)
        else:
            nested.append(info)
