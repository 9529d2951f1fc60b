"""Each C++ call's target as the file names it, read from the types the code declares (no
inference): resolved across files by :mod:`codeagent.symbols.cpp_targets`.

    found = read(tree, QueryCursor(Query(lang, CPP_CALLS)).matches(root), spans)
    found.calls     # [[line, "send", 4, "4$Client.send"], [line, "size", 4], ...]
    found.bindings  # [["net.Client", "transport_", "Transport"], ...]: the classes' fields
                    # (and ["", "", "net"]: ``using namespace net;``, ["", "Client",
                    # "net.Client"]: ``using net::Client;``, each read file-wide; ["-",
                    # "helper", ""]: a function of an anonymous namespace, the file's own;
                    # ["#", "", "fmt.v11"]: namespaces a macro of the file opens)

A target starts with the row (in the record's ``d``) of the function the call is made in (-1
at the top level), then its form, and ends with the number of the call's arguments (``#2``:
of overloads, the one that takes them):

- ``f()``: ``R~f``: a method of the function's class (its bases' too), else a function of its
  namespaces (a variable of the name in scope, a pointer to a function: by name);
- ``this->f()``: ``R@f``;
- ``x.f()``, ``x->f()`` where ``x`` is a parameter or a local declared with a type ``T``
  (``T x``, ``T* x``, ``const T& x``, ``ns::T x``, ``Array<T> x`` by the template's name;
  ``std::unique_ptr<T> x`` through ``->``; ``auto`` and a built-in type say nothing):
  ``R$T.f``; where ``x`` is no variable of the function, a field of its class: ``R.x.f``
  (``R.x>f`` for ``x->f()``; ``this->x.f()`` too), its type read from the class's fields
  (``bindings``); fields read on from either (``x->y.z->f()``: ``R$T>y.z>f``, each field's
  type from its class's fields);
- ``S::f()``: ``R:S::f``, a class's (a static method, a base's) or a namespace's function;
- ``x.g().f()``: ``R$T.g().f``: ``f`` of what ``T::g`` is declared to return (and so on;
  ``T(a).f()``: ``R~T().f``, the class constructed), fields read on after it too;
- ``x.f()`` where ``auto x = ...;``: as if the value were written in its place (``new
  T(a)``, ``T{a}``: ``T``; ``std::make_unique<T>()``: ``T`` through ``->``; a call: what it
  gives, ``R:S::make().f``; another variable: its type);
- ``x.f()`` in ``for (auto& x : xs)``: the element type of ``xs`` when it is declared a
  standard container (``std::vector<T>``, ``std::set<T>``, ...: ``T``);
- ``xs[i].f()``, ``xs[i]->f()``: the same for a variable (``R$T``); for a field, or a
  variable declared with another type's name (an alias of a container, perhaps), ``R.xs[]``
  / ``R$Ts[]``: an element, the graph reads which type (a loop over a field: the same).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from codeagent.lang.c_calls import held, variable
from codeagent.lang.cpp_types import (
    auto_value,
    call_parts,
    constructed,
    declared_type,
    field_owner,
    function_name,
    opened,
)
from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_names import call_rows, holding
from codeagent.lang.ts_receivers import Text, reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# The language's call query with what the walk reads, found in one pass in C: the calls (0,
# 1: the sites C++'s query had), the declarations with their types (2-5), the fields (6), the
# ``using`` directives (7) and declarations (8), an anonymous namespace's functions (9), the
# macros' bodies (10: one that opens namespaces), and the calls of a name of the global
# namespace or qualified twice or three times (11-13: ``::f()``, ``a::b::f()``).
CPP_CALLS = """
(call_expression function: [(identifier) @name
                            (field_expression argument: (_) @obj
                                              field: (field_identifier) @name)]) @call
(call_expression function: (qualified_identifier scope: (_) @scope name: (identifier) @name)) @call
(parameter_declaration type: (_) @type declarator: (_) @var)
(optional_parameter_declaration type: (_) @type declarator: (_) @var)
(declaration type: (_) @type declarator: (_) @var)
(for_range_loop type: (_) @type declarator: (_) @var right: (_) @range)
(field_declaration type: (_) @type declarator: (_) @var)
(using_declaration "namespace" (_) @using)
(using_declaration . (qualified_identifier) @alias .)
(namespace_definition !name body: (declaration_list (function_definition declarator: (_) @local)))
(preproc_def value: (preproc_arg) @opens)
(call_expression function: (qualified_identifier !scope name: (identifier) @name) @qualified) @call
(call_expression function: (qualified_identifier
  name: (qualified_identifier name: (identifier) @name)) @qualified) @call
(call_expression function: (qualified_identifier
  name: (qualified_identifier
    name: (qualified_identifier name: (identifier) @name))) @qualified) @call
"""
_PARAMETERS = (2, 3)
_RANGE, _FIELD, _USING, _ALIAS, _LOCAL, _OPENS = 5, 6, 7, 8, 9, 10
_NESTED = (11, 12, 13)
# the standard library's owning pointers: ``->`` reaches the type they hold
# A declaration's variable: its name, the node above its declaration, its type as written
# (or, for ``auto x = f(a);`` / ``auto x = y;``, the call or the variable whose value it
# holds; for ``for (auto& x : xs)``, ``(xs,)``: an element of ``xs``)
Variable = tuple["Node", "Node | None", "str | Node | tuple[Node]"]
_DEPTH = 8  # calls read inside one call's target at most
_OBJECTS = frozenset({"identifier", "field_expression", "subscript_expression"})
_CHAIN = re.compile("[.>]")  # a field read on in a target's head (R$T>y.z)
_SCOPE = re.compile(r"(?:::)?\w+(?:::\w+)*")  # a::b, ::a::b


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets, and the classes' typed fields as ``bindings``."""
    text = reader(tree.root_node)
    calls: list[dict[str, list[Node]]] = []
    variables: dict[str, list[Variable]] = {}  # name -> each variable of that name
    found = Found()
    for pattern, captures in matches:
        if pattern < 2 or pattern in _NESTED:
            calls.append(captures)
            continue
        if pattern == _USING:  # using namespace a::b;: ["", "", "a.b"]
            found.bindings.append(["", "", text(captures["using"][0]).replace("::", ".")])
            continue
        if pattern == _ALIAS:  # using a::B;: ["", "B", "a.B"]
            full = text(captures["alias"][0]).replace("::", ".").lstrip(".")
            found.bindings.append(["", full.rpartition(".")[2], full])
            continue
        if pattern == _OPENS:  # a macro that opens namespaces: ["#", "", "fmt.v11"]
            spaces = opened(text(captures["opens"][0]))
            if spaces:
                found.bindings.append(["#", "", spaces])
            continue
        if pattern == _LOCAL:  # a function of an anonymous namespace: ["-", "f", ""]
            name = function_name(captures["local"][0])
            if name is not None:
                found.bindings.append(["-", text(name), ""])
            continue
        declarator = captures["var"][0]
        named = variable(declarator, pattern in _PARAMETERS) or constructed(declarator)
        if named is None:
            continue
        written = declared_type(captures["type"][0], text)
        if pattern == _FIELD:
            owner = field_owner(declarator, text)
            if owner and written:
                found.bindings.append([owner, text(named), written])
            continue
        made: str | Node | tuple[Node] = written
        if not written and captures["type"][0].type == "placeholder_type_specifier":
            if pattern == _RANGE:  # for (auto& x : xs): an element of xs
                made = (captures["range"][0],) if captures["range"][0].type == "identifier" else ""
            else:  # auto x = ...;
                made = auto_value(declarator.child_by_field_name("value"), text)
        above = declarator.parent.parent if declarator.parent is not None else None
        variables.setdefault(text(named), []).append((named, above, made))
    if calls:
        found.calls = _Calls(variables, text).rows(calls, spans)
    return found


class _Calls:
    """The variables of one file, and each call's target read from them."""

    def __init__(self, variables: dict[str, list[Variable]], text: Text) -> None:
        self.variables, self.text = variables, text
        self.seen: dict[str, tuple[list[int], list[tuple[Any, ...]]]] = {}
        self.depth = 0  # calls read inside a call's target (auto a = f(); auto b = a.g();)

    def rows(
        self, calls: list[dict[str, list[Node]]], spans: list[tuple[int, int, int]]
    ) -> list[list[Any]]:
        return call_rows(calls, spans, self.text, self._counted)

    def _counted(self, captures: dict[str, list[Node]], name: str, at: int, row: int) -> str:
        """The call's target with its number of arguments (``R~f#2``: an overload is chosen
        by it), or ""."""
        written = self._target(captures, name, at, row)
        arguments = captures["call"][0].child_by_field_name("arguments") if written else None
        return f"{written}#{arguments.named_child_count}" if arguments is not None else written

    def _target(self, captures: dict[str, list[Node]], name: str, at: int, row: int) -> str:
        """The call's target as written (``row``: its function's), or "": by name."""
        scope = captures.get("scope")
        if scope is not None:  # S::f()
            if scope[0].type in ("namespace_identifier", "type_identifier", "qualified_identifier"):
                return f"{row}:{self.text(scope[0])}::{name}"
            return ""
        qualified = captures.get("qualified")
        if qualified is not None:  # a::S::f(); ::f() (the C library's ::close, or a function
            # of a namespace a macro opens, read as global) and a template's arguments: by name
            written = "".join(self.text(qualified[0]).split()).rpartition("::")[0]
            return f"{row}:{written}::{name}" if _SCOPE.fullmatch(written) else ""
        obj = captures.get("obj")
        if obj is None:  # f(): unless a variable (a pointer to a function) has the name
            return "" if self._local(name, at) is not None else f"{row}~{name}"
        kind = obj[0].type
        arrow = obj[0].next_sibling is not None and obj[0].next_sibling.type == "->"
        if kind == "this":
            return f"{row}@{name}"
        if kind in _OBJECTS:  # x.f(), x->y.f(), this->x.f(), xs[i].f()
            held = self._object(obj[0], arrow, at, row)
            return f"{held}{'>' if arrow else '.'}{name}" if held else ""
        if kind == "call_expression":  # x.g().f(): f of what g is declared to return
            held = self._result(obj[0], row)
            return f"{held}.{name}" if held else ""
        return ""

    def _object(self, node: Node, arrow: bool, at: int, row: int) -> str:
        """What a call's object is, as a target's head: ``R$T`` (a variable declared ``T``),
        ``R.x`` (a field of the function's class), then each field read from it (``>y``
        through ``->``), or "" when the code does not say (``arrow``: ``->`` follows)."""
        if node.type == "identifier":
            head = self.text(node)
            local = self._local(head, at)
            if local is None:  # a field of the function's class
                return f"{row}.{head}"
            return self._held(local, arrow, row)
        if node.type == "subscript_expression":  # xs[i]: an element of a container
            return self._element(node, arrow, at, row)
        base, field = node.child_by_field_name("argument"), node.child_by_field_name("field")
        if node.type != "field_expression" or base is None or field is None:
            return ""
        if field.type != "field_identifier":
            return ""
        if base.type == "this":  # this->x
            return f"{row}.{self.text(field)}"
        through = base.next_sibling is not None and base.next_sibling.type == "->"
        held = self._object(base, through, at, row)
        if not held:
            return ""
        return f"{held}{'>' if through else '.'}{self.text(field)}"

    def _element(self, node: Node, arrow: bool, at: int, row: int) -> str:
        """``xs[i]`` as a target's head: ``R$T`` for a variable declared a container of ``T``
        (``std::vector<T>``), ``R.xs[]`` for a field (its type read by the graph), or ""."""
        inner = node.child_by_field_name("argument")
        if inner is None or inner.type not in ("identifier", "field_expression"):
            return ""
        held = self._object(inner, False, at, row)
        head = f"{row}$"
        if held.startswith(f"{row}.") or _CHAIN.search(held, len(head)):
            return f"{held}[]"  # a field: its type is the graph's to read
        if not held.startswith(head):  # what a call returns, indexed: not known
            return ""
        typed = held[len(head) :]  # a variable: a container's element, or an alias's
        return self._held(typed[2:], arrow, row) if typed.startswith("[]") else f"{held}[]"

    def _held(self, local: str | Node | tuple[Node], arrow: bool, row: int) -> str:
        """A variable's value as a target's head, from what its declaration says."""
        if isinstance(local, tuple):  # for (auto& x : xs): an element of xs
            typed = self._local(self.text(local[0]), local[0].start_byte)
            if typed is None:  # a field of the function's class
                return f"{row}.{self.text(local[0])}[]"
            local = typed[2:] if isinstance(typed, str) and typed.startswith("[]") else ""
        elif not isinstance(local, str) and local.type == "identifier":  # auto x = y;
            if self.depth > _DEPTH:
                return ""
            self.depth += 1
            try:
                return self._object(local, arrow, local.start_byte, row)
            finally:
                self.depth -= 1
        elif not isinstance(local, str):  # auto x = f(a);: what f returns
            return self._result(local, row)
        if local.startswith("->"):  # an owning pointer: its own members through .
            local = local[2:] if arrow else ""
        return f"{row}${local}" if local else ""

    def _result(self, call: Node, row: int) -> str:
        """A call's target followed by ``()``: what it returns (or the class it makes)."""
        inner = call_parts(call.child_by_field_name("function"))
        if inner is None or self.depth > _DEPTH:
            return ""
        self.depth += 1
        try:
            called = self._target(inner, self.text(inner["name"][0]), call.start_byte, row)
        finally:
            self.depth -= 1
        return f"{called}()" if called else ""

    def _local(self, name: str, at: int) -> str | Node | tuple[Node] | None:
        """The declared type of the variable ``name`` that holds the place ``at`` ("" when it
        states none), or None when no variable of the name is in scope there."""
        declared = self.variables.get(name)
        if declared is None:
            return None
        if name not in self.seen:
            self.seen[name] = held(declared)
        begins, spans = self.seen[name]
        found = holding(begins, spans, at)
        return found[1] if found is not None else None
