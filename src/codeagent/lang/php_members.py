"""The ``b`` rows of a PHP file (:mod:`codeagent.lang.php_calls`): what its classes' declared
types say, made whole by the file's ``namespace`` and ``use`` where they are written, for
:mod:`codeagent.symbols.php_targets` to follow across files."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from codeagent.lang import php_values

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_names import Nest
    from codeagent.lang.ts_receivers import Text


class _Calls(Protocol):
    """What is read of :class:`codeagent.lang.php_calls._Calls`."""

    text: Text
    classes: Nest
    class_nodes: list[Node]
    members: list[tuple[str, Node]]
    props: dict[tuple[int, str], str]
    elements: dict[tuple[int, str], str]
    sets: list[tuple[Node, Node]]

    def _stated(self, decl: list[Any]) -> str: ...

    def _whole(self, written: str, at: int) -> str: ...


_CLAUSES = ("base_clause", "class_interface_clause")


def rows(walk: _Calls) -> list[list[str]]:
    """``[REF, base as written, base made whole]`` of each named class's bases, ``[REF,
    "use", trait]`` of each trait it uses, ``[REF, "()f", class]`` of each method ``f``
    declared to return a class, ``[REF, "$x", class]`` of each property declared with one
    (``$x[]``: one documented as an array of it), ``[REF, "=$x", class]`` of each the class
    assigns one class to (:func:`assigned`)."""
    found = []
    classes, nodes = walk.classes, sorted(walk.class_nodes, key=lambda n: n.start_byte)
    for node, ref in zip(nodes, classes.items, strict=True):
        for clause in node.named_children if ref else ():
            if clause.type in _CLAUSES:
                for base in clause.named_children:
                    written = walk.text(base)
                    found.append([ref, written, walk._whole(written, base.start_byte)])
    for name, node in walk.members:
        at = node.start_byte
        cls = classes.inner(at, at)
        ref = classes.items[cls] if cls >= 0 else ""
        if name == "use":
            whole = walk._whole(walk.text(node), at)
        else:  # ": static": the class it is called on
            static = walk.text(node).lower().lstrip("?") == "static"
            whole, name = "static" if static else php_values.declared(walk, node, at), f"(){name}"
        if ref and whole:
            found.append([ref, name, whole])
    found += [[classes.items[c], f"${p}", t] for (c, p), t in walk.props.items() if t]
    found += [[classes.items[c], f"${p}[]", t] for (c, p), t in walk.elements.items() if t]
    return found + assigned(walk)


def assigned(walk: _Calls) -> list[list[str]]:
    """``[REF, "=$p", class]`` of each property ``p`` that every ``$this->p = ...`` of its
    class assigns one class (``new T``, a typed parameter, ...): what ``p`` is where nothing
    declares its type (:func:`codeagent.symbols.php_targets._property`)."""
    said: dict[tuple[int, str], set[str]] = {}
    for var, value in walk.sets:
        obj, field = var.child_by_field_name("object"), var.child_by_field_name("name")
        if obj is None or field is None or walk.text(obj) != "$this" or field.type != "name":
            continue
        cls = walk.classes.inner(var.start_byte, var.end_byte)
        if cls >= 0 and walk.classes.items[cls]:
            stated = walk._stated([var, value, None])
            said.setdefault((cls, walk.text(field)), set()).add(stated)
    return [
        [walk.classes.items[c], f"=${p}", one]
        for (c, p), (one, *more) in ((k, sorted(v)) for k, v in said.items())
        if not more and one and not set("(){}|&:") & set(one)
    ]
