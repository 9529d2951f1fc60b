"""Each Java call's target as the file names it, read from the declared types the code states
(no inference): resolved across files by :mod:`codeagent.symbols.java_targets`.

    found = read(tree, QueryCursor(Query(lang, JAVA_CALLS)).matches(root), spans)
    found.calls   # [[line, name, scope], [line, name, scope, "Client.send"], ...]
    found.bindings  # [["Client@12", "transport", "Transport"], ...]: the typed fields

The forms, a target each (``REF`` is ``Name@line``, a class of the file by its name's line):

- ``this.f()``: ``REF.f``; ``super.f()``: ``^REF.f`` (the bases of the class only);
- ``f()``: ``~REF.f``: the class's own or inherited ``f``, else an enclosing class's, else a
  static import's;
- ``x.f()`` where ``x`` is a local, a parameter or a field of an enclosing class declared with
  a type ``T`` (``T x``, ``List<T>`` is ``List``, ``var x = new T()``): ``T.f``; ``this.x.f()``
  the same for the field; ``T.f()``, ``a.b.T.f()``, ``Outer.Inner.f()`` where the first name
  is no variable of the file: the type as written; ``new T().f()`` and ``((T) x).f()``: ``T.f``;
- ``x.g().f()``: ``T.g().f``: ``f`` of what ``T.g`` is declared to return;
- ``new T(...)``: ``=T``, the class itself.

A name declared without a type (a lambda's parameter, ``var x = f()``, a multi-catch), an
array, a primitive and an anonymous class's ``this`` leave the call by name. Types are written
as the file writes them: which class ``T`` is (the file's own, an import, the package's,
``java.lang``) is the graph's to say.
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
# calls (0, 1), the declarations with a type or without (2-8), the fields (9), the classes
# (10) and the anonymous classes' bodies (11).
JAVA_CALLS = """
(method_invocation object: (_)? @obj name: (identifier) @name) @call
(object_creation_expression type: [(type_identifier) @name
                                   (generic_type (type_identifier) @name)]) @call
(local_variable_declaration type: (_) @type
  declarator: (variable_declarator name: (identifier) @var)) @decl
(formal_parameter type: (_) @type name: (identifier) @var) @decl
(enhanced_for_statement type: (_) @type name: (identifier) @var) @decl
(resource type: (_) @type name: (identifier) @var) @decl
(instanceof_expression right: (_) @type name: (identifier) @var) @decl
(catch_formal_parameter name: (identifier) @var) @decl
[(lambda_expression parameters: (identifier) @var)
 (lambda_expression parameters: (inferred_parameters (identifier) @var))
 (spread_parameter (variable_declarator name: (identifier) @var))] @decl
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var))
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration)] @cls
(object_creation_expression (class_body) @anon)
"""
_DECLS = range(2, 9)
_FIELD, _CLASS, _ANON = 9, 10, 11
# Where a declaration is seen. A local: from itself to the end of its block; a parameter, a
# resource, a caught exception: the whole method, lambda, record, try or catch clause around
# it; a for-each's variable and a lambda's: that statement or lambda; a pattern's (``x
# instanceof T t``): from itself to the end of the block around it.
_AROUND = {"formal_parameter": 2, "spread_parameter": 2, "resource": 2, "catch_formal_parameter": 1}
_OWN = frozenset({"enhanced_for_statement", "lambda_expression"})
_BLOCKS = frozenset({"block", "constructor_body", "switch_block_statement_group", "class_body"})


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets (``spans``: the definitions' byte spans ``(start,
    end, row)``, a call's scope the innermost one holding its name)."""
    text = reader(tree.root_node)
    calls: list[tuple[int, dict[str, list[Node]]]] = []  # (0: a method call, 1: new T())
    decls: dict[str, list[dict[str, list[Node]]]] = {}  # name -> its declarations' captures
    fields: list[tuple[Node, str, str]] = []
    classes: list[tuple[int, int, str]] = []  # (start, end, REF or "" for an anonymous one)
    for pattern, captures in matches:
        if pattern < 2:
            calls.append((pattern, captures))
        elif pattern in _DECLS:
            name = text(captures["var"][0])
            found_decls = decls.get(name)
            if found_decls is None:
                decls[name] = [captures]
            else:
                found_decls.append(captures)
        elif pattern == _FIELD:
            var = captures["var"][0]
            fields.append((var, text(var), _type(captures["type"][0], text)))
        elif pattern == _CLASS:
            node = captures["cls"][0]
            named = node.child_by_field_name("name")
            ref = f"{text(named)}@{named.start_point[0] + 1}" if named is not None else ""
            classes.append((node.start_byte, node.end_byte, ref))
        else:
            node = captures["anon"][0]
            classes.append((node.start_byte, node.end_byte, ""))
    found = Found()
    if calls or fields:
        read = _Calls(decls, fields, classes, text)
        found.calls = read.rows(calls, spans) if calls else []
        found.bindings = read.typed_fields()
    return found


def _declaration(captures: dict[str, list[Node]], text: Text) -> tuple[int, int, str]:
    """(seen from, seen to, type) of one declaration."""
    node = captures["decl"][0]
    typed = captures.get("type")
    written = _type(typed[0], text) if typed else ""
    kind, start = node.type, node.start_byte
    if kind in _OWN:
        return (start, node.end_byte, written)
    holder: Node | None = node.parent
    for _ in range(_AROUND.get(kind, 1) - 1):
        holder = holder.parent if holder is not None else None
    if kind == "instanceof_expression":
        while holder is not None and holder.type not in _BLOCKS:
            holder = holder.parent
    if holder is None:
        return (start, node.end_byte, written)
    begin = holder.start_byte if kind in _AROUND else start
    return (begin, holder.end_byte, written)


def _type(node: Node, text: Text) -> str:
    """A declared type as written (``List<T>``: ``List``; ``a.b.T``), ``var x = new T(...)``
    as ``T``; "" for a primitive, an array, ``var`` with anything else."""
    kind = node.type
    if kind == "type_identifier":
        written = text(node)
        return written if written != "var" else _var_type(node, text)
    if kind == "scoped_type_identifier":
        return "".join(text(node).split())
    if kind == "generic_type":
        inner = node.named_child(0)
        return _type(inner, text) if inner is not None else ""
    return ""


def _var_type(node: Node, text: Text) -> str:
    """``var``'s type: the class of the ``new T(...)`` its declarator (a local's; a
    resource's: the resource itself) is given; a for-each's ``var`` is an element of its
    value, whose type nothing here states."""
    holder = node.parent
    if holder is None or holder.type == "enhanced_for_statement":
        return ""
    declarator = holder.child_by_field_name("declarator") or holder
    value = declarator.child_by_field_name("value") if declarator is not None else None
    if value is None or value.type != "object_creation_expression" or _anonymous(value):
        return ""
    inner = value.child_by_field_name("type")
    return _type(inner, text) if inner is not None else ""


class _Calls:
    """The declarations and classes of one file, and each call's target read from them."""

    base = "super"  # the node of the base class's members (C#'s ``base``)

    def __init__(
        self,
        decls: dict[str, list[dict[str, list[Node]]]],
        fields: list[tuple[Node, str, str]],
        classes: list[tuple[int, int, str]],
        text: Text,
    ) -> None:
        self.text = text
        self.decls = decls  # read per name when a call first asks (most names never are)
        self.by_name: dict[str, tuple[list[int], list[tuple[int, str]]]] = {}
        self.classes = Nest([(s, e, ref) for s, e, ref in classes])
        self.fields: dict[tuple[int, str], str] = {}  # (class, name) -> its type ("": none)
        for var, name, written in fields:
            owner = self.classes.inner(var.start_byte, var.end_byte)
            self.fields[(owner, name)] = written
        self.field_names = {name for _owner, name in self.fields}

    def typed_fields(self) -> list[list[str]]:
        """``[REF, field, type]`` of each field of a named class declared with a type (what
        ``T.FIELD.f()`` in another file reads)."""
        items = self.classes.items
        return [
            [items[cls], name, written]
            for (cls, name), written in self.fields.items()
            if written and cls >= 0 and items[cls]
        ]

    def rows(
        self, calls: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
    ) -> list[list[Any]]:
        scopes = Nest(list(spans))
        inner, scope_rows, text = scopes.inner, scopes.items, self.text
        rows: list[list[Any]] = []
        for pattern, captures in calls:  # one match a call: a node matches a pattern once
            node = captures["name"][0]
            start, end = node.byte_range
            name = text(node)
            if pattern:  # new T(...): the class
                cls = self._receiver(captures["call"][0], start)
                target = f"={cls}" if cls else None
            else:  # with the number of its arguments (#2): of overloads, the one taking them
                obj = captures.get("obj")
                target = self._target(obj[0] if obj else None, name, start)
                arguments = captures["call"][0].child_by_field_name("arguments")
                if target and arguments is not None:
                    target = f"{target}#{arguments.named_child_count}"
            i = inner(start, end)
            row = [node.start_point[0] + 1, name, scope_rows[i] if i >= 0 else -1]
            rows.append([*row, target] if target else row)
        rows.sort(key=itemgetter(0, 1))
        return rows

    def _target(self, obj: Node | None, name: str, at: int) -> str | None:
        if obj is None:
            ref = self._class_ref(at)
            return f"~{ref}.{name}" if ref else None
        receiver = self._receiver(obj, at)
        return f"{receiver}.{name}" if receiver else None

    def _receiver(self, obj: Node, at: int) -> str | None:
        kind, text = obj.type, self.text
        if kind == "identifier":
            return self._named(text(obj), at)
        if kind == "this":
            return self._class_ref(at)
        if kind == self.base:
            ref = self._class_ref(at)
            return f"^{ref}" if ref else None
        if kind == "field_access":
            inner, field = obj.child_by_field_name("object"), obj.child_by_field_name("field")
            if inner is None or field is None:
                return None
            if inner.type == "this":
                cls = self.classes.inner(at, at)
                return self.fields.get((cls, text(field))) or None if cls >= 0 else None
            written = "".join(text(obj).split())
            head = written.partition(".")[0]
            if not all(p.isidentifier() for p in written.split(".")):
                return None
            return written if self._variable(head, at) is None else None
        if kind == "method_invocation":  # a call's result: what the method returns
            name = obj.child_by_field_name("name")
            if name is None:
                return None
            target = self._target(obj.child_by_field_name("object"), text(name), at)
            return f"{target}()" if target else None
        if kind == "object_creation_expression":
            made = obj.child_by_field_name("type")
            return None if _anonymous(obj) or made is None else _type(made, text)
        if kind == "parenthesized_expression":
            inner = obj.named_child(0)
            if inner is not None and inner.type == "cast_expression":
                cast = inner.child_by_field_name("type")
                return _type(cast, text) if cast is not None else None
        return None

    def _named(self, name: str, at: int) -> str | None:
        """A name's type where it is read (a variable's declared type), or the name itself
        when it is no variable and reads as a type (``Foo``); None when not known."""
        found = self._variable(name, at)
        if found is not None:
            return found or None
        return name if name[:1].isupper() else None

    def _variable(self, name: str, at: int) -> str | None:
        """The declared type of the variable ``name`` seen at ``at`` ("" when declared without
        one), or None when no local, parameter or field of an enclosing class has the name."""
        seen = self.by_name.get(name)
        if seen is None:
            read = sorted(self.declared(c) for c in self.decls.get(name, ()))
            seen = self.by_name[name] = ([r[0] for r in read], [(r[1], r[2]) for r in read])
        found = holding(*seen, at)  # Java lets no local hide another: the spans nest
        if found is not None:
            return found[1]
        if name not in self.field_names:
            return None
        cls, parents, fields = self.classes.inner(at, at), self.classes.parents, self.fields
        while cls >= 0:
            typed = fields.get((cls, name))
            if typed is not None:
                return typed
            cls = parents[cls]
        return None

    def declared(self, captures: dict[str, list[Node]]) -> tuple[int, int, str]:
        return _declaration(captures, self.text)  # C#'s reads its own declarations

    def _class_ref(self, at: int) -> str | None:
        """The class whose code is at ``at`` (None inside an anonymous class)."""
        i = self.classes.inner(at, at)
        return self.classes.items[i] or None if i >= 0 else None


def _anonymous(node: Node) -> bool:
    """Whether ``new T(...)`` has a body (an anonymous class: its last child)."""
    last = node.named_child(node.named_child_count - 1) if node.named_child_count else None
    return last is not None and last.type == "class_body"
