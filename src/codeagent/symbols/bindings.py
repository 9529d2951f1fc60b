"""The names a Python scope binds, each with the types its bindings say (read from syntax
only): what :mod:`codeagent.symbols.receivers` ties a call's receiver to.

A binding says a type when it is an annotation (``x: T``, ``x: Optional[T]``, a parameter
``x: T``) or a constructor call (``x = T(...)``); ``x = None`` says nothing either way; an
import says "what the import binds" (:data:`IMPORTED`); anything else (a loop variable,
``with ... as x``, ``x = f()``, ``global x``) says the type is unknown (:data:`UNKNOWN`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from keyword import iskeyword

from codeagent.pysyntax import Structure

UNKNOWN = ""  # a binding that says nothing of the type
IMPORTED = "="  # bound by an import: the graph resolves the name itself
Types = dict[str, set[str]]  # name -> what its bindings say
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# The nodes that bind names (or, for self.x, attributes) in the scope they run in.
BINDING_NODES = (
    ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith,
    ast.NamedExpr, ast.comprehension, ast.ExceptHandler, ast.Global, ast.Nonlocal, ast.Import,
    ast.ImportFrom, ast.MatchAs, ast.MatchStar, ast.Delete,
)  # fmt: skip


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def expression(text: str) -> ast.expr | None:
    """``text`` parsed as an expression, or None. A dotted name, or one called without
    arguments (most bindings and annotations: ``Client``, ``mod.Client``, ``Client()``), is
    built as its nodes without the parser (the same nodes; ASCII only, as the parser
    normalizes other names)."""
    called = text.endswith("()")
    parts = (text[:-2] if called else text).split(".")
    if text.isascii() and all(p.isidentifier() and not iskeyword(p) for p in parts):
        expr: ast.expr = ast.Name(id=parts[0], ctx=ast.Load())
        for part in parts[1:]:
            expr = ast.Attribute(value=expr, attr=part, ctx=ast.Load())
        return ast.Call(func=expr, args=[], keywords=[]) if called else expr
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return None


def annotation_type(node: ast.expr | None) -> str | None:
    """The class an annotation names: ``T``, ``mod.T``, ``Optional[T]``, ``T | None``,
    ``Union[T, None]``, ``Annotated[T, ...]``, ``"T"``; None for anything else (``list[T]``)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        parsed = expression(node.value.strip())
        if parsed is None:
            return None
        node = parsed
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [s for s in (node.left, node.right) if not _is_none(s)]
        return annotation_type(sides[0]) if len(sides) == 1 else None
    if isinstance(node, ast.Subscript):
        outer = (dotted(node.value) or "").rsplit(".", 1)[-1]
        inner = node.slice
        if outer == "Optional":
            return annotation_type(inner)
        if outer == "Annotated" and isinstance(inner, ast.Tuple) and inner.elts:
            return annotation_type(inner.elts[0])
        if outer == "Union" and isinstance(inner, ast.Tuple):
            sides = [s for s in inner.elts if not _is_none(s)]
            return annotation_type(sides[0]) if len(sides) == 1 else None
        return None
    return dotted(node)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def value_type(node: ast.expr | None) -> str | None:
    """``T()`` for a value ``T(...)``, ``x.get()`` for ``x.get(...)``: the result of a call
    of a dotted name (an instance when ``T`` is a class, what a function's return annotation
    says: the graph tells which)."""
    if isinstance(node, ast.Call):
        callee = dotted(node.func)
        return f"{callee}()" if callee else None
    return None


def entered(item: ast.withitem, is_async: bool) -> str:
    """What ``with VALUE as x`` binds ``x`` to: the result of ``VALUE.__enter__()``."""
    value = value_type(item.context_expr) or dotted(item.context_expr)
    method = "__aenter__" if is_async else "__enter__"
    return f"{value}.{method}()" if value else UNKNOWN


def scope_bindings(structure: Structure, scope: int | None, nodes: list[ast.AST]) -> Types:
    """Every name the scope binds (its parameters included), ``def``/``class`` aside;
    ``nodes``: the scope's binding nodes (:data:`BINDING_NODES`, as ``pysyntax.calls`` finds
    them in its walk)."""
    found: Types = {}
    if scope is not None:
        node = structure.defs[scope].node
        if isinstance(node, FUNCTIONS):
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                _add(found, arg.arg, annotation_type(arg.annotation) or UNKNOWN)
            for rest in (args.vararg, args.kwarg):
                if rest is not None:
                    _add(found, rest.arg, UNKNOWN)
    for bound in nodes:
        _bind(bound, found)
    return found


def attribute_bindings(
    structure: Structure, cls: int, nodes: Callable[[int | None], list[ast.AST]]
) -> Types:
    """``self.x`` of class ``cls``: what its body (``x: T``, ``x = T()``) and its methods
    (``self.x = T(...)``, ``self.x: T``, ``self.x = p`` with ``p: T``) bind ``x`` to;
    ``nodes``: a scope's binding nodes."""
    found: Types = {}
    for stmt in nodes(cls):
        if isinstance(stmt, ast.AnnAssign | ast.Assign):
            own: Types = {}
            _bind(stmt, own)
            for name, types in own.items():
                found.setdefault(name, set()).update(_written_in(cls, t) for t in types)
    for site in structure.members(cls):
        node = site.node
        index = structure.scope_of[id(node)]
        if not isinstance(node, FUNCTIONS) or not (node.args.posonlyargs or node.args.args):
            continue
        if any(dotted(d) in ("staticmethod", "classmethod") for d in node.decorator_list):
            continue
        params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        me = params[0].arg
        typed = {a.arg: annotation_type(a.annotation) for a in params[1:]}
        assigned: Types = {}
        for sub in nodes(index):
            _self_attribute(sub, me, typed, assigned)
        for name, types in assigned.items():
            found.setdefault(name, set()).update(_written_in(index, t) for t in types)
    return found


def _written_in(scope: int, kind: str) -> str:
    """A type as read in scope ``scope`` (``3|Client``), UNKNOWN as it is."""
    return f"{scope}|{kind}" if kind not in (UNKNOWN, IMPORTED) else kind


def _self_attribute(node: ast.AST, me: str, typed: dict[str, str | None], found: Types) -> None:
    """One statement's binding of ``me.x``, if it is one."""
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        for target in targets:
            if _is_self_attr(target, me):
                assert isinstance(target, ast.Attribute)
                if isinstance(node, ast.AnnAssign):
                    kind = annotation_type(node.annotation) or _value(value)
                elif isinstance(node, ast.AugAssign):
                    kind = UNKNOWN
                elif isinstance(value, ast.Name) and typed.get(value.id):
                    kind = typed[value.id] or UNKNOWN
                else:
                    kind = _value(value)
                if kind is not None:
                    _add(found, target.attr, kind)
            elif isinstance(target, ast.Tuple | ast.List):
                for element in ast.walk(target):
                    if _is_self_attr(element, me):
                        assert isinstance(element, ast.Attribute)
                        _add(found, element.attr, UNKNOWN)
    elif isinstance(node, ast.For | ast.AsyncFor | ast.withitem | ast.NamedExpr):
        target = node.optional_vars if isinstance(node, ast.withitem) else node.target  # type: ignore[assignment]
        for element in ast.walk(target) if target is not None else ():
            if _is_self_attr(element, me):
                assert isinstance(element, ast.Attribute)
                _add(found, element.attr, UNKNOWN)


def _is_self_attr(node: ast.AST, me: str) -> bool:
    return (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me
    )


def _value(value: ast.expr | None) -> str | None:
    """What an assigned value says: a constructor's type, nothing (None), or UNKNOWN."""
    if _is_none(value) if value is not None else True:
        return None
    return value_type(value) or UNKNOWN


def _add(found: Types, name: str, kind: str) -> None:
    found.setdefault(name, set()).add(kind)


def _names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _bind(node: ast.AST, found: Types) -> None:
    """The bindings one node of a scope makes."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                kind = _value(node.value)
                if kind is not None:
                    _add(found, target.id, kind)
            elif isinstance(target, ast.Tuple | ast.List | ast.Starred):
                for name in _names(target):
                    _add(found, name, UNKNOWN)
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        kind = annotation_type(node.annotation) or _value(node.value)
        _add(found, node.target.id, kind or UNKNOWN)
    elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
        for name in _names(node.target):
            _add(found, name, UNKNOWN)
    elif isinstance(node, ast.NamedExpr):
        _add(found, node.target.id, UNKNOWN)
    elif isinstance(node, ast.With | ast.AsyncWith):
        for item in node.items:
            var = item.optional_vars
            if isinstance(var, ast.Name):
                _add(found, var.id, entered(item, isinstance(node, ast.AsyncWith)))
            elif var is not None:
                for name in _names(var):
                    _add(found, name, UNKNOWN)
    elif isinstance(node, ast.ExceptHandler) and node.name:
        _add(found, node.name, UNKNOWN)
    elif isinstance(node, ast.Global | ast.Nonlocal):
        for name in node.names:
            _add(found, name, UNKNOWN)
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            bound = alias.asname or alias.name.split(".")[0]
            if bound != "*":
                _add(found, bound, IMPORTED)
    elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
        _add(found, node.name, UNKNOWN)
    elif isinstance(node, ast.Delete):
        for target in node.targets:
            if isinstance(target, ast.Name):
                _add(found, target.id, UNKNOWN)
