"""What a Ruby value or method says of the class it gives, for the call walk
(:mod:`codeagent.lang.ruby_calls`): ``Const.new(..)`` an instance of ``Const``, ``Const`` the
class itself, ``new(..)`` (or ``self.new``) an instance of the class around; a method whose
last statement is such a value, or ``@x ||= `` one (a memoized reader), returns it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

CONSTANT = frozenset({"constant", "scope_resolution"})
UNKNOWN = ("", "")  # a value that says no class
COPIES = frozenset({"dup", "clone"})  # self's copy: an instance of the same class


def value_of(value: Node | None, text: Text) -> tuple[str, str]:
    """(mode, const) of a value: ``Const.new(..)`` (``i``, ``new(..)``: const ""), ``Const``
    (``s``), else :data:`UNKNOWN`."""
    if value is None:
        return UNKNOWN
    if value.type in CONSTANT:
        return ("s", text(value))
    if value.type == "call":
        receiver = value.child_by_field_name("receiver")
        method = value.child_by_field_name("method")
        if method is not None and text(method) == "new":
            if receiver is not None and receiver.type in CONSTANT:
                return ("i", text(receiver))
            if receiver is None or receiver.type == "self" or is_self_class(receiver, text):
                return ("i", "")  # new(..), self.class.new(..): the class around
    return UNKNOWN


def is_self_class(node: Node | None, text: Text) -> bool:
    """Whether ``node`` is ``self.class``."""
    if node is None or node.type != "call":
        return False
    receiver, method = node.child_by_field_name("receiver"), node.child_by_field_name("method")
    return receiver is not None and receiver.type == "self" and text(method) == "class"


def returned(fn: Node, text: Text) -> tuple[str, str] | None:
    """(name, mode + const) of a method whose last statement is ``Const.new(..)`` or ``@x ||=
    Const.new(..)`` (a memoized reader), else None."""
    name, body = fn.child_by_field_name("name"), fn.child_by_field_name("body")
    last = body.named_child(body.named_child_count - 1) if body is not None else None
    if name is None or last is None:
        return None
    if last.type in ("assignment", "operator_assignment"):
        last = last.child_by_field_name("right")
    mode, const = value_of(last, text)
    return (text(name), mode + const) if mode else None
