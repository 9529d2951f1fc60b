"""The class of a PHP value as its expression writes it (:mod:`codeagent.lang.php_calls`):
``new T(...)`` makes a ``T`` (``new self``: the class's REF), and ``T::C`` is ``T::``, a case
of ``T`` when ``T`` is an enum (``Level::Error->getName()``; a class's constant may hold
anything, so :mod:`codeagent.symbols.php_targets` ties it only to an enum's method); and the
class a declared type states (``T``, ``?T``, ``T|null``; ``A&B`` is ``A&B``, the method of the
one repository part that declares it: :mod:`codeagent.symbols.php_targets`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from codeagent.lang.php_names import NAMES

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

NEW, CASE = "object_creation_expression", "class_constant_access_expression"
_ONE = frozenset({"optional_type", "named_type", "type_list", "union_type"})
TYPES = _ONE | NAMES | {"intersection_type"}  # a declared type
VALUES = frozenset({NEW, CASE})


class _Calls(Protocol):
    """What is read of :class:`codeagent.lang.php_calls._Calls`."""

    text: Text

    def _whole(self, written: str, at: int) -> str: ...


def of(walk: _Calls, node: Node, at: int) -> str | None:
    """The class ``node`` (``new T(...)``, ``T::C``) states at ``at``, or None."""
    if node.type not in VALUES or not node.named_child_count:
        return None
    named = node.named_children[0]
    if node.type == NEW:
        return walk._whole(walk.text(named), at) or None if named.type in NAMES else None
    if named.type not in NAMES and named.type != "relative_scope":  # ``$x::C``
        return None
    whole = walk._whole(walk.text(named), at)  # ``self::C``, ``static::C``: the class's REF
    return f"{whole}::" if whole and node.named_child_count == 2 else None


def declared(walk: _Calls, node: Node, at: int) -> str:
    """A declared type's class made whole (``?T`` and ``T|null`` are ``T``; ``catch (E $e)``);
    "" for a built-in type, another union or an intersection."""
    kind = node.type
    if kind in _ONE:
        named = [n for n in node.named_children if walk.text(n).lower() != "null"]
        return declared(walk, named[0], at) if len(named) == 1 else ""
    if kind == "intersection_type":  # A&B: resolved where one part has the method asked
        parts = [declared(walk, n, at) for n in node.named_children]
        return "&".join(parts) if all(parts) and len(parts) > 1 else ""
    return walk._whole(walk.text(node), at) if kind in NAMES else ""
