"""How badly a tree-sitter tree failed: C and C++ files are read a second time with their
macros blanked (:data:`codeagent.lang.spec.LanguageSpec.repair`), then with the words the
grammar could still not place alone blanked too, and the better reading is kept;
``Parsed.errors`` counts what is left, and :func:`error_lines` says where it lies (the
chunker keeps line windows there and nowhere else)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

LONE_ROUNDS = 2  # the words a C or C++ file's grammar could not place, blanked this often
_LONE = frozenset({"identifier", "type_identifier"})


def _loose(root: Node) -> Iterator[Node]:
    """What the grammar could not place: the MISSING nodes and the tokens lying loose in
    ERROR nodes (a nested ERROR as one). Whole definitions and comments an ERROR node holds
    are not loose: they read well."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            yield node
        elif node.is_error:
            for child in node.children:
                if child.is_extra:  # a comment between good definitions
                    continue
                if child.child_count == 0 or child.is_error:
                    yield child
                elif child.has_error:
                    stack.append(child)
        elif node.has_error:
            stack.extend(node.children)


def loose_error_bytes(root: Node) -> int:
    """How much of the text the grammar could not place (:func:`_loose`; a MISSING node counts
    one byte): a file whose every line reads well inside one ERROR (an ``#ifndef`` guard the
    grammar cannot close) is a good reading."""
    return sum(max(node.end_byte - node.start_byte, 1) for node in _loose(root))


def count_errors(root: Node, macro_blocks: tuple[str, ...] = ()) -> int:
    """The ERROR and MISSING nodes of a tree (an ERROR node's inside not counted). With
    ``macro_blocks`` (the node types a C or C++ file's top level is made of), a semicolon
    MISSING after a macro call that a block follows at the top level is no error: that is
    how a test framework's macro names a function (``TEST(group, name) {``), which the
    preprocessor would expand."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing and macro_blocks and _macro_block(node, macro_blocks):
            continue
        if node.is_error or node.is_missing:
            count += 1
            continue
        if node.has_error:
            stack.extend(node.children)
    return count


def error_lines(root: Node, macro_blocks: tuple[str, ...] = ()) -> tuple[tuple[int, int], ...]:
    """Where the grammar failed, as 1-based line spans in source order: the lines of what
    :func:`_loose` finds, a test macro's missing semicolon excused (as :func:`count_errors`
    excuses it)."""
    return tuple(
        sorted(
            {
                _lines(node)
                for node in _loose(root)
                if not (node.is_missing and macro_blocks and _macro_block(node, macro_blocks))
            }
        )
    )


def _lines(node: Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.end_point[0] + 1


def _macro_block(missing: Node, top_level: tuple[str, ...]) -> bool:
    """``missing`` ends ``NAME(...)`` at the top level, and a block follows it."""
    statement = missing.parent
    if statement is None or statement.type != "expression_statement":
        return False
    inside, after, outer = statement.named_children, statement.next_named_sibling, statement.parent
    call = inside[0] if len(inside) == 1 and inside[0].type == "call_expression" else None
    name = call.child_by_field_name("function") if call is not None else None
    return (
        name is not None
        and name.type == "identifier"
        and after is not None
        and after.type == "compound_statement"
        and outer is not None
        and outer.type in top_level
    )


def better_reading(parse: Callable[[bytes], Tree], repaired: bytes, tree: Tree) -> Tree:
    """The better reading of a C or C++ file the grammar failed on (``tree``): as it is, as
    ``repaired`` (its likely macros blanked: ``LanguageSpec.repair``), or as that with the
    words the grammar could still not place blanked too (:func:`_lone_words`, twice at most);
    a reading is kept when less of the text is left loose (:func:`loose_error_bytes`)."""
    best, loose = tree, loose_error_bytes(tree.root_node)
    again = parse(repaired)
    for blanked in range(LONE_ROUNDS + 1):
        left = loose_error_bytes(again.root_node)
        if left < loose:
            best, loose = again, left
        words = _lone_words(again.root_node) if again.root_node.has_error else []
        if not words or blanked == LONE_ROUNDS:
            break
        repaired = _without(repaired, words)
        again = parse(repaired)
    return best


def _lone_words(root: Node) -> list[Node]:
    """The words that stand alone in an ERROR node (its one child an identifier): in C and C++
    mostly a macro the preprocessor expands to nothing or to an attribute (``FAR`` in
    ``struct state FAR *s``, ``ZEXPORT``, ``z_const``), which the grammar cannot place."""
    found: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error and node.child_count == 1 and node.children[0].type in _LONE:
            found.append(node.children[0])
        elif node.has_error or node.is_error:  # a larger ERROR node holds definitions too
            stack.extend(node.children)
    return found


def _without(source: bytes, words: list[Node]) -> bytes:
    """``source`` with each of ``words`` replaced by spaces (lines and columns kept)."""
    text = bytearray(source)
    for word in words:
        text[word.start_byte : word.end_byte] = b" " * (word.end_byte - word.start_byte)
    return bytes(text)
