"""A TypeScript/JavaScript file's import bindings ``[local, spec, export]`` and exports
``[exported, local, spec]``, read from its top-level statements (:mod:`codeagent.lang.ts_calls`;
the forms: :mod:`codeagent.lang.ts_receivers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang.ts_receivers import Scope, pattern_names, text

if TYPE_CHECKING:
    from tree_sitter import Node


def _source(node: Node) -> str:
    source = node.child_by_field_name("source")
    return text(source).strip("\"'`") if source is not None else ""


def imports(node: Node, rows: list[list[str]]) -> None:
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


def exports(node: Node, rows: list[list[str]]) -> None:
    spec = _source(node)
    kinds = {c.type for c in node.children}
    value = node.child_by_field_name("value") or node.child_by_field_name("declaration")
    if "default" in kinds and value is not None:
        name = value.child_by_field_name("name") if value.type != "identifier" else value
        if name is not None:
            rows.append(["default", text(name), ""])
        return
    for declared in _declared_names(value) if value is not None else ():
        rows.append([declared, declared, ""])  # export function f, export const a, ...
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
