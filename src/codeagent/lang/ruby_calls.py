"""Each Ruby call's target as the file names it, read from what the code says of the receiver
(no inference): resolved across files by :mod:`codeagent.symbols.ruby_targets`.

    found = read(tree, QueryCursor(Query(lang, RUBY_CALLS)).matches(root), spans)
    found.calls     # [[line, name, scope], [line, name, scope, "iHTTParty.Request|#perform"]]
    found.bindings  # [["HTTParty.Request", "include", "Helpers"], ["A.B", "<<", "build"]]

A target is ``MODE NEST|CONST#NAME``: ``NEST`` the classes and modules around the call (their
names joined by ``.``, ``Foo::Bar`` as ``Foo.Bar``), ``CONST`` a constant as written there,
looked up from ``NEST`` outwards ("" is ``NEST`` itself), ``MODE`` ``i`` (a method of an
instance of it), ``s`` (a method of the class or module itself) or ``n`` (``new``: its
``initialize``). The forms:

- ``f(..)``, ``self.f``: ``self`` of the method around it: an instance in a ``def f``, the
  class in a ``def self.f``, in ``class << self`` and in the class's body;
- ``Const.f``, ``A::B.f``: ``s``; ``Const.new``: ``n``; ``Const.new(..).f``: ``i``;
  ``self.class.f``: ``s`` of the class around it (at the top level, outside every class:
  these constant forms only, ``NEST`` "");
- ``x.f`` for a local ``x`` every assignment of which in the method (or body) around it is
  ``Const.new(..)`` (``i``) or ``Const`` (``s``), and which no parameter of the method or its
  blocks names; ``@x.f`` likewise for ``@x`` over the class around it in the file; assigned
  two classes, ``CONST`` is both (``A,B``), tied where both reach the same method;
- ``reader.f``, ``self.reader.f`` in an instance method, ``reader`` bound by no assignment or
  parameter there: ``CONST`` is ``>reader``, ``f`` of what ``self``'s method ``reader``
  returns where its last statement says (``Const.new(..)``, ``@x ||= Const.new(..)``);
  ``Const.reader.f``: ``Const>reader``, the same of the class's (or module's) own ``reader``;
  ``reader(..).f`` (a method of ``self`` called with arguments) likewise;
- ``dup.f``, ``clone.f``, ``self.dup.f`` and ``self.class.new(..).f`` in an instance method,
  ``new.f`` in the class: ``i`` of the class around (``CONST`` "": a copy of ``self``, a new
  one of its class).

The ``b`` rows: a class's or module's ``include``/``extend``/``prepend`` of constants (and
``extend self``), the names ``class << self`` defines (``<<``), and what a method's last
statement returns (``>name``, ``>>name`` for the class's own, ``iConst``). Anything else (a
value a method returns otherwise, a block's ``self``) leaves the call by name.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from codeagent.lang.ruby_mixins import hooked, mixin_rows
from codeagent.lang.ruby_places import Places
from codeagent.lang.ruby_values import (
    CONSTANT,
    COPIES,
    UNKNOWN,
    is_self_class,
    returned,
    value_of,
)
from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_names import call_rows
from codeagent.lang.ts_receivers import reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from codeagent.lang.ts_receivers import Text

# The language's call query with what the walk reads, found in one pass in C: the calls (0),
# the assignments (1, 2), ``class << self`` (3), the parameter lists (4) and the other ways a
# name is bound (5). The classes, modules and methods are the definitions' (their spans).
RUBY_CALLS = """
(call receiver: (_)? @obj method: (identifier) @name) @call
(assignment left: [(identifier) (instance_variable)] @var right: (_) @value)
(operator_assignment left: [(identifier) (instance_variable)] @var right: (_) @value)
(singleton_class value: (self)) @meta
[(method_parameters) (block_parameters) (lambda_parameters)] @params
[(left_assignment_list (_) @var) (exception_variable (_) @var) (for pattern: (_) @var)]
"""
_META, _PARAMS = 3, 4
_MIXINS = frozenset({"include", "extend", "prepend"})
_HOOKED = frozenset({"extend", "send"})  # base.extend M in a self.included(base)


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets (``spans``: the definitions' byte spans ``(start,
    end, row)``, a call's scope the innermost one holding its name) and the mixins' rows."""
    root = tree.root_node
    walk = _Calls(reader(root), Places(root, spans))
    calls: list[dict[str, list[Node]]] = []
    for pattern, captures in matches:
        if pattern == 0:
            calls.append(captures)
        elif pattern <= 2:
            walk.sets.append((captures["var"][0], captures["value"][0]))
        elif pattern == _META:
            walk.where.metas.append(captures["meta"][0])
        elif pattern == _PARAMS:
            walk.params.append(captures["params"][0])
        else:
            walk.sets.append((captures["var"][0], None))
    found = Found()
    if walk.where.classes:  # a class's rows even where the file calls nothing (class << self)
        walk.prepare()
        found.bindings = walk.rows
    found.calls = call_rows(calls, spans, walk.text, walk.target if walk.where.classes else _no)
    return found


def _no(*_: object) -> None:  # no class in the file: every call by name
    return None


class _Calls:
    """The classes, methods and bindings of one file, and each call's target."""

    def __init__(self, text: Text, where: Places) -> None:
        self.text, self.where = text, where
        self.sets: list[tuple[Node, Node | None]] = []  # (a variable, its value or None)
        self.params: list[Node] = []
        self.rows: list[list[str]] = []
        self.variables: dict[tuple[str, int, int], tuple[str, str]] = {}  # (name, method, class)

    def prepare(self) -> None:
        """The nest of classes, the methods' spans and every binding, once every match is
        read."""
        text, where = self.text, self.where
        where.prepare(text)
        self.nest, self.quals, self.functions = where.nest, where.quals, where.functions
        self._self_mode, self._place = where.self_mode, where.place
        # name (@name) -> [(where it is bound, the value, read when a call asks)]
        self.bound: dict[str, list[tuple[int, Node | None]]] = {}
        for var, value in self.sets:
            self.bound.setdefault(text(var), []).append((var.start_byte, value))
        params = sorted((p.start_byte, text(p)) for p in self.params)
        self.param_starts = [at for at, _ in params]
        self.param_texts = [written for _, written in params]
        for fn in where.fns:  # class << self: its methods are the class's own
            cls = self.nest.inner(*fn.byte_range)
            if cls < 0 or self.nest.starts[cls] >= fn.start_byte:
                continue
            kind = ">>" if fn.type == "singleton_method" else ">"
            if kind == ">" and where.meta(fn.start_byte) is not None:
                kind, name = ">>", fn.child_by_field_name("name")
                if name is not None:
                    self.rows.append([self.quals[cls], "<<", text(name)])
            found = returned(fn, text)  # a memoized reader's row, kind + its name
            if found is not None:
                self.rows.append([self.quals[cls], kind + found[0], found[1]])

    def target(
        self, captures: dict[str, list[Node]], name: str, start: int, scope: int
    ) -> str | None:
        """The target of one call (its captures; ``start``: where its name is; ``scope``:
        the definition around it)."""
        call = captures["call"][0]
        span = call.byte_range
        cls, fn_at = self._place(scope, span)
        at = span[0]
        nest = self.quals[cls] if cls >= 0 else ""
        obj = captures.get("obj")
        receiver = obj[0] if obj else None
        kind = receiver.type if receiver is not None else ""
        if cls < 0 and kind not in CONSTANT and kind != "call":
            return None  # the top level: a constant's methods only (Const.new(..).f too)
        if not kind or kind == "self":
            mode = self._self_mode(fn_at, cls, at)
            if not kind and name in _MIXINS and mode == "s":
                self.rows += mixin_rows(call, nest, name, name, self.text)
            if name == "new" and mode == "s":  # new(..) in the class: its initialize
                mode = "n"
            return f"{mode}{nest}|#{name}" if mode else None
        assert receiver is not None
        if kind in CONSTANT:
            return f"{'n' if name == 'new' else 's'}{nest}|{self.text(receiver)}#{name}"
        mode, const = UNKNOWN
        if kind == "call":
            inner = receiver.child_by_field_name("receiver")
            method = self.text(receiver.child_by_field_name("method"))
            inside = inner.type if inner is not None else ""
            if method == "new" and inside in CONSTANT:
                mode, const = "i", self.text(inner)
            elif inside in CONSTANT:  # Const.reader.f: what the class's reader returns
                mode, const = "i", f"{self.text(inner)}>{method}"
            elif cls < 0:  # no self at the top level
                return None
            elif method == "new" and (not inside or inside == "self"):  # new(..).f in the class
                mode = "i" if self._self_mode(fn_at, cls, at) == "s" else ""
            elif method == "class" and inside == "self":
                mode = "s" if self._self_mode(fn_at, cls, at) == "i" else ""
            elif self._self_mode(fn_at, cls, at) == "i" and (
                not inside
                or inside == "self"
                or (method == "new" and is_self_class(inner, self.text))
            ):  # self.reader.f, reader(..).f: what reader returns; dup.f, self.class.new(..).f
                mode, const = "i", "" if method in COPIES or method == "new" else ">" + method
        elif kind in ("identifier", "instance_variable"):
            mode, const = self._variable(receiver, fn_at, cls, at)
            if kind == "identifier" and name in _HOOKED:
                self._hook(call, fn_at, cls, nest, name)
        if not mode:
            return None
        return f"{'n' if name == 'new' else mode}{nest}|{const}#{name}"

    def _variable(self, var: Node, fn_at: int, cls: int, start: int) -> tuple[str, str]:
        """(mode, const) of a local or instance variable at ``call``: every binding agrees; a
        name no assignment or parameter of the method binds is a call of ``self``'s method
        (``>name``: what it returns)."""
        name = self.text(var)
        if name[0] == "@":  # read once per class, in its instance methods
            if self._self_mode(fn_at, cls, start) != "i":
                return UNKNOWN
            key = (name, -2, cls)
        else:
            key = (name, fn_at, cls)
        found = self.variables.get(key)
        if found is None:
            found = self.variables[key] = self._bound(name, fn_at, cls, start)
        return found

    def _bound(self, name: str, fn_at: int, cls: int, at: int) -> tuple[str, str]:
        bound = self.bound.get(name, ())
        if name[0] == "@":  # over the class's instance methods in the file
            start, end = self.nest.starts[cls], self.nest.ends[cls]
            values = {value_of(v, self.text) for at, v in bound if start <= at < end}
        else:  # over the method (or the body) around the call
            start = self.functions.starts[fn_at] if fn_at >= 0 else self.nest.starts[cls]
            end = self.functions.ends[fn_at] if fn_at >= 0 else self.nest.ends[cls]
            values = {value_of(v, self.text) for at, v in bound if start <= at < end}
            lo, hi = bisect_left(self.param_starts, start), bisect_left(self.param_starts, end)
            for text in self.param_texts[lo:hi]:
                if name in text and re.search(rf"\b{re.escape(name)}\b", text):
                    return UNKNOWN  # a parameter of the method or of a block in it
            if not values:  # never bound here: self's method of that name (dup: a copy)
                mode = self._self_mode(fn_at, cls, at)
                if mode != "i":  # new.f in the class: an instance of it
                    return ("i", "") if mode == "s" and name == "new" else UNKNOWN
                return ("i", "" if name in COPIES else ">" + name)
        modes = {mode for mode, _ in values}
        if UNKNOWN in values or len(modes) != 1:
            return UNKNOWN
        return modes.pop(), ",".join(sorted(const for _, const in values))  # A,B: each

    def _hook(self, call: Node, fn_at: int, cls: int, nest: str, name: str) -> None:
        """``base.extend M`` (``base.send(:extend, M)``) in a module's ``self.included(base)``:
        what every class including the module gets on itself, as ``+extend`` rows."""
        fn: Node | None = self.functions.items[fn_at] if fn_at >= 0 else None
        if fn is None or self._self_mode(fn_at, cls, fn.start_byte) != "s":
            return
        if hooked(call, fn, name, self.text):
            self.rows += mixin_rows(call, nest, "extend", "+extend", self.text)
