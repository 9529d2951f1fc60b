"""The C++ declarations the call walk (:mod:`codeagent.lang.cpp_calls`) reads: a declared
type as written, what ``auto x = ...;`` makes ``x``, the class a field is declared in, the
name a function's declarator declares."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

# a macro's body that opens namespaces, ``namespace fmt { inline namespace v11 {`` (read by
# lang.cpp's repair and by the calls' reader, lang.cpp_calls)
OPENS = re.compile(r"(?:(?:inline\s+)?namespace(?:\s+[A-Za-z_][\w:]*)?\s*\{\s*)+")
_OPENED = re.compile(r"namespace\s+([A-Za-z_][\w:]*)")


def macro_body(body: str) -> str:
    """A ``#define``'s body on one line, its continuations and runs of blanks one space."""
    return " ".join(body.replace("\\\n", " ").split())


def opened(body: str) -> str:
    """The namespaces a macro's body opens (``a.b``; an anonymous one adds no name), or ""
    when the body does anything else."""
    written = macro_body(body)
    if not written or not OPENS.fullmatch(written):
        return ""
    return ".".join(n.replace("::", ".") for n in _OPENED.findall(written))


# a namespace named by a macro (``namespace IMGUI_STB_NAMESPACE {`` behind an ``#ifdef``):
# upper case with an underscore, as the macros the C repair blanks; no scope of its own
MACRO_NAMESPACE = "^[A-Z][A-Z0-9]*_[A-Z0-9_]*$"
# the standard library's containers: a loop over one (for (auto& x : items)) reads ``T``
CONTAINERS = frozenset(
    {"vector", "list", "deque", "forward_list", "set", "multiset", "unordered_set", "array"}
    | {"span", "initializer_list", "valarray"}
)
SMART_POINTERS = frozenset({"unique_ptr", "shared_ptr", "weak_ptr"})
_CLASSES = frozenset({"class_specifier", "struct_specifier"})
_MAKERS = frozenset({"make_unique", "make_shared"})  # std::make_unique<T>(...): ->T


def declared_type(node: Node, text: Text) -> str:
    """A declared type as written (``T``, ``ns::T``; a template's, ``Array<T, 4>``, by its
    name; ``std::unique_ptr<T>``: ``->T``; ``std::vector<T>``: ``[]T``), or "" (``auto``, a
    built-in type, a function's)."""
    if node.type == "template_type":
        name = node.child_by_field_name("name")
        held = node.child_by_field_name("arguments")
        if name is not None and held is not None and text(name) in SMART_POINTERS:
            return held_type(held, text)  # std::unique_ptr<T>: ->T
        if name is not None and held is not None and text(name) in CONTAINERS:
            found = _first_argument(held, text)  # std::vector<T>: []T, what a loop reads
            return f"[]{found}" if found and not found.startswith("[]") else ""
        return text(name) if name is not None else ""
    if node.type == "type_identifier":
        return text(node)
    if node.type == "qualified_identifier":
        inner = node
        while inner.type == "qualified_identifier":
            name = inner.child_by_field_name("name")
            if name is None:
                return ""
            inner = name
        if inner.type == "template_type":  # ns::Array<T>: ns::Array
            written = declared_type(inner, text)
            if written.startswith(("->", "[]")):  # std::unique_ptr<T>, std::vector<T>
                return written
            return text(node)[: inner.start_byte - node.start_byte] + written
        return text(node) if inner.type == "type_identifier" else ""
    return ""


def auto_value(value: Node | None, text: Text) -> str | Node:
    """What ``auto x = value;`` makes ``x``: the type of ``new T(..)``, ``T{..}``,
    ``std::make_unique<T>(..)`` (``->T``), or a call (``T(..)``, ``f(..)``, ``s.f(..)``:
    the class constructed or what the function is declared to return) or a variable
    (``auto x = y;``), read when ``x`` is used; "" for anything else."""
    if value is None:
        return ""
    if value.type == "identifier":  # auto x = y;: what y is
        return value
    if value.type in ("new_expression", "compound_literal_expression"):
        made = value.child_by_field_name("type")
        return declared_type(made, text) if made is not None else ""
    if value.type != "call_expression":
        return ""
    function = value.child_by_field_name("function")
    if function is not None and function.type == "qualified_identifier":
        function = function.child_by_field_name("name")
    if function is None or function.type != "template_function":
        return value
    name, held = function.child_by_field_name("name"), function.child_by_field_name("arguments")
    if name is None or text(name) not in _MAKERS or held is None:
        return ""
    return held_type(held, text)


def held_type(arguments: Node, text: Text) -> str:
    """``->T`` for an owning pointer's template arguments ``<T>`` (``T`` as
    :func:`declared_type` reads it), or ""."""
    found = _first_argument(arguments, text)
    return f"->{found}" if found and not found.startswith("->") else ""


def _first_argument(arguments: Node, text: Text) -> str:
    """The first of a template's arguments ``<T, ...>`` as :func:`declared_type` reads it."""
    first = arguments.named_child(0)
    held = first.child_by_field_name("type") if first is not None else None
    return declared_type(held, text) if held is not None else ""


def function_name(node: Node) -> Node | None:
    """The name a function definition's declarator declares (behind ``*`` and ``&``)."""
    while node.type != "function_declarator":
        inner = node.child_by_field_name("declarator") or node.named_child(0)
        if inner is None or node.type not in ("pointer_declarator", "reference_declarator"):
            return None
        node = inner
    name = node.child_by_field_name("declarator")
    return name if name is not None and name.type == "identifier" else None


def constructed(node: Node) -> Node | None:
    """``T x(a, b);`` in a function's body, which the grammar reads as a function's
    declaration when its arguments are names (``a`` as a parameter's type): a variable."""
    declaration = node.parent
    if node.type != "function_declarator" or declaration is None:
        return None
    if declaration.type != "declaration" or declaration.parent is None:
        return None
    if declaration.parent.type != "compound_statement":
        return None
    parameters = node.child_by_field_name("parameters")
    if parameters is None or not all(map(_argument, parameters.named_children)):
        return None  # int f(int a);: a function's declaration
    name = node.child_by_field_name("declarator")
    return name if name is not None and name.type == "identifier" else None


def _argument(parameter: Node) -> bool:
    """Whether a "parameter" reads as a constructor's argument: a bare name (``a``), or a call
    of a named function (``make(a, b)``, read as a parameter returning a function's type);
    not a named parameter (``int f(int a);``)."""
    declarator = parameter.child_by_field_name("declarator")
    return declarator is None or (
        declarator.type == "abstract_function_declarator"
        and declarator.child_by_field_name("declarator") is None
    )


def field_owner(node: Node, text: Text) -> str:
    """The qualified name of the class a field is declared in (``net.Client``), namespaces
    and enclosing classes included; "" in an anonymous one."""
    names: list[str] = []
    above = node.parent
    while above is not None:
        if above.type in _CLASSES or above.type == "namespace_definition":
            name = above.child_by_field_name("name")
            if name is None and above.type in _CLASSES:
                return ""
            if name is None:  # an anonymous namespace names nothing
                above = above.parent
                continue
            if name.type == "template_type":
                name = name.child_by_field_name("name") or name
            if above.type in _CLASSES or not re.match(MACRO_NAMESPACE, text(name)):
                names.append(text(name).replace("::", "."))
        above = above.parent
    return ".".join(reversed(names))


def call_parts(function: Node | None) -> dict[str, list[Node]] | None:
    """A called function's parts as the call query captures them (``name``, ``obj``,
    ``scope``; ``qualified`` for ``a::b::f``), or None for another shape."""
    if function is None:
        return None
    if function.type == "identifier":
        return {"name": [function]}
    first, last = function.child_by_field_name("argument"), function.child_by_field_name("field")
    if function.type == "field_expression" and first is not None and last is not None:
        return {"obj": [first], "name": [last]} if last.type == "field_identifier" else None
    first, last = function.child_by_field_name("scope"), function.child_by_field_name("name")
    if function.type == "qualified_identifier" and first is not None and last is not None:
        if last.type == "identifier":
            return {"scope": [first], "name": [last]}
        while last is not None and last.type == "qualified_identifier":  # a::b::f
            last = last.child_by_field_name("name")
        return {"qualified": [function], "name": [last]} if last is not None else None
    return None
