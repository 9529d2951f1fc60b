"""Rust types and paths as a file writes them, for :mod:`codeagent.lang.rust_calls`.

written_type(node, text, "Store")   # ``&mut a::T<U>``: "*a::T"; ``Self``: "Store"
written_path(node, text, "Store")   # ``a::T::<u8>::f``: "a::T::f"; ``Self::f``: "Store::f"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

_TRAITS = frozenset({"dynamic_type", "abstract_type"})
_HEADS = frozenset({"identifier", "type_identifier", "crate", "super", "self"})
_PATHS = frozenset({"scoped_identifier", "scoped_type_identifier"})
_POINTERS = frozenset({"Box", "Rc", "Arc"})
Local = tuple[int, "Node", "Node | None"]  # (seen to, the declaration, its stated type)
_ENDS = frozenset({"block", "if_expression", "while_expression", "match_arm",
                   "closure_expression", "for_expression", "function_item"})  # fmt: skip


def written_type(node: Node, text: Text, own: str) -> str:
    """A type as written, references and generic arguments dropped (``a::T<U>``: ``a::T``;
    ``dyn Tr``: ``Tr``; ``Self``: ``own``); ``*T`` for a ``&mut T``, ``Box<T>``, ``Rc<T>`` or
    ``Arc<T>`` (a method of another crate's trait called on it is the pointer's, not ``T``'s);
    "" for any other (a tuple, a slice)."""
    kind = node.type
    if kind == "type_identifier":
        written = text(node)
        return own if written == "Self" else written
    if kind == "scoped_type_identifier":
        return written_path(node, text, own) or ""
    inner = None
    pointer = False
    if kind == "reference_type":
        inner = node.child_by_field_name("type")
        pointer = any(c.type == "mutable_specifier" for c in node.children)
    elif kind == "generic_type":
        inner = node.child_by_field_name("type")
        arguments = node.child_by_field_name("type_arguments")
        if inner is not None and arguments is not None and text(inner) in _POINTERS:
            inner, pointer = arguments.named_child(0), True
    elif kind in _TRAITS:
        inner = node.child_by_field_name("trait") or node.named_child(0)
    written = written_type(inner, text, own) if inner is not None else ""
    return f"*{written.lstrip('*')}" if pointer and written else written


def written_path(node: Node, text: Text, own: str) -> str | None:
    """A path as written, generic arguments dropped (``a::T::<u8>::f``: ``a::T::f``;
    ``Self::f``: ``T::f``); None for a qualified one (``<T as Tr>::f``)."""
    kind = node.type
    if kind in _HEADS:
        written = text(node)
        return own if written == "Self" and own else written
    if kind in _PATHS:
        name = node.child_by_field_name("name")
        head = node.child_by_field_name("path")
        before = written_path(head, text, own) if head is not None else ""
        if before is None or name is None:
            return None
        return f"{before}::{text(name)}"
    if kind == "generic_type":
        inner = node.child_by_field_name("type")
        return written_path(inner, text, own) if inner is not None else None
    return None


def declared(captures: dict[str, list[Node]]) -> tuple[int, Local]:
    """(seen from, (seen to, the declaration, its stated type, or for a pattern ``V(x)`` the
    name)) of one declaration: a
    parameter in its whole function or closure, a ``let`` after itself to the end of its
    block, a pattern's name in the ``if``, arm, loop or closure that binds it."""
    var, decl, typed = captures["var"][0], captures["decl"][0], captures.get("type")
    stated = typed[0] if typed and decl.type in ("parameter", "let_declaration") else None
    if decl.type == "tuple_struct_pattern":
        stated = var  # which of the pattern's fields it binds
    if decl.type == "let_declaration":
        holder, begin = decl.parent, decl.end_byte
    else:
        holder, begin = decl.parent, var.start_byte
        while holder is not None and holder.type not in _ENDS:
            holder = holder.parent
        if decl.type == "parameter" and holder is not None:
            begin = holder.start_byte
    end = holder.end_byte if holder is not None else decl.end_byte
    return (begin, (end, decl, stated))
