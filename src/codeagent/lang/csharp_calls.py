"""Each C# call's target as the file names it, read from the declared types the code states
(no inference), in Java's forms (:mod:`codeagent.lang.java_calls`): resolved across files by
:mod:`codeagent.symbols.java_targets`, which finds a C# type by namespace
(:mod:`codeagent.symbols.csharp_targets`).

- ``this.F()``: ``REF.F``; ``base.F()``: ``^REF.F``; ``F()``: ``~REF.F`` (the class's own or
  inherited ``F``, else an enclosing class's, else one a ``using static`` brings);
- ``x.F()`` and ``x?.F()`` where ``x`` is a local, a parameter, a field or a property of an
  enclosing class declared with a type ``T`` (``T x``, ``List<T>`` is ``List``, ``T?`` is
  ``T``, ``var x = new T()``): ``T.F``; ``this.x.F()`` the same for the field; ``T.F()`` and
  ``A.B.T.F()`` where the first name is no variable: the type as written; ``new T().F()``,
  ``((T) x).F()`` and ``(x as T).F()``: ``T.F``;
- ``x.G().F()``: ``T.G().F``: ``F`` of what ``T.G`` is declared to return;
- ``new T(...)``: ``=T``, the class itself; each with its number of arguments (``T.F#2``).
  Where ``T`` has no method ``F``, ``F`` may be an extension method
  (:func:`codeagent.symbols.csharp_targets.extension`).

A name declared without a type (a lambda's parameter, ``var x = f()``), an array, a built-in
and a delegate held in a variable leave the call by name; so does an extension method called
on one of those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang.java_calls import _Calls
from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_receivers import reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from codeagent.lang.ts_receivers import Text

_NAME = "[(identifier) @name (generic_name (identifier) @name)]"
# The calls (0, 1), the declarations with a type or without (2-9), the fields and properties
# (10), the types (11) and the global usings (12), found in one pass in C. A record's ``b``
# rows: each field's and property's type ``[REF, name, type]``, each ``global using A.B`` as
# ``["", "using", "A.B"]``.
CSHARP_CALLS = f"""
(invocation_expression function: [
  (identifier) @name
  (generic_name (identifier) @name)
  (member_access_expression expression: _ @obj name: {_NAME})
  (conditional_access_expression condition: (_) @obj
    . (member_binding_expression name: {_NAME}))]) @call
(object_creation_expression type: [(identifier) @name (generic_name (identifier) @name)
                                   (qualified_name name: {_NAME})]) @call
(local_declaration_statement
  (variable_declaration type: (_) @type (variable_declarator name: (identifier) @var))) @decl
(parameter type: (_)? @type name: (identifier) @var) @decl
(foreach_statement type: (_) @type left: (identifier) @var) @decl
(using_statement
  (variable_declaration type: (_) @type (variable_declarator name: (identifier) @var))) @decl
(declaration_pattern type: (_) @type name: (identifier) @var) @decl
(declaration_expression type: (_) @type name: (identifier) @var) @decl
(catch_declaration type: (_) @type name: (identifier) @var) @decl
(lambda_expression parameters: (implicit_parameter) @var) @decl
[(field_declaration
   (variable_declaration type: (_) @type (variable_declarator name: (identifier) @var)))
 (property_declaration type: (_) @type name: (identifier) @var)]
[(class_declaration) (struct_declaration) (interface_declaration) (record_declaration)] @cls
(using_directive "global" !name [(qualified_name) (identifier)] @global)
"""
_DECLS = range(2, 10)
_FIELD, _CLASS, _GLOBAL = 10, 11, 12
# Where a declaration is seen: a local, a pattern's or an ``out var``'s: from itself to the
# end of the block around it; a parameter: the whole method, constructor, lambda or local
# function; a caught exception: its catch clause; a foreach's, a using's, an untyped lambda
# parameter's: that statement or lambda.
_AROUND = {"parameter": 2, "catch_declaration": 1}
_OWN = frozenset({"foreach_statement", "using_statement", "lambda_expression"})
_BLOCKS = frozenset({"block", "switch_section", "declaration_list", "arrow_expression_clause"})
_STRINGS = frozenset({"string_literal", "verbatim_string_literal", "interpolated_string_expression",
                      "raw_string_literal"})  # fmt: skip
# C#'s keywords for System's types (``string s``, ``string.Join(..)``)
_BUILT_IN = {
    "string": "String", "object": "Object", "int": "Int32", "long": "Int64", "bool": "Boolean",
    "double": "Double", "char": "Char", "decimal": "Decimal",
}  # fmt: skip


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets (``spans``: the definitions' byte spans ``(start,
    end, row)``, a call's scope the innermost one holding its name)."""
    text = reader(tree.root_node)
    calls: list[tuple[int, dict[str, list[Node]]]] = []
    decls: dict[str, list[dict[str, list[Node]]]] = {}
    fields: list[tuple[Node, str, str, str]] = []  # (name, its name, type, element type)
    classes: list[tuple[int, int, str]] = []
    usings: list[list[str]] = []
    for pattern, captures in matches:
        if pattern < 2:
            calls.append((pattern, captures))
        elif pattern in _DECLS:
            decls.setdefault(text(captures["var"][0]), []).append(captures)
        elif pattern == _FIELD:
            var, typed = captures["var"][0], captures["type"][0]
            fields.append((var, text(var), _type(typed, text), _element(typed, text)))
        elif pattern == _GLOBAL:  # global using A.B: for every file of the project
            usings.append(["", "using", "".join(text(captures["global"][0]).split())])
        else:
            node = captures["cls"][0]
            named = node.child_by_field_name("name")
            ref = f"{text(named)}@{named.start_point[0] + 1}" if named is not None else ""
            classes.append((node.start_byte, node.end_byte, ref))
    found = Found()
    if calls or fields:
        walk = _CsharpCalls(decls, fields, classes, text)
        found.calls = walk.rows(calls, spans) if calls else []
        found.bindings = walk.typed_fields()
    found.bindings = [*(found.bindings or ()), *usings]
    return found


def _type(node: Node, text: Text) -> str:
    """A declared type as written (``List<T>``: ``List``; ``A.B.T``; ``T?``: ``T``; ``string``:
    ``String``), ``var x = new T(...)`` as ``T``; "" for an array, ``var`` with anything
    else."""
    kind = node.type
    if kind == "identifier":
        return text(node)
    if kind == "qualified_name":
        written = "".join(text(node).split())
        return "" if "<" in written else written.removeprefix("global::")
    if kind in ("generic_name", "nullable_type"):
        inner = node.named_child(0)
        return _type(inner, text) if inner is not None else ""
    if kind == "implicit_type":
        return _var_type(node, text)
    return _BUILT_IN.get(text(node), "") if kind == "predefined_type" else ""


def _element(node: Node, text: Text) -> str:
    """The type of an element of a collection declared as ``node``: ``T[]``, or a generic type
    of one argument (``List<T>``, ``IEnumerable<T>``); else ""."""
    if node.type == "array_type":
        inner = node.child_by_field_name("type")
        return _type(inner, text) if inner is not None else ""
    if node.type == "generic_name":
        arguments = node.named_child(1)
        if arguments is not None and arguments.named_child_count == 1:
            return _type(arguments.named_child(0), text)
    return ""


# what a ``var``'s value is made as: ``new T(..)``, ``(T) y``, ``y as T``
_MADE = {"object_creation_expression": "type", "cast_expression": "type", "as_expression": "right"}


def _var_type(node: Node, text: Text) -> str:
    """``var``'s type where its declarator's value says it: ``new T(...)``, ``(T) y`` and ``y
    as T`` are ``T``. (``var x = T.Make()`` by what ``Make`` is declared to return tied 3 more
    of serilog's 1,631 sites, for about a point of the phase's cost where it is near its
    bound: not read.)"""
    holder = node.parent
    if holder is None or holder.type != "variable_declaration":
        return ""
    declarator = holder.named_child(holder.named_child_count - 1)
    value = declarator.named_child(declarator.named_child_count - 1) if declarator else None
    field = _MADE.get(value.type) if value is not None else None
    made = value.child_by_field_name(field) if value is not None and field else None
    return _type(made, text) if made is not None else ""


class _CsharpCalls(_Calls):
    """Java's walk (the declarations, fields and classes of one file) with C#'s receivers."""

    base = "base"

    def __init__(
        self,
        decls: dict[str, list[dict[str, list[Node]]]],
        fields: list[tuple[Node, str, str, str]],
        classes: list[tuple[int, int, str]],
        text: Text,
    ) -> None:
        super().__init__(decls, [f[:3] for f in fields], classes, text)
        self.elements: dict[tuple[int, str], str] = {}  # (class, field) -> its element type
        for var, name, _written, element in fields:
            if element:
                self.elements[(self.classes.inner(var.start_byte, var.end_byte), name)] = element

    def declared(self, captures: dict[str, list[Node]]) -> tuple[int, int, str]:
        node = captures["decl"][0]
        typed = captures.get("type")
        written = _type(typed[0], self.text) if typed else ""
        kind, start = node.type, node.start_byte
        if kind == "foreach_statement" and typed and typed[0].type == "implicit_type":
            written = self._element(node.child_by_field_name("right"), start)  # an element's
        if kind in _OWN:
            return (start, node.end_byte, written)
        holder: Node | None = node.parent
        for _ in range(_AROUND.get(kind, 1) - 1):
            holder = holder.parent if holder is not None else None
        if kind in ("declaration_pattern", "declaration_expression"):
            while holder is not None and holder.type not in _BLOCKS:
                holder = holder.parent
        if holder is None:
            return (start, node.end_byte, written)
        return (holder.start_byte if kind in _AROUND else start, holder.end_byte, written)

    def _element(self, right: Node | None, at: int) -> str:
        """The type of an element of ``right`` (a local, a parameter or a field declared as
        ``T[]``, or as a generic type of one argument: ``List<T>``), else ""."""
        if right is not None and right.type == "member_access_expression":
            inner = right.child_by_field_name("expression")
            right = right.child_by_field_name("name") if inner and inner.type == "this" else None
        if right is None or right.type != "identifier":
            return ""
        name = self.text(right)
        for captures in self.decls.get(name, ()):
            typed = captures.get("type")
            if typed and captures["decl"][0].type != "foreach_statement":
                begin, end, _written = self.declared(captures)
                if begin <= at < end:
                    return _element(typed[0], self.text)
        cls = self.classes.inner(at, at)
        while cls >= 0:
            if (cls, name) in self.elements:
                return self.elements[(cls, name)]
            cls = self.classes.parents[cls]
        return ""

    def _target(self, obj: Node | None, name: str, at: int) -> str | None:
        if obj is None and self._variable(name, at) is not None:
            return None  # a delegate held in a variable
        return super()._target(obj, name, at)

    def _receiver(self, obj: Node, at: int) -> str | None:
        kind, text = obj.type, self.text
        if kind in ("identifier", "this", self.base):  # as Java's
            return super()._receiver(obj, at)
        if kind == "predefined_type":
            return _BUILT_IN.get(text(obj))
        if kind in _STRINGS:
            return "String"
        if kind == "member_access_expression":
            inner, field = obj.child_by_field_name("expression"), obj.child_by_field_name("name")
            if inner is None or field is None:
                return None
            if inner.type == "this":
                cls = self.classes.inner(at, at)
                return self.fields.get((cls, text(field))) or None if cls >= 0 else None
            written = "".join(text(obj).split()).removeprefix("global::")
            if not all(p.isidentifier() for p in written.split(".")):
                return None
            head, _, rest = written.partition(".")
            typed = self._variable(head, at)  # x.Prop: the property of x's type
            return written if typed is None else f"{typed}.{rest}" if typed else None
        if kind == "invocation_expression":  # a call's result: what the method returns
            function = obj.child_by_field_name("function")
            if function is None:
                return None
            if function.type == "member_access_expression":
                inner, name = (function.child_by_field_name(f) for f in ("expression", "name"))
            else:
                inner, name = None, function
            if name is None or name.type != "identifier":
                return None
            target = self._target(inner, text(name), at)
            return f"{target}()" if target else None
        if kind == "object_creation_expression":
            made = obj.child_by_field_name("type")
            return _type(made, text) or None if made is not None else None
        if kind == "parenthesized_expression":
            inner = obj.named_child(0)
            if inner is not None and inner.type == "cast_expression":
                cast = inner.child_by_field_name("type")
                return _type(cast, text) or None if cast is not None else None
            if inner is not None and inner.type == "as_expression":
                right = inner.child_by_field_name("right")
                return _type(right, text) or None if right is not None else None
        return None
