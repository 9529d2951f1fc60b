"""How badly a tree-sitter tree failed: C and C++ files are read a second time with their
macros blanked (:data:`codeagent.lang.spec.LanguageSpec.repair`), and the better reading is
kept; ``Parsed.errors`` counts what is left."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node


def loose_error_bytes(root: Node) -> int:
    """How much of the text the grammar could not place: the tokens lying loose in ERROR
    nodes (a MISSING node counts one byte). Whole definitions and comments an ERROR node
    holds count nothing: a file whose every line reads well inside one ERROR (an
    ``#ifndef`` guard the grammar cannot close) is a good reading."""
    total = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            total += 1
        elif node.is_error:
            for child in node.children:
                if child.is_extra:  # a comment between good definitions
                    continue
                if child.child_count == 0 or child.is_error:
                    total += max(child.end_byte - child.start_byte, 1)
                elif child.has_error:
                    stack.append(child)
        elif node.has_error:
            stack.extend(node.children)
    return total


def count_errors(root: Node) -> int:
    """The ERROR and MISSING nodes of a tree (an ERROR node's inside not counted)."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
            continue
        if node.has_error:
            stack.extend(node.children)
    return count
