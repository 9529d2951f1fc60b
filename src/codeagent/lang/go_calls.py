"""Each Go call's target as the file names it, read from the types the code states (no
inference): resolved across files by :mod:`codeagent.symbols.go_targets`.

    found = read(tree, QueryCursor(Query(lang, GO_CALLS)).matches(root), spans)
    found.calls     # [[line, name, scope], [line, name, scope, "Client.send"], ...]
    found.bindings  # [["Client", "transport", "Transport"], ["Client", "", "Base"], ...]

The forms (a type is written as the file writes it, ``T`` or ``pkg.T``, pointers dropped):

- ``f()``: ``f``, a function of the package (a local variable holding a function: by name);
- ``pkg.F()``, ``T.M()``, ``v.M()`` for a name ``v`` no local of the function declares:
  ``pkg.F`` as written: the graph tells an import's package from a type or a variable;
- ``x.M()`` where ``x`` is the method's receiver, a parameter, or a local declared with a type
  (``var x T``) or bound to a value of one (``x := T{...}``, ``&T{...}``, ``new(T)``; ``x :=
  NewT()``, ``x, err := pkg.NewT()``: ``NewT()``, what ``NewT`` returns first): ``T.M``;
- ``x.f.M()``: ``T.f.M``, the field ``f`` of ``T`` (the struct's fields are the record's
  ``b`` rows, embedded ones with an empty name); ``x.G().M()``: ``T.G().M``; ``x.(T)`` is a
  ``T``. The package-level variables are ``b`` rows too, their owner "" (``["",
  "CommandLine", "NewFlagSet()"]``), and so is the package's name (``["", "", "pflag"]``).

A name bound any other way (a range variable, a type switch's, a value that is neither of
those) leaves its calls by name.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_names import Nest, holding
from codeagent.lang.ts_receivers import Text, reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# The language's call query with what the receiver walk reads, found in one pass in C: the
# calls (0), the declarations (1-5), the struct fields (6, 7).
GO_CALLS = """
(call_expression function: [(identifier) @name
  (selector_expression operand: (_) @obj field: (field_identifier) @name)
  (generic_type type: (type_identifier) @name)]) @call
(parameter_declaration name: (identifier) @var type: (_) @type) @decl
(variadic_parameter_declaration name: (identifier) @var) @decl
(var_spec name: (identifier) @var type: (_)? @type) @decl
(short_var_declaration left: (expression_list (identifier) @var)) @decl
[(range_clause left: (expression_list (identifier) @var))
 (type_switch_statement alias: (expression_list (identifier) @var))
 (receive_statement left: (expression_list (identifier) @var))] @decl
(type_spec name: (type_identifier) @owner type: (struct_type (field_declaration_list
  (field_declaration name: (field_identifier) @var type: (_) @type))))
(type_spec name: (type_identifier) @owner type: (struct_type (field_declaration_list
  (field_declaration . type: (_) @type))))
"""
_VAR_SPEC, _FIELD, _EMBEDDED = 3, 6, 7
_Local = tuple[int, str, "Node", "Node | None"]  # (seen to, the declaration's kind, var, type)
_PARAMETERS = frozenset({"parameter_declaration", "variadic_parameter_declaration"})
_LOOPS = frozenset({"range_clause", "type_switch_statement", "receive_statement"})
_VALUED = frozenset({"var_spec", "short_var_declaration"})


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets, and the structs' typed fields as ``bindings``."""
    root = tree.root_node
    text = reader(root)
    calls: list[dict[str, list[Node]]] = []
    decls: dict[str, list[dict[str, list[Node]]]] = {}  # name -> its declarations' captures
    found = Found()
    clause = root.named_child(0)
    if clause is not None and clause.type == "package_clause" and clause.named_child(0):
        found.bindings.append(["", "", text(clause.named_child(0))])  # the package's name
    tops: list[tuple[Node, Node | None]] = []  # the package-level variables
    for pattern, captures in matches:
        if pattern == 0:
            calls.append(captures)
        elif pattern >= _FIELD:
            owner, written = text(captures["owner"][0]), _type(captures["type"][0], text)
            field = text(captures["var"][0]) if pattern == _FIELD else ""
            if written:
                found.bindings.append([owner, field, written])
        else:
            var = captures["var"][0]
            if pattern == _VAR_SPEC:
                decl = captures["decl"][0]
                if decl.parent and decl.parent.parent == root:
                    typed = captures.get("type")
                    tops.append((var, typed[0] if typed else None))
            name = text(var)
            if name in decls:
                decls[name].append(captures)
            else:
                decls[name] = [captures]
    walk = _Calls(decls, text)
    for top, stated in tops:  # `var CommandLine = NewFlagSet(...)`: NewFlagSet()
        written = walk._typed((root.end_byte, "var_spec", top, stated))
        if written:
            found.bindings.append(["", text(top), written])
    if calls:
        found.calls = walk.rows(calls, spans)
    return found


def _type(node: Node, text: Text) -> str:
    """A type as written, a pointer's target (``*T``: ``T``; ``pkg.T``; ``T[K]``: ``T``); ""
    for a slice, a map, a function type, a channel."""
    kind = node.type
    if kind in ("type_identifier", "qualified_type"):
        return text(node)
    inner = node.named_child(0) if kind in ("pointer_type", "generic_type") else None
    return _type(inner, text) if inner is not None else ""


class _Calls:
    """The declarations of one file, and each call's target read from them."""

    def __init__(self, decls: dict[str, list[dict[str, list[Node]]]], text: Text):
        self.decls, self.text = decls, text
        self.by_name: dict[str, tuple[list[int], list[_Local]]] = {}
        self.depth = 0
        self.types: dict[int, str] = {}  # a declaration's name's offset -> its type

    def rows(
        self, calls: list[dict[str, list[Node]]], spans: list[tuple[int, int, int]]
    ) -> list[list[Any]]:
        scopes = Nest(list(spans))
        inner, scope_rows, text = scopes.inner, scopes.items, self.text
        rows: list[list[Any]] = []
        decls = self.decls
        for captures in calls:
            node = captures["name"][0]
            start, end = node.byte_range
            name = text(node)
            obj = captures.get("obj")
            if obj is None:
                target = name if name not in decls else self._target(None, name, start, node)
            elif obj[0].type == "identifier":
                head = text(obj[0])
                if head not in decls:  # pkg.F, T.M, a package variable's method
                    target = f"{head}.{name}"
                else:
                    local = self._local(head, start)
                    receiver = (self._typed(local) or None) if local is not None else head
                    target = f"{receiver}.{name}" if receiver else None
            else:
                target = self._target(obj[0], name, start, node)
            i = inner(start, end)
            row = [node.start_point[0] + 1, name, scope_rows[i] if i >= 0 else -1]
            rows.append([*row, target] if target else row)
        rows.sort(key=itemgetter(0, 1))
        return rows

    def _target(self, obj: Node | None, name: str, at: int, node: Node) -> str | None:
        if obj is None:
            if node.type == "type_identifier":  # f[T](): a generic function
                return name
            return None if name in self.decls and self._local(name, at) else name
        receiver = self._receiver(obj, at)
        return f"{receiver}.{name}" if receiver else None

    def _receiver(self, obj: Node, at: int) -> str | None:
        kind, text = obj.type, self.text
        if kind == "identifier":
            name = text(obj)
            local = self._local(name, at) if name in self.decls else None
            if local is None:
                return name  # a package, a type, a package variable: the graph tells
            return self._typed(local) or None
        if kind == "selector_expression":  # x.f.M(), pkg.T.M(), pkg.V.M()
            operand, field = obj.child_by_field_name("operand"), obj.child_by_field_name("field")
            owner = self._receiver(operand, at) if operand is not None else None
            return f"{owner}.{text(field)}" if owner and field is not None else None
        if kind == "composite_literal":
            return self._value(obj) or None
        if kind == "call_expression":  # what the call returns: new(T), F(), x.M()
            function, target = obj.child_by_field_name("function"), None
            made = self._value(obj)
            if made or function is None:
                return made or None
            if function.type == "identifier":
                target = self._target(None, text(function), at, function)
            elif function.type == "selector_expression":
                field = function.child_by_field_name("field")
                if field is not None:
                    operand = function.child_by_field_name("operand")
                    target = self._target(operand, text(field), at, function)
            return f"{target}()" if target else None
        if kind in ("unary_expression", "parenthesized_expression"):  # (&x).M(), (x).M()
            inner = obj.child_by_field_name("operand") or obj.named_child(0)
            if kind == "unary_expression" and text(obj)[:1] != "&":
                return None
            return self._receiver(inner, at) if inner is not None else None
        return None

    def _local(self, name: str, at: int) -> _Local | None:
        """The declaration of the local ``name`` seen at ``at`` (None: no local has it)."""
        seen = self.by_name.get(name)
        if seen is None:
            read = sorted(map(_declared, self.decls.get(name, ())))
            seen = self.by_name[name] = ([r[0] for r in read], [r[1][1] for r in read])
        return holding(*seen, at)

    def _typed(self, local: _Local) -> str:
        """The type a declaration states, or its value's ("" when neither says one); read
        once per declaration."""
        _end, kind, var, typed = local
        key = var.start_byte
        found = self.types.get(key)
        if found is None:
            found = self.types[key] = self._read_type(kind, var, typed)
        return found

    def _read_type(self, kind: str, var: Node, typed: Node | None) -> str:
        if typed is not None:
            return _type(typed, self.text)
        value = _value_of(var) if kind in _VALUED else None
        if value is None or self.depth > 8:
            return ""
        self.depth += 1
        try:
            return self._value(value) or (self._receiver(value, value.start_byte) or "")
        finally:
            self.depth -= 1

    def _value(self, value: Node) -> str:
        """The type of a value that states it: ``T{...}``, ``&T{...}``, ``new(T)``."""
        kind = value.type
        if kind == "parenthesized_expression" or (
            kind == "unary_expression" and self.text(value)[:1] == "&"
        ):
            inner = value.named_child(0) if kind == "parenthesized_expression" else None
            inner = inner or value.child_by_field_name("operand")
            return self._value(inner) if inner is not None else ""
        if kind in ("composite_literal", "type_assertion_expression"):  # T{...}, x.(T)
            typed = value.child_by_field_name("type")
            return _type(typed, self.text) if typed is not None else ""
        if kind == "call_expression":
            function = value.child_by_field_name("function")
            if function is not None and self.text(function) == "new":
                args = value.child_by_field_name("arguments")
                first = args.named_child(0) if args is not None else None
                return _type(first, self.text) if first is not None else ""
        return ""


def _declared(captures: dict[str, list[Node]]) -> tuple[int, tuple[int, _Local]]:
    """(seen from, (where, (seen to, kind, name, stated type))) of one declaration."""
    var, decl, typed = captures["var"][0], captures["decl"][0], captures.get("type")
    begin, end = _span(var, decl)
    return (begin, (var.start_byte, (end, decl.type, var, typed[0] if typed else None)))


def _span(var: Node, decl: Node) -> tuple[int, int]:
    """Where a declaration is seen: a parameter in its whole function, a variable from itself
    to the end of the block (or ``if``/``for``/``switch``) around it; a package variable in
    the whole file."""
    kind = decl.type
    if kind in _PARAMETERS:
        holder = decl.parent.parent if decl.parent is not None else None
        return (holder.start_byte, holder.end_byte) if holder is not None else decl.byte_range
    holder = decl.parent
    if kind == "var_spec" and holder is not None:
        holder = holder.parent  # the var_declaration's block
    if kind in _LOOPS:  # the for statement, the switch, the select's case
        holder = decl if kind == "type_switch_statement" else decl.parent
    if holder is None:
        return decl.byte_range
    start = holder.start_byte if holder.type == "source_file" else var.start_byte
    return (start, holder.end_byte)


def _value_of(var: Node) -> Node | None:
    """The value a ``:=`` or ``var x = ...`` gives ``var``: the value at its place, or for the
    first of several names and one call, that call (its first result)."""
    names = var.parent
    if names is None:
        return None
    decl = names if names.type == "var_spec" else names.parent
    if decl is None:
        return None
    values = decl.child_by_field_name("value" if decl.type == "var_spec" else "right")
    if values is None:
        return None
    if names.type == "var_spec":
        left = [c for c in decl.children_by_field_name("name")]
    else:
        left = [c for c in names.named_children if c.type == "identifier"]
    right = values.named_children
    index = next((i for i, c in enumerate(left) if c.byte_range == var.byte_range), -1)
    if len(left) == len(right) and index >= 0:
        return right[index]
    return right[0] if index == 0 and len(right) == 1 else None
