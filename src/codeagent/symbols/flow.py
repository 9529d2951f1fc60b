"""Which binding of a name reaches a use, where a scope binds the name more than one way: read
from the order of the scope's own statements, only where that order decides.

    schema = PostSchema()       # statement 0 of the function
    schema.dump(x)              # statement 1: the binding of statement 0 reaches it
    schema = PreSchema()        # statement 2
    schema.load(x)              # statement 3: statement 2's binding, PreSchema

A scope's statements (a function's, a class body's, the module's) run one after the other,
so a binding that is one of them, written before the statement of the use, with no other
binding of the name in a statement between them (nor in the use's own statement, where a
loop could carry one back), is the one the use sees. Anything else (the last binding inside an
``if``, a ``try`` or a loop, a name declared ``global``) says nothing here, and the use keeps
what all of the name's bindings say together (:mod:`codeagent.symbols.receivers`).
"""

from __future__ import annotations

import ast
import bisect

from codeagent.pysyntax import Structure
from codeagent.symbols.bindings import Bindings, bind, scope_bindings

_DIRECT = (ast.Assign, ast.AnnAssign)  # a statement that binds and says what


class ScopeFlow:
    """The statement order of one scope, read when a use of a name bound more than one way
    asks (:meth:`reaching`)."""

    def __init__(self, structure: Structure, scope: int | None, nodes: list[ast.AST]) -> None:
        """``scope``: the index of the scope's definition (None: the module); ``nodes``: its
        binding nodes, in source order."""
        self._structure, self._scope = structure, scope
        owner = structure.tree if scope is None else structure.defs[scope].node
        body: list[ast.stmt] = owner.body
        self._body = body
        self._ends = [(s.end_lineno or s.lineno, s.end_col_offset or 0) for s in body]
        self._nodes = nodes
        self._by_name: dict[str, list[tuple[int, ast.AST]]] | None = None

    def reaching(self, name: str, use: ast.expr) -> Bindings | None:
        """The bindings (of ``name`` only) that the statement reaching ``use`` makes, or None
        when the order of the scope's statements does not decide."""
        line = getattr(use, "lineno", None)
        if line is None:  # a binding's text read back: no place in the file
            return None
        at = self._statement(line, use.col_offset)
        bindings = self._bindings(name)
        if any(type(n) is ast.Global or type(n) is ast.Nonlocal for _, n in bindings):
            return None
        own = [node for index, node in bindings if index == at]
        if own and not (own == [self._body[at]] and _in_value(own[0], use)):
            return None  # bound in the use's statement (a loop may bring it back)
        earlier = [(index, node) for index, node in bindings if index < at]
        if not earlier:  # a function's parameter, if it has one of the name
            if self._scope is None:
                return None
            params = scope_bindings(self._structure, self._scope, [])
            return {name: params[name]} if name in params else None
        index, last = earlier[-1]  # pre-order: a statement comes before the nodes inside it
        if last is not self._body[index] or not isinstance(last, _DIRECT):
            return None  # bound inside a compound statement (an if, a loop, a try, a with)
        found: Bindings = {}
        bind(last, found)
        return {name: found[name]} if name in found else None

    def _statement(self, line: int, column: int) -> int:
        """The index of the statement of the scope that holds the position."""
        return bisect.bisect_left(self._ends, (line, column))

    def _bindings(self, name: str) -> list[tuple[int, ast.AST]]:
        """``name``'s binding nodes in the scope, each with the index of its statement."""
        if self._by_name is None:
            self._by_name = {}
            for node in self._nodes:
                place = node if hasattr(node, "lineno") else getattr(node, "target", None)
                if not isinstance(place, ast.expr | ast.stmt | ast.excepthandler | ast.pattern):
                    continue
                index = self._statement(place.lineno, place.col_offset)
                names: Bindings = {}
                bind(node, names)
                for bound in names:
                    self._by_name.setdefault(bound, []).append((index, node))
        return self._by_name.get(name, [])


def _in_value(statement: ast.AST, use: ast.expr) -> bool:
    """Whether ``use`` is read in the value an assignment statement binds (read before the
    statement binds it: ``x = x.copy()``)."""
    value = getattr(statement, "value", None)
    if not isinstance(statement, _DIRECT) or value is None:
        return False
    start = (value.lineno, value.col_offset)
    end = (value.end_lineno or value.lineno, value.end_col_offset or 0)
    return start <= (use.lineno, use.col_offset) < end
