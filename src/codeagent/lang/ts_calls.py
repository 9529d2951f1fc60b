"""Each TypeScript/JavaScript call's target (the forms and the receivers followed:
:mod:`codeagent.lang.ts_receivers`), and the file's import bindings and exports
(:mod:`codeagent.lang.ts_exports`).

    found = read(tree, QueryCursor(calls_query).matches(tree.root_node), spans)
    found.calls   # [[line, name, scope], [line, name, scope, "./client Client.send"], ...]

No node is visited in Python beyond what the language's call query captures (the calls, and
the functions, classes and declarations :func:`scopes_query` adds to it) and the top level's
imports and exports: a name at a call is looked up among the file's declarations of that name
(the innermost function holding the call that declares it wins), ``this`` is the class of the
innermost method (arrow functions keep it), a class's typed fields are read when a call asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from codeagent.lang.ts_exports import exports, imports
from codeagent.lang.ts_names import Names as _Names
from codeagent.lang.ts_names import Nest as _Nest
from codeagent.lang.ts_receivers import (
    CLASSES,
    Scope,
    Text,
    declare,
    fields,
    parameters,
    reader,
)

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Tree


def scopes_query(classes: str) -> str:
    """The language's call query with the receiver walk's captures: a member call's object
    (``@obj``), and the nodes the walk reads (the functions, classes and declarations), so
    that one pass of the query in C finds them all and no node is visited in Python."""
    return f"""
(call_expression function: [(identifier) @name
  (member_expression object: (_) @obj property: (property_identifier) @name)])
(new_expression constructor: [(identifier) @name
  (member_expression object: (_) @obj property: (property_identifier) @name)])
[(function_declaration) (generator_function_declaration) (function_expression)
 (generator_function) (arrow_function) (method_definition)] @fn
[{classes}] @cls
[(variable_declarator) (for_in_statement) (catch_clause)] @decl
"""


JS_CALLS = scopes_query("(class_declaration) (class)")
TS_CALLS = scopes_query("(class_declaration) (abstract_class_declaration) (class)")


class _Class:
    def __init__(self, ref: str, node: Node, text: Text, language: Language) -> None:
        self.ref = ref  # NAME@LINE
        self._node = node
        self._text = text
        self._language = language
        self._fields: dict[str, str] | None = None

    @property
    def fields(self) -> dict[str, str]:  # read when a call asks (this.x.f())
        if self._fields is None:
            self._fields = fields(self._node, self._text, self._language)
        return self._fields


@dataclass
class Found:
    calls: list[list[Any]] = field(default_factory=list)  # [line, name, scope, target?]
    bindings: list[list[str]] = field(default_factory=list)  # [local, spec, export]
    exports: list[list[str]] = field(default_factory=list)  # [exported, local, spec]


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows (with their targets), the bindings and the exports, from the call query's
    ``matches`` (:func:`scopes_query`'s captures) and the definitions' byte ``spans``
    ``(start, end, row)`` (a call's scope: the innermost one holding it, as
    :func:`codeagent.lang.references.calls_of` finds it)."""
    found, root = Found(), tree.root_node
    for node in root.named_children:
        if node.type == "import_statement":
            imports(node, found.bindings)
        elif node.type == "export_statement":
            exports(node, found.exports)
    calls: list[dict[str, list[Node]]] = []
    functions: list[Node] = []
    classes: list[Node] = []
    decls: list[Node] = []
    for pattern, captures in matches:  # the patterns of scopes_query, in order
        if pattern < 2:
            calls.append(captures)
        elif pattern == 2:
            functions.append(captures["fn"][0])
        elif pattern == 3:
            classes.append(captures["cls"][0])
        else:
            decls.append(captures["decl"][0])
    if calls:
        found.calls = _calls(calls, functions, classes, decls, found.bindings, spans, tree)
    return found


def _names(
    functions: list[Node], classes: list[Node], decls: list[Node], bindings: list[list[str]],
    text: Text,
) -> _Names:  # fmt: skip
    nest = _Nest([(*node.byte_range, node) for node in functions])
    names = _Names(nest)
    add, inner, parents = names.add, nest.inner, nest.parents
    add({local: f"{spec} {export}" for local, spec, export in bindings}, -1, 3)
    for i, node in enumerate(nest.items):
        add(parameters(node, {}, text), i, 0)
        if node.type in ("function_declaration", "generator_function_declaration"):
            add(_declared(node, text), parents[i], 1)
    for node in decls:
        add(_declared(node, text), inner(*node.byte_range), 1)
    for node in classes:
        if node.type != "class":
            add(_declared(node, text), inner(*node.byte_range), 1)
    return names


def _calls(
    calls: list[dict[str, list[Node]]], functions: list[Node], classes: list[Node],
    decls: list[Node], bindings: list[list[str]], spans: list[tuple[int, int, int]], tree: Tree,
) -> list[list[Any]]:  # fmt: skip
    """``[line, name, scope]`` of each call, and its target when its receiver names one. A
    call is placed by its called name's span: what holds the name holds the call."""
    text = reader(tree.root_node)  # names sliced from the source by byte range
    names = _names(functions, classes, decls, bindings, text)
    this = _This(functions, classes, text, tree.language)
    scopes = _Nest(list(spans))  # the definitions
    inner, scope_rows = scopes.inner, scopes.items
    declared = names.by_name
    rows: list[list[Any]] = []
    seen: set[tuple[int, int]] = set()
    for captures in calls:
        node = captures["name"][0]
        span = node.byte_range
        if span in seen:
            continue
        seen.add(span)
        start, end = span
        name = text(node)
        obj = captures.get("obj")
        target = None
        if obj is None:  # f()
            if name in declared:
                bound = names.at(name, start, end)
                target = bound if bound is not None and not bound.startswith(":") else None
        else:  # x.f()
            head, receiver = obj[0], None
            if head.type == "identifier":  # the most common: a name, often one declared here
                written = text(head)
                if written in declared:
                    receiver = names.at(written, start, end)
                    if receiver and receiver.startswith(":"):  # an instance of a type
                        receiver = _type(receiver[1:], names, start, end)
            else:
                receiver = _receiver(head, names, start, end, this)
            target = f"{receiver}.{name}" if receiver else None
        i = inner(start, end)  # the innermost definition holding the call
        row = [node.start_point[0] + 1, name, scope_rows[i] if i >= 0 else -1]
        rows.append([*row, target] if target else row)
    rows.sort(key=itemgetter(0, 1))
    return rows


class _This:
    """What ``this`` is at a place: the class of the innermost method (arrow functions keep
    it; another function has none), read only when a call on ``this`` or ``super`` asks."""

    def __init__(
        self, functions: list[Node], classes: list[Node], text: Text, language: Language
    ) -> None:
        self._nodes = [*functions, *classes]
        self._nest: _Nest | None = None
        self._frames: dict[int, _Class | None] = {}
        self.text = text
        self.language = language

    def at(self, start: int, end: int) -> _Class | None:
        if self._nest is None:
            kept = [n for n in self._nodes if n.type != "arrow_function"]
            self._nest = _Nest([(*n.byte_range, n) for n in kept])
        i = self._nest.inner(start, end)
        return self._frame(i) if i >= 0 else None

    def _frame(self, i: int) -> _Class | None:
        if i in self._frames:
            return self._frames[i]
        assert self._nest is not None
        node = self._nest.items[i]
        frame: _Class | None = None
        if node.type in CLASSES:
            name = node.child_by_field_name("name")
            text = self.text
            ref = f"{text(name)}@{name.start_point[0] + 1}" if name else ""
            frame = _Class(ref, node, text, self.language) if name else None
        elif node.type == "method_definition":  # a class's (not an object literal's)
            parent, holder = node.parent, self._nest.parents[i]
            in_body = parent is not None and parent.type == "class_body"
            frame = self._frame(holder) if in_body and holder >= 0 else None
        self._frames[i] = frame
        return frame


def _declared(node: Node, text: Text) -> Scope:
    scope: Scope = {}
    declare(node, scope, text)
    return scope


def _named(written: str, names: _Names, start: int, end: int) -> str | None:
    """What a name as written (``C``, ``ns.C``) refers to at a place: a target, or ``:T`` for
    an instance of ``T``; None when it is not known."""
    head, dot, rest = written.partition(".")
    bound = names.at(head, start, end)
    if bound is None or (dot and bound.startswith(":")):
        return None
    return f"{bound}.{rest}" if dot else bound


def _type(written: str, names: _Names, start: int, end: int) -> str | None:
    bound = _named(written, names, start, end)
    return bound if bound is not None and not bound.startswith(":") else None


def _receiver(obj: Node, names: _Names, start: int, end: int, this: _This) -> str | None:
    """What an attribute is looked up on (other than a name, which :func:`_calls` reads): a
    class, a module, an instance of a class."""
    kind, text = obj.type, this.text
    if kind == "this":
        cls = this.at(start, end)
        return cls.ref if cls is not None else None
    if kind == "super":
        cls = this.at(start, end)
        return f"^{cls.ref}" if cls is not None else None
    if kind == "member_expression":
        inner, prop = obj.child_by_field_name("object"), obj.child_by_field_name("property")
        if inner is None or prop is None:
            return None
        if inner.type == "this":
            cls = this.at(start, end)
            typed = cls.fields.get(text(prop)) if cls is not None else None
            return _type(typed, names, start, end) if typed else None
        if inner.type == "identifier":
            bound = _named(text(inner), names, start, end)
            return f"{bound}.{text(prop)}" if bound and not bound.startswith(":") else None
    return None
