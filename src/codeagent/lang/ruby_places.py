"""Where a Ruby call stands, for the call walk (:mod:`codeagent.lang.ruby_calls`): the classes
and modules around it (``NEST``: their names joined by ``.``), the method around it, and what
``self`` is there (an instance, the class itself, or neither)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang.ts_names import Nest

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

CLASSES = frozenset({"class", "module"})
FUNCTIONS = frozenset({"method", "singleton_method"})


class Places:
    """The classes, modules and methods of one file (the definitions' nodes: ``defs``, by
    row) and the ``class << self`` bodies (``metas``)."""

    def __init__(self, root: Node, spans: list[tuple[int, int, int]]) -> None:
        """``spans``: the definitions' byte spans ``(start, end, row)``, in source order."""
        self.classes: list[tuple[Node, Node]] = []  # (the class or module, its name)
        self.fns: list[Node] = []
        self.defs: dict[int, Node] = {}  # a definition's row -> its class, module or method
        self.metas: list[Node] = []
        for start, end, row in spans:
            node = root.descendant_for_byte_range(start, end)
            if node is None:
                continue
            if node.type in FUNCTIONS:
                self.fns.append(node)
                self.defs[row] = node
            elif node.type in CLASSES:
                name = node.child_by_field_name("name")
                if name is not None:
                    self.classes.append((node, name))
                    self.defs[row] = node
        self.modes: dict[tuple[int, int], str] = {}  # (method, class) -> self's mode
        self.places: dict[int, tuple[int, int]] = {}  # a row -> (its class, its method)

    def prepare(self, text: Text) -> None:
        """The nests of classes and methods, each class's ``NEST``, once the metas are read."""
        self.nest = Nest([(c.start_byte, c.end_byte, i) for i, (c, _) in enumerate(self.classes)])
        parents, names = self.nest.parents, [text(n).replace("::", ".") for _, n in self.classes]
        self.quals: list[str] = []  # each class's NEST, in the nest's order
        for i, k in enumerate(self.nest.items):
            outer = self.quals[parents[i]] if parents[i] >= 0 else ""
            self.quals.append(f"{outer}.{names[k]}".lstrip(".") if outer else names[k])
        self.functions = Nest([(f.start_byte, f.end_byte, f) for f in self.fns])
        self.at_start = {at: i for i, at in enumerate(self.functions.starts)}
        self.at_start.update((at, i) for i, at in enumerate(self.nest.starts))  # none both
        self.meta_spans = [(m.start_byte, m.end_byte) for m in self.metas]

    def meta(self, start: int) -> tuple[int, int] | None:
        """The ``class << self`` body holding ``start``, if one does."""
        for span in self.meta_spans:
            if span[0] <= start < span[1]:
                return span
        return None

    def place(self, scope: int, span: tuple[int, int]) -> tuple[int, int]:
        """(the class, the method) innermost around a call in the definition ``scope`` (the
        innermost one holding the call: the same for every call in it)."""
        found = self.places.get(scope)
        if found is not None:
            return found
        node = self.defs.get(scope)
        if node is None:  # the top level
            return self.nest.inner(*span), self.functions.inner(*span)
        own, span = self.at_start[node.start_byte], node.byte_range
        if node.type in FUNCTIONS:
            found = self.places[scope] = (self.nest.inner(*span), own)
        else:
            found = self.places[scope] = (own, self.functions.inner(*span))
        return found

    def self_mode(self, fn_at: int, cls: int, start: int) -> str:
        """``i`` where ``self`` is an instance of the class around the place ``start`` (in the
        method ``fn_at``), ``s`` where it is the class, "" where neither is known (a
        singleton class's body)."""
        key = (fn_at, cls)
        if key in self.modes:
            return self.modes[key]
        fn = self.functions.items[fn_at] if fn_at >= 0 else None
        if fn is None or fn.start_byte < self.nest.starts[cls]:  # the class's body
            meta = self.meta(start)
            return "s" if meta is None or meta[0] < self.nest.starts[cls] else ""
        if fn.type == "singleton_method":
            receiver = fn.child_by_field_name("object")
            mode = "s" if receiver is not None and receiver.type == "self" else ""
        else:
            meta = self.meta(fn.start_byte)
            mode = "s" if meta is not None and meta[0] > self.nest.starts[cls] else "i"
        self.modes[key] = mode
        return mode
