"""The walk that writes each TypeScript/JavaScript call's target (the forms and the receivers
followed: :mod:`codeagent.lang.ts_receivers`), and the file's import bindings and exports.

    found = read(tree.root_node)
    found.targets[(call.start_byte, call.end_byte)]   # "./client Client.send", "K@3.f", ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codeagent.lang.ts_receivers import (
    CLASSES,
    FUNCTIONS,
    Scope,
    body_scope,
    fields,
    parameters,
    pattern_names,
    text,
)

if TYPE_CHECKING:
    from tree_sitter import Node

_CALLS = frozenset({"call_expression", "new_expression"})


@dataclass
class _Class:
    ref: str  # NAME@LINE
    fields: dict[str, str]


@dataclass
class Found:
    targets: dict[tuple[int, int], str] = field(default_factory=dict)
    bindings: list[list[str]] = field(default_factory=list)  # [local, spec, export]
    exports: list[list[str]] = field(default_factory=list)  # [exported, local, spec]


def read(root: Node) -> Found:
    found = Found()
    module: Scope = {}
    for node in root.named_children:
        if node.type == "import_statement":
            _imports(node, module, found.bindings)
        elif node.type == "export_statement":
            _exports(node, found.exports)
    body_scope(root, module)
    for local, spec, export in found.bindings:
        module[local] = f"{spec} {export}"
    stack: list[tuple[Node, tuple[Scope, ...], _Class | None]] = [(root, (module,), None)]
    while stack:
        node, scopes, cls = stack.pop()
        kind = node.type
        if kind in FUNCTIONS and node is not root:
            scope = parameters(node, {})
            body = node.child_by_field_name("body")
            if body is not None and body.type == "statement_block":
                body_scope(body, scope)
            scopes = (scope, *scopes)
            if kind == "method_definition":
                parent = node.parent
                cls = cls if parent is not None and parent.type == "class_body" else None
            elif kind != "arrow_function":
                cls = None
        elif kind in CLASSES:
            name = node.child_by_field_name("name")
            ref = f"{text(name)}@{name.start_point[0] + 1}" if name is not None else ""
            cls = _Class(ref, fields(node)) if ref else None
        elif kind in _CALLS:
            target = _target(node, scopes, cls)
            if target:
                found.targets[(node.start_byte, node.end_byte)] = target
        stack.extend((child, scopes, cls) for child in node.named_children)
    return found


def _lookup(name: str, scopes: tuple[Scope, ...]) -> str | None:
    for scope in scopes:
        if name in scope:
            return scope[name]
    return None


def _named(written: str, scopes: tuple[Scope, ...]) -> str | None:
    """What a name as written (``C``, ``ns.C``) refers to: a target, or ``:T`` for an instance
    of ``T``; None when it is not known."""
    head, dot, rest = written.partition(".")
    bound = _lookup(head, scopes)
    if bound is None or (dot and bound.startswith(":")):
        return None
    return f"{bound}.{rest}" if dot else bound


def _type(written: str, scopes: tuple[Scope, ...]) -> str | None:
    bound = _named(written, scopes)
    return bound if bound is not None and not bound.startswith(":") else None


def _receiver(obj: Node, scopes: tuple[Scope, ...], cls: _Class | None) -> str | None:
    """What an attribute is looked up on: a class, a module, an instance of a class."""
    kind = obj.type
    if kind == "this":
        return cls.ref if cls is not None else None
    if kind == "super":
        return f"^{cls.ref}" if cls is not None else None
    if kind == "identifier":
        bound = _named(text(obj), scopes)
        return _type(bound[1:], scopes) if bound and bound.startswith(":") else bound
    if kind == "member_expression":
        inner, prop = obj.child_by_field_name("object"), obj.child_by_field_name("property")
        if inner is None or prop is None:
            return None
        if inner.type == "this":
            typed = cls.fields.get(text(prop)) if cls is not None else None
            return _type(typed, scopes) if typed else None
        if inner.type == "identifier":
            bound = _named(text(inner), scopes)
            return f"{bound}.{text(prop)}" if bound and not bound.startswith(":") else None
    return None


def _target(call: Node, scopes: tuple[Scope, ...], cls: _Class | None) -> str | None:
    func = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
    if func is None:
        return None
    if func.type == "identifier":
        return _type(text(func), scopes)
    if func.type != "member_expression":
        return None
    obj, prop = func.child_by_field_name("object"), func.child_by_field_name("property")
    if obj is None or prop is None or prop.type != "property_identifier":
        return None
    receiver = _receiver(obj, scopes, cls)
    return f"{receiver}.{text(prop)}" if receiver else None


def _source(node: Node) -> str:
    source = node.child_by_field_name("source")
    return text(source).strip("\"'`") if source is not None else ""


def _imports(node: Node, scope: Scope, rows: list[list[str]]) -> None:
    spec = _source(node)
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    for part in clause.named_children if clause is not None and spec else ():
        if part.type == "identifier":
            rows.append([text(part), spec, "default"])
        elif part.type == "namespace_import" and part.named_children:
            rows.append([text(part.named_children[-1]), spec, "*"])
        elif part.type == "named_imports":
            for each in part.named_children:
                name, alias = each.child_by_field_name("name"), each.child_by_field_name("alias")
                if name is not None:
                    rows.append([text(alias or name), spec, text(name)])


def _exports(node: Node, rows: list[list[str]]) -> None:
    spec = _source(node)
    kinds = {c.type for c in node.children}
    value = node.child_by_field_name("value") or node.child_by_field_name("declaration")
    if "default" in kinds and value is not None:
        name = value.child_by_field_name("name") if value.type != "identifier" else value
        if name is not None:
            rows.append(["default", text(name), ""])
        return
    for name in _declared_names(value) if value is not None else ():
        rows.append([name, name, ""])  # export function f, export const a, ...
    for part in node.named_children:
        if part.type == "export_clause":
            for each in part.named_children:
                name, alias = each.child_by_field_name("name"), each.child_by_field_name("alias")
                if name is not None:
                    rows.append([text(alias or name), text(name), spec])
        elif part.type == "namespace_export" and part.named_children:
            rows.append([text(part.named_children[-1]), "*", spec])
    if "*" in kinds and spec:
        rows.append(["*", "*", spec])


def _declared_names(node: Node) -> list[str]:
    """The names an exported declaration declares (``export declare function f``: ``f``;
    ``export const a = 1, {b} = x``: ``a``, ``b``)."""
    if node.type == "ambient_declaration":
        return [n for part in node.named_children for n in _declared_names(part)]
    if node.type in ("lexical_declaration", "variable_declaration"):
        scope: Scope = {}
        for each in node.named_children:
            name = each.child_by_field_name("name") if each.type == "variable_declarator" else None
            if name is not None and name.type == "identifier":
                scope[text(name)] = None
            elif name is not None:
                pattern_names(name, scope)
        return list(scope)
    name = node.child_by_field_name("name")
    return [text(name)] if name is not None and name.type != "string" else []
