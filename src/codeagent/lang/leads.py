"""What belongs to a definition above its own first line: the comment over it (its doc),
and between them the language's attributes and decorators (Rust's ``#[derive(..)]``, a
TypeScript method's ``@dec``) and what wraps the definition alone (``export``, ``const f =
() =>``, ``declare``, C++'s ``template <..>``): :class:`~codeagent.lang.spec.LanguageSpec`'s
``doc_comment``, ``leading``, ``wrappers``. A definition's row starts there, so that its chunk
holds its doc and attributes as a Python definition's holds its decorators.

    doc, start = lead(spec, node, 160)   # the doc's first line, the 1-based start line
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codeagent.lang.references import node_text
from codeagent.lang.spec import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node


def lead(spec: LanguageSpec, node: Node, max_doc: int) -> tuple[str, int]:
    """The first line of the comments right above the definition (no blank line between),
    and the line where they start, or where the attributes and wrappers that belong to the
    definition start (:attr:`LanguageSpec.leading`, :attr:`LanguageSpec.wrappers`): the
    definition's own first line without any."""
    node = _wrapper(spec, node)
    start = node.start_point[0]
    own_line = start
    first: Node | None = None  # the first comment
    prev = node.prev_named_sibling
    while prev is not None and start - _last_row(prev) <= 1:
        is_comment = prev.type in spec.doc_comment
        if not is_comment and prev.type not in spec.leading:
            break
        if prev.end_point[0] == start and prev.end_point[1] > 0 and start != own_line:
            break
        before = prev.prev_sibling  # code ending on the comment's line: the comment trails it
        if (
            before is not None
            and before.type not in spec.doc_comment
            and before.type not in spec.leading
            and before.end_point[0] == prev.start_point[0]
        ):
            break
        start = prev.start_point[0]
        if is_comment:
            first = prev
        prev = prev.prev_named_sibling
    if first is None:  # a comment among the definition's own leading children (JS's @dec)
        for child in node.named_children:
            if child.type in spec.doc_comment:
                first = child
                break
            if child.type not in spec.leading:
                break
    if first is None:
        return "", start + 1
    for line in node_text(first).split("\n"):
        line = line.strip().lstrip("/*#!").rstrip("*/").strip()
        if line:
            return (line if len(line) <= max_doc else line[: max_doc - 3] + "..."), start + 1
    return "", start + 1


def clear_leads(
    rows: list[list[Any]],
    nodes: list[tuple[int, int, int]],
    source: bytes,
    errors: tuple[tuple[int, int], ...],
) -> None:
    """A definition whose lead (its comment, attributes, ``template <..>``) holds a parse
    error the definition itself is clear of starts at its own first line again, so that it
    is still chunked as a definition (C++'s ``template <class T, FMT_ENABLE_IF(..)>``)."""

    def touched(first: int, last: int) -> bool:
        return any(a <= last and first <= b for a, b in errors)

    for start_byte, _, index in nodes:
        row = rows[index]
        own = source.count(b"\n", 0, start_byte) + 1
        if own > row[3] and touched(row[3], own - 1) and not touched(own, row[4]):
            row[3] = own


def _last_row(node: Node) -> int:
    """The last row with text of ``node`` (Rust's ``///`` comment ends past its line break)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


def _wrapper(spec: LanguageSpec, node: Node) -> Node:
    """The outermost node of :attr:`LanguageSpec.wrappers` that wraps the definition
    ``node`` alone, or ``node``."""
    besides = (*spec.leading, *spec.doc_comment, *spec.wrapper_parts)
    parent = node.parent
    while parent is not None and parent.type in spec.wrappers:
        for child in parent.named_children:
            if child.type not in besides and child.id != node.id:
                return node
        node, parent = parent, parent.parent
    return node
