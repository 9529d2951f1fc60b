"""What a class's instances' attributes are bound to, read from syntax only: ``self.x`` in a
method of the class (:mod:`codeagent.symbols.receivers` ties ``self.x.f()`` to it).

Each type is written as read in the scope that wrote it (``3|Client``: the scope with index 3
in the file's definitions), so that the name is looked up where the code stood.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TypeGuard

from codeagent.pysyntax import Structure
from codeagent.symbols.bindings import (
    FUNCTIONS,
    IMPORTED,
    UNKNOWN,
    Bindings,
    Types,
    annotation_type,
    assigned,
    bind,
    dotted,
    entered,
    kinds,
)

# The binding nodes that can bind ``self.x`` (exact types, as gathered).
_SELF_BINDING = frozenset(
    {
        ast.Assign,
        ast.AnnAssign,
        ast.AugAssign,
        ast.For,
        ast.AsyncFor,
        ast.With,
        ast.AsyncWith,
        ast.NamedExpr,
    }
)


def attribute_bindings(
    structure: Structure, cls: int, nodes: Callable[[int | None], list[ast.AST]]
) -> Types:
    """``self.x`` of class ``cls``: what its body (``x: T``, ``x = T()``) and its methods
    (``self.x = T(...)``, ``self.x: T``, ``self.x = p`` with ``p: T``) bind ``x`` to;
    ``nodes``: a scope's binding nodes."""
    found: Types = {}
    for stmt in nodes(cls):
        if isinstance(stmt, ast.AnnAssign | ast.Assign):
            own: Bindings = {}
            bind(stmt, own)
            for name, entries in own.items():
                found.setdefault(name, set()).update(_written_in(cls, t) for t in kinds(entries))
    for site in structure.members(cls):
        node = site.node
        index = structure.scope_of[id(node)]
        if not isinstance(node, FUNCTIONS) or not (node.args.posonlyargs or node.args.args):
            continue
        if any(dotted(d) in ("staticmethod", "classmethod") for d in node.decorator_list):
            continue
        params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        me = params[0].arg
        assigned: Types = {}
        for sub in nodes(index):
            if type(sub) in _SELF_BINDING:
                _self_attribute(sub, me, params[1:], assigned)
        for name, types in assigned.items():
            found.setdefault(name, set()).update(_written_in(index, t) for t in types)
    return found


def _written_in(scope: int, kind: str) -> str:
    """A type as read in scope ``scope`` (``3|Client``), UNKNOWN as it is."""
    return f"{scope}|{kind}" if kind not in (UNKNOWN, IMPORTED) else kind


def _self_attribute(node: ast.AST, me: str, params: list[ast.arg], found: Types) -> None:
    """One statement's binding of ``me.x``, if it is one (``params``: the method's others)."""
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        for target in targets:
            if type(target) is ast.Name:  # the common case: binds no attribute
                continue
            if _is_self_attr(target, me):
                if isinstance(node, ast.AnnAssign):
                    kind = annotation_type(node.annotation) or assigned(value)
                elif isinstance(node, ast.AugAssign):
                    kind = UNKNOWN
                elif isinstance(value, ast.Name) and (typed := _typed(params, value.id)):
                    kind = typed
                else:
                    kind = assigned(value)
                if kind is not None:
                    _add(found, target.attr, kind)
            elif isinstance(target, ast.Tuple | ast.List):
                _unknown(target, me, found)
    elif isinstance(node, ast.With | ast.AsyncWith):  # ``with VALUE as self.x``
        for item in node.items:
            var = item.optional_vars
            if _is_self_attr(var, me):
                _add(found, var.attr, entered(item, isinstance(node, ast.AsyncWith)))
            elif var is not None and type(var) is not ast.Name:
                _unknown(var, me, found)
    elif (
        isinstance(node, ast.For | ast.AsyncFor | ast.NamedExpr)
        and type(node.target) is not ast.Name
    ):
        _unknown(node.target, me, found)


def _unknown(target: ast.AST, me: str, found: Types) -> None:
    """Each ``me.x`` inside a target that binds it to nothing the syntax says."""
    for element in ast.walk(target):
        if _is_self_attr(element, me):
            _add(found, element.attr, UNKNOWN)


def _typed(params: list[ast.arg], name: str) -> str | None:
    """The type the annotation of the parameter ``name`` says, if there is one."""
    for param in params:
        if param.arg == name:
            return annotation_type(param.annotation)
    return None


def _is_self_attr(node: ast.AST | None, me: str) -> TypeGuard[ast.Attribute]:
    """Whether ``node`` is ``me.x`` (``me``: the name ``self`` has in the method)."""
    return (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me
    )


def _add(found: Types, name: str, kind: str) -> None:
    found.setdefault(name, set()).add(kind)
