"""Each Rust call's target as the file names it, read from the paths and the types the code
states (no inference): resolved across the crate by :mod:`codeagent.symbols.rust_targets`.

    found = read(tree, QueryCursor(Query(lang, RUST_CALLS)).matches(root), spans)
    found.calls     # [[line, name, scope], [line, name, scope, "Client.send"], ...]
    found.bindings  # [["Client", "transport", "Transport"], ...]: the structs' typed fields

The forms (a type as the file writes it, ``T`` or ``a::b::T``, without references and generic
arguments; ``Self``: the type of the ``impl`` around the call):

- ``f()``: ``f`` (a local holding a closure: by name); ``a::b::f()``, ``T::f()``,
  ``Self::f()``: the path as written (``T::<u8>::f``: ``T::f``; ``<T as Tr>::f``: by name);
- ``self.f()``: ``T.f``; ``x.f()`` where ``x`` is a parameter or a ``let`` with a stated type
  (``x: &T``, ``let x: T``; ``dyn Tr``, ``impl Tr``: ``Tr``) or a value that states one (``T {
  .. }``, ``T::new(..)``: ``T::new()``, what its signature returns): ``T.f``; ``x: &mut T``:
  ``*T.f`` (another crate's trait's method is then its impl for ``&mut``, as rustc picks);
- ``x.a.f()``: ``T.a.f``, the field ``a`` of ``T`` (the struct's typed fields are the
  record's ``b`` rows); ``x.g().f()``: ``T.g().f``.

A call inside an inline ``mod m { .. }`` has the module's path before a ``|`` (``m|T::f``). A
name bound any other way (a pattern of ``if let``, ``match``, ``for``, a closure's parameter, a
tuple) leaves its calls by name.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from codeagent.lang.rust_types import Local, declared, written_path, written_type
from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_names import Nest, call_rows, holding
from codeagent.lang.ts_receivers import Text, reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# The language's call query with what the receiver walk reads, found in one pass in C: the
# calls (0), the declarations (1-3), impl and trait blocks (4), inline modules (5), fields (6,
# 7: a tuple struct's are named by their place), generic parameters' first bounds (8), the
# names a tuple struct's or a variant's pattern binds (9), variants' fields (10: ``V.0``).
RUST_CALLS = """
(call_expression function: [
  (identifier) @name
  (scoped_identifier name: (identifier) @name) @path
  (field_expression value: (_) @obj field: (field_identifier) @name)
  (generic_function function: [(identifier) @name
                               (scoped_identifier name: (identifier) @name) @path
                               (field_expression value: (_) @obj
                                                 field: (field_identifier) @name)])]) @call
(parameter pattern: (identifier) @var type: (_) @type) @decl
(let_declaration pattern: (identifier) @var type: (_)? @type) @decl
[(match_pattern (identifier) @var)
 (closure_parameters (identifier) @var)
 (for_expression pattern: (identifier) @var)
 (let_declaration pattern: (tuple_pattern (identifier) @var))] @decl
[(impl_item type: (_) @type body: (declaration_list) @body)
 (trait_item name: (type_identifier) @type body: (declaration_list) @body)]
(mod_item name: (identifier) @var body: (declaration_list) @body)
(struct_item name: (type_identifier) @owner body: (field_declaration_list
  (field_declaration name: (field_identifier) @var type: (_) @type)))
(struct_item name: (type_identifier) @owner body: (ordered_field_declaration_list type: (_) @type))
[(type_parameter name: (type_identifier) @var bounds: (trait_bounds . (_) @type))
 (where_predicate left: (type_identifier) @var bounds: (trait_bounds . (_) @type))] @bound
(tuple_struct_pattern type: (_) @path [(identifier) @var (mut_pattern (identifier) @var)
  (ref_pattern [(identifier) @var (mut_pattern (identifier) @var)])]) @decl
(enum_item name: (type_identifier) @owner body: (enum_variant_list (enum_variant
  name: (identifier) @var body: (ordered_field_declaration_list type: (_) @type))))
"""
_CALL, _IMPL, _MOD, _FIELD, _TUPLE, _BOUND, _VARIANT = 0, 4, 5, 6, 7, 8, 10


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets, and the structs' typed fields as ``bindings``."""
    text = reader(tree.root_node)
    calls: list[dict[str, list[Node]]] = []
    decls: dict[str, list[dict[str, list[Node]]]] = {}  # name -> its declarations' captures
    impls: list[tuple[int, int, str]] = []
    mods: list[tuple[int, int, str]] = []
    bounds: list[tuple[int, int, str, str]] = []  # a generic parameter's item, name, first bound
    found = Found()
    for pattern, captures in matches:
        if pattern == _CALL:
            calls.append(captures)
        elif pattern == _IMPL:
            body = captures["body"][0]
            own = written_type(captures["type"][0], text, "").lstrip("*")
            impls.append((body.start_byte, body.end_byte, own))
        elif pattern == _MOD:
            body = captures["body"][0]
            mods.append((body.start_byte, body.end_byte, text(captures["var"][0])))
        elif pattern in (_FIELD, _TUPLE, _VARIANT):
            typed = captures["type"][0]
            written = written_type(typed, text, "")
            if pattern != _FIELD and typed.parent is not None:
                field = str(typed.parent.children_by_field_name("type").index(typed))
                field = f"{text(captures['var'][0])}.{field}" if pattern == _VARIANT else field
            else:
                field = text(captures["var"][0])
            if written:
                found.bindings.append([text(captures["owner"][0]), field, written])
        elif pattern == _BOUND:
            holder = captures["bound"][0].parent
            holder = holder.parent if holder is not None else None
            bound = written_type(captures["type"][0], text, "")
            if holder is not None and bound:
                bounds.append((holder.start_byte, holder.end_byte, text(captures["var"][0]), bound))
        else:
            name = text(captures["var"][0])
            if name in decls:
                decls[name].append(captures)
            else:
                decls[name] = [captures]
    if calls:
        walk = _Calls(decls, text, Nest(impls), Nest(mods))
        walk.bounds = bounds
        found.calls = walk.rows(calls, spans)
    return found


class _Calls:
    """The declarations of one file, and each call's target read from them."""

    def __init__(
        self, decls: dict[str, list[dict[str, list[Node]]]], text: Text, impls: Nest, mods: Nest
    ):
        self.decls, self.text, self.impls, self.mods = decls, text, impls, mods
        self.by_name: dict[str, tuple[list[int], list[Local]]] = {}
        self.depth = 0
        self.types: dict[int, str] = {}  # a declaration's name's offset -> its type
        self.bounds: list[tuple[int, int, str, str]] = []

    def rows(
        self, calls: list[dict[str, list[Node]]], spans: list[tuple[int, int, int]]
    ) -> list[list[Any]]:
        return call_rows(calls, spans, self.text, self._written)

    def _written(self, captures: dict[str, list[Node]], name: str, at: int, _: int) -> str | None:
        """The call's target, behind the inline modules holding it (``a.b|T::f``)."""
        target = self._target(captures, name, at, self._own(at))
        if target and self.mods.items:
            module = self._module(at)
            target = f"{module}|{target}" if module else target
        return target

    def _own(self, at: int) -> str:
        """The type of the ``impl`` block holding ``at`` ("" outside one)."""
        i = self.impls.inner(at, at)
        return self.impls.items[i] if i >= 0 else ""

    def _module(self, at: int) -> str:
        """The dotted path of the inline modules holding ``at``."""
        mods, names = self.mods, []
        i = mods.inner(at, at)
        while i >= 0:
            names.append(mods.items[i])
            i = mods.parents[i]
        return ".".join(reversed(names))

    def _target(self, captures: dict[str, list[Node]], name: str, at: int, own: str) -> str | None:
        path = captures.get("path")
        if path is not None:
            return written_path(path[0], self.text, own)
        obj = captures.get("obj")
        if obj is None:  # f(): a local closure stays by name
            return None if name in self.decls and self._local(name, at) else name
        receiver = self._receiver(obj[0], at, own)
        return f"{receiver}.{name}" if receiver else None

    def _receiver(self, obj: Node, at: int, own: str) -> str | None:
        kind, text = obj.type, self.text
        if kind == "self":
            return own or None
        if kind == "identifier":
            name = text(obj)
            local = self._local(name, at) if name in self.decls else None
            return (self._typed(local, own) or None) if local is not None else None
        if kind == "field_expression":  # x.a.f()
            value, field = obj.child_by_field_name("value"), obj.child_by_field_name("field")
            owner = self._receiver(value, at, own) if value is not None else None
            if (
                owner
                and field is not None
                and field.type in ("field_identifier", "integer_literal")
            ):
                return f"{owner}.{text(field)}"
            return None
        if kind in ("parenthesized_expression", "reference_expression"):
            inner = obj.child_by_field_name("value") or obj.named_child(0)
            return self._receiver(inner, at, own) if inner is not None else None
        return self._value(obj, at, own) or None

    def _value(self, value: Node, at: int, own: str) -> str:
        """The type a value states: ``T { .. }``: ``T``; ``T::f(..)``: ``T::f()``;
        ``x.g(..)``: ``T.g()``."""
        kind = value.type
        if kind == "struct_expression":
            name = value.child_by_field_name("name")
            return written_type(name, self.text, own) if name is not None else ""
        if kind == "call_expression":
            function = value.child_by_field_name("function")
            if function is not None and function.type == "generic_function":
                function = function.child_by_field_name("function")
            if function is None:
                return ""
            if function.type in ("scoped_identifier", "identifier"):
                called = written_path(function, self.text, own)
                return f"{called}()" if called else ""
            if function.type == "field_expression":
                obj, field = map(function.child_by_field_name, ("value", "field"))
                receiver = self._receiver(obj, at, own) if obj is not None else None
                return f"{receiver}.{self.text(field)}()" if receiver and field else ""
        if kind in ("parenthesized_expression", "reference_expression"):
            inner = value.child_by_field_name("value") or value.named_child(0)
            return self._value(inner, at, own) if inner is not None else ""
        if kind in ("field_expression", "identifier", "self"):  # let x = &self.a; let y = x;
            return self._receiver(value, at, own) or ""
        return ""

    def _local(self, name: str, at: int) -> Local | None:
        """The declaration of the local ``name`` seen at ``at`` (None: no local has it)."""
        seen = self.by_name.get(name)
        if seen is None:
            read = sorted(map(declared, self.decls.get(name, ())), key=itemgetter(0))
            seen = self.by_name[name] = ([r[0] for r in read], [r[1] for r in read])
        return holding(*seen, at)

    def _typed(self, local: Local, own: str) -> str:
        """The type a declaration states, or its value's ("" when neither says one); read
        once per declaration."""
        _end, decl, typed = local
        key = decl.start_byte
        found = self.types.get(key)
        if found is None:
            found = self.types[key] = self._read_type(decl, typed, own)
        return found

    def _read_type(self, decl: Node, typed: Node | None, own: str) -> str:
        if decl.type == "tuple_struct_pattern" and typed is not None:  # V(x): V's field's type
            head = decl.child_by_field_name("type")
            path = written_path(head, self.text, own) if head is not None else None
            held = [c for c in decl.named_children if c.start_byte > head.end_byte] if head else []
            at = next((i for i, c in enumerate(held) if c.start_byte <= typed.start_byte
                       and typed.end_byte <= c.end_byte), -1)  # fmt: skip
            return f"{path}#{at}" if path and at >= 0 else ""
        if typed is not None:
            written = written_type(typed, self.text, own)
            bare = written.lstrip("*")
            at = decl.start_byte
            for start, end, name, bound in self.bounds:  # v: &mut V, V: Visitor: *Visitor
                if name == bare and start <= at < end:
                    written = written.replace(bare, bound.lstrip("*"), 1)
            return written
        value = decl.child_by_field_name("value") if decl.type == "let_declaration" else None
        if value is None or self.depth > 8:
            return ""
        self.depth += 1
        try:
            return self._value(value, value.start_byte, own)
        finally:
            self.depth -= 1
