"""Which binding of a name reaches a use, where a scope binds the name more than one way: read
from the order of the scope's statements, only where that order decides.

    schema = PostSchema()       # statement 0 of the function
    schema.dump(x)              # statement 1: the binding of statement 0 reaches it
    schema = PreSchema()        # statement 2
    for item in items:          # statement 3
        schema.load(item)       #   PreSchema: nothing in the loop binds it
    if flag:                    # statement 4
        schema = PostSchema()   #   a statement of the if's body:
        schema.load(x)          #   PostSchema, whatever the other branch binds

The statements of a block (a scope's body, an ``if``'s branch, a loop's or a ``with``'s body, a
``try``'s body) run one after the other. The use's own statement may bind the name only after
reading it (``x = x.copy()``, an ``if`` whose body binds it after its test reads it). Going
from the use's block outwards, the first block with a binding of the name before the use's
statement decides: the binding must be one of that block's own statements (``x = T(...)``,
``x: T = ...``), the last before the use. A block is left for the one around it only where
nothing the statement holding it binds can reach the use first: no binding in a loop around
the use (a later one comes back the next time round), none in the header of the statement (an
``if``'s test, a ``with``'s ``as``, a loop's target), none in a ``match`` (jedi, the oracle,
reads its cases as one run), none in a ``try``'s body for a use in its handlers. Before every
statement, a function's parameter. Anything else (the last binding inside an ``if`` before the
use, a name declared ``global``) says nothing here, and the use keeps what all of the name's
bindings say together (:mod:`codeagent.symbols.receivers`).
"""

from __future__ import annotations

import ast
import bisect

from codeagent.pysyntax import Structure
from codeagent.symbols.bindings import Bindings, bind, scope_bindings

_DIRECT = (ast.Assign, ast.AnnAssign)  # a statement that binds and says what
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
# the compound statements whose own header reads the name before their blocks may bind it
_READ_FIRST = (ast.If, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Match)
_BLOCKS = ("body", "orelse", "finalbody")
# the statements whose blocks run in the scope (a ``def`` or ``class`` is a scope of its own)
_COMPOUND = (ast.If, *_LOOPS, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match)
Place = tuple[int, int]  # (line, column)


def _start(node: ast.AST) -> Place:
    return (node.lineno, node.col_offset)  # type: ignore[attr-defined]


def _end(node: ast.AST) -> Place:
    return (node.end_lineno or node.lineno, node.end_col_offset or 0)  # type: ignore[attr-defined]


class ScopeFlow:
    """The statement order of one scope, read when a use of a name bound more than one way
    asks (:meth:`reaching`)."""

    def __init__(self, structure: Structure, scope: int | None, nodes: list[ast.AST]) -> None:
        """``scope``: the index of the scope's definition (None: the module); ``nodes``: its
        binding nodes, in source order."""
        self._structure, self._scope = structure, scope
        owner = structure.tree if scope is None else structure.defs[scope].node
        self._body: list[ast.stmt] = owner.body
        self._nodes = nodes
        self._by_name: dict[str, list[tuple[Place, Place, ast.AST]]] | None = None
        self._ends: dict[int, list[Place]] = {}  # a block's statements' ends, by the block's id

    def reaching(self, name: str, use: ast.expr) -> Bindings | None:
        """The bindings (of ``name`` only) of the statement whose binding reaches ``use``, or
        None when the order of the statements does not decide."""
        if getattr(use, "lineno", None) is None:  # a binding's text read back: no place
            return None
        place = _start(use)
        bindings = self._bindings(name)
        if any(type(n) is ast.Global or type(n) is ast.Nonlocal for _, _, n in bindings):
            return None
        if any(type(n) is ast.Lambda and p <= place < e for p, e, n in bindings):
            return None  # a lambda's parameter, in its body
        bindings = [b for b in bindings if type(b[2]) is not ast.Lambda]  # theirs, elsewhere
        path = self._path(place)
        for depth in range(len(path) - 1, -1, -1):
            block, at = path[depth]
            stmt = block[at]
            inside = [(p, n) for p, e, n in bindings if _start(stmt) <= p and e <= _end(stmt)]
            innermost = depth == len(path) - 1
            if inside and not (_reads_first if innermost else _passes)(stmt, inside, place):
                return None
            earlier = [n for p, _, n in bindings if _start(block[0]) <= p < _start(stmt)]
            if earlier:
                last = earlier[-1]  # pre-order: a statement comes before the nodes inside it
                if not isinstance(last, _DIRECT) or not any(last is s for s in block[:at]):
                    return None  # bound inside a compound statement (an if, a loop, a try)
                found: Bindings = {}
                bind(last, found)
                return {name: found[name]} if name in found else None
        if self._scope is None:  # before every statement: a function's parameter
            return None
        params = scope_bindings(self._structure, self._scope, [])
        return {name: params[name]} if name in params else None

    def _path(self, place: Place) -> list[tuple[list[ast.stmt], int]]:
        """The blocks from the scope's body in to the innermost one holding ``place``, each
        with the index of its statement that holds it."""
        path: list[tuple[list[ast.stmt], int]] = []
        block: list[ast.stmt] | None = self._body
        while block:
            ends = self._ends.get(id(block))
            if ends is None:
                ends = self._ends[id(block)] = [_end(s) for s in block]
            at = min(bisect.bisect_left(ends, place), len(block) - 1)
            path.append((block, at))
            block = _block_of(block[at], place)
        return path

    def _bindings(self, name: str) -> list[tuple[Place, Place, ast.AST]]:
        """``name``'s binding nodes in the scope, each with where it starts and ends, in
        source order."""
        if self._by_name is None:
            self._by_name = {}
            for node in self._nodes:
                place = node if hasattr(node, "lineno") else getattr(node, "target", None)
                if not isinstance(place, ast.expr | ast.stmt | ast.excepthandler | ast.pattern):
                    continue
                names: Bindings = {}
                bind(node, names)
                for bound in names:
                    entry = (_start(place), _end(place), node)
                    self._by_name.setdefault(bound, []).append(entry)
        return self._by_name.get(name, [])


def _block_of(stmt: ast.stmt, place: Place) -> list[ast.stmt] | None:
    """The block of the compound statement ``stmt`` that holds ``place`` (None: in its header,
    or ``stmt`` holds no block of the scope)."""
    if not isinstance(stmt, _COMPOUND):
        return None
    blocks: list[list[ast.stmt]] = [getattr(stmt, field, None) or [] for field in _BLOCKS]
    blocks += [h.body for h in getattr(stmt, "handlers", ())]
    blocks += [c.body for c in getattr(stmt, "cases", ())]
    for block in blocks:
        if block and _start(block[0]) <= place < _end(block[-1]):
            return block
    return None


def _reads_first(stmt: ast.stmt, inside: list[tuple[Place, ast.AST]], place: Place) -> bool:
    """Whether the use's own statement reads the name before anything in it binds it: the
    value of an assignment, or the header of an ``if``, a ``for``, a ``with``, a ``match``
    whose bindings all come after the use."""
    if isinstance(stmt, _DIRECT):
        value = stmt.value
        reads = value is not None and _start(value) <= place < _end(value)
        return reads and len(inside) == 1 and inside[0][1] is stmt
    if any(type(n) is ast.comprehension for _, n in inside):
        return False  # its target is written after the element that reads it
    return isinstance(stmt, _READ_FIRST) and all(p > place for p, _ in inside)


def _passes(stmt: ast.stmt, inside: list[tuple[Place, ast.AST]], place: Place) -> bool:
    """Whether what ``stmt`` binds (``inside``) cannot reach the use in one of its blocks
    before it: after it in the same run (not in a loop), or in another branch."""
    if isinstance(stmt, _LOOPS):
        return False  # a later binding comes back the next time round
    body = stmt.body if isinstance(stmt, ast.Try | ast.TryStar) else None
    if body is not None and not (_start(body[0]) <= place < _end(body[-1])):
        return False  # a use in a handler, else or finally: the try's body may have bound it
    blocks = [b for f in _BLOCKS for b in [getattr(stmt, f, None) or []] if b]
    blocks += [h.body for h in getattr(stmt, "handlers", ())]  # a match's cases: as its header
    return all(any(_start(b[0]) <= p < _end(b[-1]) for b in blocks) for p, _ in inside)
