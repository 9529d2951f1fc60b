"""What a Ruby class's or module's body says of its ancestors, for the call walk
(:mod:`codeagent.lang.ruby_calls`): ``include A, B``, ``extend self``, ``prepend C`` as rows,
and a module's ``self.included(base)`` hook that extends every class including it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang.ruby_values import CONSTANT

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text


def mixin_rows(call: Node, nest: str, name: str, kind: str, text: Text) -> list[list[str]]:
    """``include A, B`` (``extend self``) in the class or module ``nest``: its rows, each
    ``[nest, kind, the constant]``."""
    args = call.child_by_field_name("arguments")
    return [
        [nest, kind, text(arg)]
        for arg in (args.named_children if args is not None else ())
        if arg.type in CONSTANT or (arg.type == "self" and name == "extend")
    ]


def hooked(call: Node, fn: Node, name: str, text: Text) -> bool:
    """Whether ``call`` (``base.extend M`` or ``base.send(:extend, M)``, of the name
    ``name``) stands in the method ``fn`` named ``included`` (a module's own: the caller
    checks)."""
    named = fn.child_by_field_name("name")
    if named is None or text(named) != "included":
        return False
    if name != "send":
        return name == "extend"
    args = call.child_by_field_name("arguments")  # base.send(:extend, M)
    first = args.named_child(0) if args is not None else None
    return first is not None and text(first).lstrip(":") == "extend"
