"""The names a Python scope binds, each with the types its bindings say (read from syntax
only): what :mod:`codeagent.symbols.receivers` ties a call's receiver to.

A binding says a type when it is an annotation (``x: T``, ``x: Optional[T]``, a parameter
``x: T``) or a constructor call (``x = T(...)``); ``x = None`` says nothing either way; an
import says "what the import binds" (:data:`IMPORTED`); anything else (a loop variable,
``with ... as x``, ``x = f()``, ``global x``) says the type is unknown (:data:`UNKNOWN`). A
parameter pytest fills says ``@name``: the value of the fixture ``name`` (``@Class:name``: of
the one the test's class defines; :mod:`codeagent.symbols.fixtures`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from keyword import iskeyword
from typing import Any

from codeagent.pysyntax import Structure
from codeagent.symbols.fixtures import injected

UNKNOWN = ""  # a binding that says nothing of the type
IMPORTED = "="  # bound by an import: the graph resolves the name itself
Types = dict[str, set[str]]  # name -> what its bindings say
# What one binding says, read only when a lookup asks for the type (:func:`kind_of`): the
# text, or the node that says it: ``x = T(...)`` (its call), a parameter ``x: T`` (its
# ``arg``), ``x: T = v`` (the statement).
Entry = str | ast.Call | ast.arg | ast.AnnAssign
Bindings = dict[str, list[Entry]]  # name -> its bindings in the scope
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


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
    ``Union[T, None]``, ``Annotated[T, ...]``, ``"T"``; ``type[T]``, ``ClassVar[T]``,
    ``Final[T]`` as ``T``; a generic, its class (``list[T]``: ``list``, ``Node[T]``:
    ``Node``); None for anything else (``Callable[...]``, ``Literal[...]``, ``A | B``)."""
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
        written = dotted(node.value)
        outer = (written or "").rsplit(".", 1)[-1]
        inner = node.slice
        if outer in _OF_INNER:
            return annotation_type(inner)
        if outer == "Annotated" and isinstance(inner, ast.Tuple) and inner.elts:
            return annotation_type(inner.elts[0])
        if outer == "Union" and isinstance(inner, ast.Tuple):
            sides = [s for s in inner.elts if not _is_none(s)]
            return annotation_type(sides[0]) if len(sides) == 1 else None
        return None if outer in _NO_CLASS else written  # a generic: its class
    return dotted(node)


# Subscripted annotations that say the inner type's methods (``type[T]``: T's classmethods
# and constructor), and ones that name no class whose methods a call reaches.
_OF_INNER = frozenset(
    {"Optional", "type", "Type", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly"}
)
_NO_CLASS = frozenset(
    {"Union", "Annotated", "Callable", "Literal", "Concatenate", "TypeGuard", "TypeIs", "Unpack"}
)


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


def kind_of(entry: Entry) -> str:
    """What one binding says of the type (UNKNOWN, IMPORTED, ``T``, ``T()``, ...)."""
    if type(entry) is str:
        return entry
    if type(entry) is ast.Call:
        return value_type(entry) or UNKNOWN
    if type(entry) is ast.arg:
        return annotation_type(entry.annotation) or UNKNOWN
    assert isinstance(entry, ast.AnnAssign)
    return annotation_type(entry.annotation) or assigned(entry.value) or UNKNOWN


def kinds(entries: Iterable[Entry]) -> set[str]:
    """What a name's bindings say, each read (:func:`kind_of`)."""
    return {kind_of(entry) for entry in entries}


def scope_bindings(structure: Structure, scope: int | None, nodes: list[ast.AST]) -> Bindings:
    """Every name the scope binds (its parameters included), ``def``/``class`` aside;
    ``nodes``: the scope's binding nodes (:data:`BINDING_NODES`, as ``pysyntax.calls`` finds
    them in its walk). A binding's type is read when asked (:func:`kinds`)."""
    found: Bindings = {}
    if scope is not None:
        node = structure.defs[scope].node
        if isinstance(node, FUNCTIONS):
            args = node.args
            filled = injected(structure, scope)  # pytest's fixtures: "@name", their values
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                if arg.annotation is not None:
                    _add(found, arg.arg, arg)
                else:
                    _add(found, arg.arg, filled.get(arg.arg, UNKNOWN))
            for rest in (args.vararg, args.kwarg):
                if rest is not None:
                    _add(found, rest.arg, UNKNOWN)
    binders = _BINDERS
    for bound in nodes:
        binders[type(bound)](bound, found)
    return found


def bind(node: ast.AST, found: Bindings) -> None:
    """Add the bindings one node (of :data:`BINDING_NODES`) makes to ``found``."""
    _BINDERS[type(node)](node, found)


def assigned(value: ast.expr | None) -> str | None:
    """What an assigned value says: a constructor's type, nothing (None), or UNKNOWN."""
    if _is_none(value) if value is not None else True:
        return None
    return value_type(value) or UNKNOWN


def _add(found: Bindings, name: str, entry: Entry) -> None:
    entries = found.get(name)
    if entries is None:
        found[name] = [entry]
    else:
        entries.append(entry)


def _names(target: ast.AST) -> list[str]:
    """Every name in an assignment's target (a subscript's or attribute's names too)."""
    if type(target) is ast.Name:
        return [target.id]
    if type(target) is ast.Tuple or type(target) is ast.List:
        return [name for element in target.elts for name in _names(element)]
    if type(target) is ast.Starred:
        return _names(target.value)
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


# -- the bindings one node of a scope makes, by the node's type --------------------------------


def _assign(node: ast.Assign, found: Bindings) -> None:
    value = node.value
    for target in node.targets:
        if type(target) is ast.Name:
            if type(value) is ast.Call:  # its type: the call's (kind_of)
                _add(found, target.id, value)
            elif not _is_none(value):  # ``x = None`` says nothing
                _add(found, target.id, UNKNOWN)
        elif isinstance(target, ast.Tuple | ast.List | ast.Starred):
            for name in _names(target):
                _add(found, name, UNKNOWN)


def _ann_assign(node: ast.AnnAssign, found: Bindings) -> None:
    if type(node.target) is ast.Name:
        _add(found, node.target.id, node)


def _target(
    node: ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension, found: Bindings
) -> None:
    for name in _names(node.target):
        _add(found, name, UNKNOWN)


def _named(node: ast.NamedExpr, found: Bindings) -> None:
    _add(found, node.target.id, UNKNOWN)


def _with(node: ast.With | ast.AsyncWith, found: Bindings) -> None:
    for item in node.items:
        var = item.optional_vars
        if isinstance(var, ast.Name):
            _add(found, var.id, entered(item, isinstance(node, ast.AsyncWith)))
        elif var is not None:
            for name in _names(var):
                _add(found, name, UNKNOWN)


def _named_node(node: ast.ExceptHandler | ast.MatchAs | ast.MatchStar, found: Bindings) -> None:
    if node.name:
        _add(found, node.name, UNKNOWN)


def _declared(node: ast.Global | ast.Nonlocal, found: Bindings) -> None:
    for name in node.names:
        _add(found, name, UNKNOWN)


def _import(node: ast.Import | ast.ImportFrom, found: Bindings) -> None:
    for alias in node.names:
        bound = alias.asname or alias.name.split(".")[0]
        if bound != "*":
            _add(found, bound, IMPORTED)


def _lambda(node: ast.Lambda, found: Bindings) -> None:
    """A lambda's parameters: the walk reads its body in the scope around it, where a name
    they shadow is then bound more than one way (:mod:`codeagent.symbols.flow` reads a use
    inside the lambda as the parameter, one outside it past the lambda)."""
    args = node.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            _add(found, arg.arg, UNKNOWN)


def _delete(node: ast.Delete, found: Bindings) -> None:
    for target in node.targets:
        if isinstance(target, ast.Name):
            _add(found, target.id, UNKNOWN)


_BINDERS: dict[type[ast.AST], Callable[[Any, Bindings], None]] = {
    ast.Assign: _assign, ast.AnnAssign: _ann_assign, ast.AugAssign: _target, ast.For: _target,
    ast.AsyncFor: _target, ast.With: _with, ast.AsyncWith: _with, ast.NamedExpr: _named,
    ast.comprehension: _target, ast.ExceptHandler: _named_node, ast.Global: _declared,
    ast.Nonlocal: _declared, ast.Import: _import, ast.ImportFrom: _import,
    ast.MatchAs: _named_node, ast.MatchStar: _named_node, ast.Delete: _delete,
    ast.Lambda: _lambda,
}  # fmt: skip
# The nodes that bind names (or, for self.x, attributes) in the scope they run in (exact
# types: ``pysyntax.calls`` gathers them in its walk).
BINDING_NODES = tuple(_BINDERS)
