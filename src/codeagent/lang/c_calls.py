"""Each C call's target as the file names it: a call of a name (``f()``) is a call of the
function of that name unless a variable of that name is in scope there (a parameter, a local,
a variable of the file: a pointer to a function); resolved across files by
:mod:`codeagent.symbols.c_targets`.

    found = read(tree, QueryCursor(Query(lang, C_CALLS)).matches(root), spans)
    found.calls   # [[line, "run", scope], [line, "helper", scope, "helper"], ...]

A call through a struct's field (``ops->run()``, ``s.f()``) or an expression (``(*fp)()``)
stays by name: what it calls is a value. A function's declaration (``int f(int);``, in a
function too) declares no variable; ``int (*f)(int);`` does. Without a preprocessor a macro of
the name is not seen here: the graph tells a function from a macro.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_names import call_rows, holding
from codeagent.lang.ts_receivers import reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# The language's call query with what the walk reads, found in one pass in C: the calls (0),
# the parameters (1) and the declarations (2), each declarator on its own.
C_CALLS = """
(call_expression function: [(identifier) @name
                            (field_expression field: (field_identifier) @name)]) @call
(parameter_declaration declarator: (_) @var)
(declaration declarator: (_) @var)
"""
# What holds a declaration: the block, ``for`` or function it is seen in (a parameter: its
# function; a function declaration's parameter: that declaration), else the file.
_HOLDERS = frozenset({"compound_statement", "for_statement", "function_definition", "declaration"})
# The declarators a name is wrapped in (``*p``, ``a[4]``, ``x = 1``, ``(x)``, C++'s ``&r``).
_WRAPPERS = frozenset({
    "init_declarator", "pointer_declarator", "array_declarator", "parenthesized_declarator",
    "attributed_declarator", "reference_declarator",
})  # fmt: skip
_NAMES = frozenset({"identifier", "field_identifier"})  # a variable's, a C++ field's
Variable = tuple["Node", "Node | None"]  # a variable's name, and the node above its declaration


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows, a call of a name with its target (``spans``: the definitions' byte
    spans ``(start, end, row)``, a call's scope the innermost one holding its name)."""
    text = reader(tree.root_node)
    calls: list[dict[str, list[Node]]] = []
    variables: dict[str, list[Variable]] = {}  # name -> each variable of that name
    for pattern, captures in matches:
        if pattern == 0:
            calls.append(captures)
            continue
        declarator = captures["var"][0]
        named = variable(declarator, pattern == 1)
        if named is not None:
            name = text(named)
            declaration = declarator.parent
            above = (named, declaration.parent if declaration is not None else None)
            if name in variables:
                variables[name].append(above)
            else:
                variables[name] = [above]
    found = Found()
    if calls:
        found.calls = call_rows(calls, spans, text, _Names(variables).target)
    return found


class _Names:
    """A file's variables, and what each call of a name calls."""

    def __init__(self, variables: dict[str, list[Variable]]) -> None:
        self.variables = variables
        self.seen: dict[str, tuple[list[int], list[tuple[Any, ...]]]] = {}

    def target(self, captures: dict[str, list[Node]], name: str, at: int, _: int) -> str | None:
        """``name`` for ``f()`` (not ``s.f()``) unless a variable of the name holds ``at``."""
        if captures["name"][0].type != "identifier":
            return None
        declared = self.variables.get(name)
        if declared is not None:
            if name not in self.seen:
                self.seen[name] = held(declared)
            begins, spans = self.seen[name]
            if holding(begins, spans, at) is not None:
                return None  # a variable: a pointer to a function
        return name


def held(declared: Sequence[tuple[Any, ...]]) -> tuple[list[int], list[tuple[Any, ...]]]:
    """Where each of a name's variables ``(name, the node above its declaration, *what)`` is
    seen, from its declarator to the end of what holds it (the file's end for a variable of
    the file), sorted by where it begins, as :func:`~codeagent.lang.ts_names.holding` reads
    them: ``(end, *what)``."""
    found = []
    for node, holder, *what in declared:
        while holder is not None and holder.type not in _HOLDERS:
            holder = holder.parent
        end = holder.end_byte if holder is not None else 1 << 62
        found.append((node.start_byte, end, *what))
    found.sort(key=itemgetter(0, 1))
    return [begin for begin, *_ in found], [tuple(rest) for _, *rest in found]


def variable(node: Node, parameter: bool) -> Node | None:
    """The name a declarator declares a variable, or None: no name (``int f(int)``'s
    parameter), or a function's declaration (``int f(int);``, ``char *g(void);``)."""
    function = pointer = False
    while True:
        kind = node.type
        if kind in _NAMES:
            return node if parameter or not function or pointer else None
        if kind == "function_declarator":
            function, pointer = True, False
        elif kind == "pointer_declarator" and function:
            pointer = True  # (*f)(int): a pointer to a function
        elif kind not in _WRAPPERS:
            return None
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = node.named_child(0)  # ( x ): a parenthesized declarator has no field
        if inner is None:
            return None
        node = inner
