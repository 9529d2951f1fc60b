"""What a PHP ``foreach`` takes its values from, for :mod:`codeagent.lang.php_calls`: the class
of an array's elements as a docblock states it (:mod:`codeagent.lang.php_docs`): ``foreach
($this->p as $v)`` with ``@var T[]`` over the property ``p``, ``foreach ($x as $k => $v)``
with ``@param T[] $x`` (or ``@var``) in the function; an element of such an array
(``$this->p[$k]``, ``$x[$k]``); a property the class does not declare: ``REF.$p[]``, what a
parent (or a trait) documents its elements to be (its ``b`` row ``$p[]``). Anything else
iterated states none."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_names import Nest
    from codeagent.lang.ts_receivers import Text


class _Calls(Protocol):
    """What is read of :class:`codeagent.lang.php_calls._Calls`."""

    text: Text
    classes: Nest
    elements: dict[tuple[int, str], str]
    arrays: list[tuple[int, int, str, str]]
    props: dict[tuple[int, str], str]


_READ = frozenset({"foreach_statement", "subscript_expression"})


def takes_values(decl: Node, var: Node) -> bool:
    """Whether ``var``, bound by ``decl``, is the value a ``foreach`` takes (not its key)."""
    if decl.type == "foreach_statement":
        return True
    if decl.type != "pair" or decl.parent is None or decl.parent.type != "foreach_statement":
        return False
    return decl.named_children[-1].start_byte == var.start_byte


def of(walk: _Calls, node: Node, at: int) -> str:
    """The class of the values the ``foreach`` (``node``, or its ``pair``) takes, or of the
    element ``node`` (``$this->p[$k]``, ``$x[$k]``) is; ""."""
    loop = node if node.type in _READ else node.parent
    if loop is None or loop.type not in _READ or not loop.named_child_count:
        return ""  # another value (``$x = $y``): none
    iterated, text = loop.named_children[0], walk.text
    if iterated.type == "variable_name":
        name = text(iterated)
        spans = [(s, e, t) for s, e, n, t in walk.arrays if n == name and s <= at < e]
        return max(spans)[2] if spans else ""  # the innermost function's
    if iterated.type != "member_access_expression":
        return ""
    inner, field = iterated.child_by_field_name("object"), iterated.child_by_field_name("name")
    if inner is None or field is None or text(inner) != "$this":
        return ""
    cls, prop = walk.classes.inner(at, at), text(field)
    found = walk.elements.get((cls, prop)) if cls >= 0 else ""
    if found is not None:
        return found
    ref = walk.classes.items[cls]  # a parent's property (or a trait's): its b rows say
    return f"{ref}.${prop}[]" if ref and (cls, prop) not in walk.props else ""
