"""A TypeScript/JavaScript file's call sites tied to what their syntax names: the callee as the
file binds it, for :mod:`codeagent.symbols.ts_targets` to follow across files.

A target is written in one of three forms, then the attributes after it (``.send``):

- ``NAME@LINE``: a definition of this file, by its name and the line of its name
  (``f()`` of a function declared here; ``this.f()`` in class ``K``: ``K@3.f``);
- ``SPEC EXPORT``: what the import bound, export ``EXPORT`` (``default``; ``*`` for the
  whole module) of module ``SPEC`` (``import {Client as C} from './client'``: ``C.send()`` is
  ``./client Client.send``);
- ``^NAME@LINE.f``: ``super.f()`` in class ``NAME``: ``f`` of its bases.

The receiver is followed where the code says it: ``this`` in a class's methods (arrow
functions keep it), ``super``, a name bound by an import, a declaration or a parameter, a
local or parameter annotated ``c: C`` or bound by ``new C(...)``, a field so declared
(``private c: C``, ``constructor(private c: C)``, ``this.c = new C()``), a namespace
(``ns.C.f()``). Anything else (a call's result, an object literal, an untyped local) is
left without a target: a call "by name". Declarations are per function (a block's ``let``
counts for the whole function: a simplification).

Also read: the import bindings ``[local, spec, export]`` and the module's exports
``[exported, local, spec]`` (``export {a as b} from './x'``: ``[b, a, ./x]``; ``export *
from './x'``: ``[*, *, ./x]``; ``export default Foo``: ``[default, Foo, ""]``; ``export
function f``: ``[f, f, ""]``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Query

CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
Scope = dict[str, str | None]  # name -> a target (or ":T", an instance of type T), None: unknown
Text = Callable[["Node | None"], str]  # a node's text ("" for None)


def text(node: Node | None) -> str:
    return (node.text or b"").decode("utf-8", "replace") if node is not None else ""


def reader(root: Node) -> Text:
    """The text of a node of the tree whose root is ``root``: a slice by the node's byte range
    of the source decoded once as Latin-1 (a character a byte), decoded again as UTF-8 only
    where the slice is not ASCII; a third of ``Node.text``'s cost. The root's text starts at
    its first token (a file's leading blank lines and spaces are not in it), so the slices
    are taken from there."""
    source, offset = root.text or b"", root.start_byte
    whole = source.decode("latin-1")

    def sliced(node: Node | None) -> str:
        if node is None:
            return ""
        start, end = node.byte_range
        start, end = start - offset, end - offset
        piece = whole[start:end]
        return piece if piece.isascii() else source[start:end].decode("utf-8", "replace")

    return sliced


def _at(name: Node, text: Text) -> str:
    return f"{text(name)}@{name.start_point[0] + 1}"


def _type_of(annotation: Node | None, text: Text) -> str | None:
    """The type a ``: T`` annotation names (``T<U>`` is ``T``, ``ns.T`` stays), else None."""
    node = None
    if annotation is not None and annotation.named_child_count:
        node = annotation.named_child(0)
    if node is not None and node.type == "generic_type":
        node = node.child_by_field_name("name")
    if node is not None and node.type in ("type_identifier", "nested_type_identifier"):
        return text(node)
    return None


def _constructed(value: Node | None, text: Text) -> str | None:
    """``C`` of ``new C(...)`` (``ns.C`` of ``new ns.C()``), else None."""
    if value is not None and value.type == "new_expression":
        cls = value.child_by_field_name("constructor")
        if cls is not None and cls.type in ("identifier", "member_expression"):
            return text(cls)
    return None


def pattern_names(pattern: Node, scope: Scope, text: Text = text) -> None:
    """Every name a destructuring pattern declares, unknown."""
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            scope[text(node)] = None
        elif node.type == "pair_pattern":
            value = node.child_by_field_name("value")
            stack.extend([value] if value is not None else [])
        else:
            stack.extend(node.named_children)


def declare(node: Node, scope: Scope, text: Text) -> None:
    """One declaration found in a function (or the module) body."""
    kind = node.type
    if kind == "variable_declarator":
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None:
            return
        if name.type != "identifier":
            pattern_names(name, scope, text)
            return
        written = text(name)
        if value is not None and value.type in ("arrow_function", "function_expression",
                                                "generator_function"):  # fmt: skip
            scope[written] = f"{written}@{name.start_point[0] + 1}"
        else:
            typed = _type_of(node.child_by_field_name("type"), text) or _constructed(value, text)
            scope[written] = f":{typed}" if typed else None
    elif kind in ("function_declaration", "generator_function_declaration", "class_declaration",
                  "abstract_class_declaration"):  # fmt: skip
        name = node.child_by_field_name("name")
        if name is not None:
            scope[text(name)] = _at(name, text)
    elif kind in ("for_in_statement", "catch_clause"):
        left = node.child_by_field_name("left") or node.child_by_field_name("parameter")
        if left is not None:
            pattern_names(left, scope, text)


def parameters(function: Node, scope: Scope, text: Text) -> Scope:
    params = function.child_by_field_name("parameters")
    single = function.child_by_field_name("parameter") if params is None else None  # x => ...
    if single is not None:
        scope[text(single)] = None
    for param in params.named_children if params is not None else ():
        pattern = param.child_by_field_name("pattern") if param.type in _PARAMETERS else param
        if pattern is None:
            continue
        if pattern.type == "identifier":
            typed = _type_of(param.child_by_field_name("type"), text)
            scope[text(pattern)] = f":{typed}" if typed else None
        else:
            pattern_names(pattern, scope, text)
    return scope


_ASSIGNED = "(assignment_expression left: (_ object: (this)) right: (new_expression)) @assign\n"
_TS_FIELDS = (
    _ASSIGNED
    + """(public_field_definition) @field
[(required_parameter [(accessibility_modifier) "readonly"])
 (optional_parameter [(accessibility_modifier) "readonly"])] @param
[(class_declaration) (abstract_class_declaration) (class)] @cls
"""
)
_JS_FIELDS = _ASSIGNED + "[(class_declaration) (class)] @cls\n"


@lru_cache(maxsize=8)
def _fields_query(language: Language) -> Query:
    from tree_sitter import Query

    typed = language.id_for_node_kind("public_field_definition", True)
    return Query(language, _TS_FIELDS if typed else _JS_FIELDS)


def fields(cls: Node, text: Text, language: Language) -> dict[str, str]:
    """A class's fields of a known type: declared ``f: T`` (or ``= new T()``), constructor
    parameter properties, ``this.f = new T()`` in its methods (not those of a class inside it;
    the first declaration wins, then the last assignment)."""
    from tree_sitter import QueryCursor

    out: dict[str, str] = {}
    body = cls.child_by_field_name("body")
    if body is None:
        return out
    found = QueryCursor(_fields_query(language)).captures(body)
    inner = [n.byte_range for n in found.get("cls", ())]
    nodes = [*found.get("field", ()), *found.get("param", ()), *found.get("assign", ())]
    nodes.sort(key=lambda n: (-n.end_byte, n.start_byte))  # the later first, outer before inner
    for node in nodes:
        start, end = node.byte_range
        if any(first <= start and end <= last for first, last in inner):
            continue
        kind = node.type
        if kind == "public_field_definition":
            name = node.child_by_field_name("name")
            typed = _type_of(node.child_by_field_name("type"), text)
            typed = typed or _constructed(node.child_by_field_name("value"), text)
            if name is not None and typed:
                out[text(name)] = typed
        elif kind in _PARAMETERS:
            name, typed = (
                node.child_by_field_name("pattern"),
                _type_of(node.child_by_field_name("type"), text),
            )
            if name is not None and typed:
                out[text(name)] = typed
        else:  # this.f = new T()
            left, typed = (
                node.child_by_field_name("left"),
                _constructed(node.child_by_field_name("right"), text),
            )
            if typed and left is not None:
                out.setdefault(text(left.child_by_field_name("property")), typed)
    return out
