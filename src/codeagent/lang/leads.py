"""What belongs to a definition above its own first line: the comment over it (its doc),
and between them the language's attributes and decorators (Rust's ``#[derive(..)]``, a
TypeScript method's ``@dec``) and what wraps the definition alone (``export``, ``const f =
() =>``, ``declare``, C++'s ``template <..>``): :class:`~codeagent.lang.spec.LanguageSpec`'s
``doc_comment``, ``leading``, ``wrappers``. A definition's row starts there, so that its chunk
holds its doc and attributes as a Python definition's holds its decorators.

    doc, start = lead(spec, node, 160)   # the doc's first line, the 1-based start line
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate
from typing import TYPE_CHECKING

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
    comments, leading = spec.doc_comment, spec.leading
    prev = node.prev_named_sibling
    parent = node.parent
    if prev is None and parent is not None and parent.type in spec.bodies:
        prev = parent.prev_named_sibling  # the first member: the comments after the type's head
    while prev is not None:
        kind = prev.type
        is_comment = kind in comments
        if not is_comment and kind not in leading:
            break
        (end_row, end_column), begin = prev.end_point, prev.start_point[0]
        last = end_row - 1 if end_column == 0 and end_row > begin else end_row  # past its "\n"
        if start - last > 1 or (end_row == start and end_column > 0 and start != own_line):
            break
        before = prev.prev_sibling  # code ending on the comment's line: the comment trails it
        if (
            before is not None
            and before.end_point[0] == begin
            and before.type not in comments
            and before.type not in leading
        ):
            break
        start = begin
        if is_comment:
            first = prev
        prev = before if before is None or before.is_named else prev.prev_named_sibling
    if first is None and spec.leading:  # a comment after the definition's own decorators
        child: Node | None = node.named_child(0)  # (JavaScript's, inside the method)
        while child is not None and child.type in spec.leading:
            child = child.next_named_sibling
        if child is not None and child.type in spec.doc_comment:
            first = child
    if first is None:
        return "", start + 1
    for line in node_text(first).split("\n"):
        line = line.strip().lstrip("/*#!").rstrip("*/").strip()
        if line:
            return (line if len(line) <= max_doc else line[: max_doc - 3] + "..."), start + 1
    return "", start + 1


def touching(errors: tuple[tuple[int, int], ...]) -> Callable[[int, int], bool]:
    """Whether a span of ``errors`` (1-based line spans, as
    :func:`~codeagent.lang.parse_errors.error_lines` gives them) lies on lines ``first`` to
    ``last``: each asked by bisection."""
    spans = sorted(errors)
    starts = [a for a, _ in spans]
    reach = list(accumulate((b for _, b in spans), max))  # the furthest end so far

    def touched(first: int, last: int) -> bool:
        i = bisect_right(starts, last) - 1  # the spans that start by ``last``
        return i >= 0 and reach[i] >= first

    return touched


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
