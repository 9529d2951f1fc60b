"""Call sites, each in the scope it runs in, read over a file's :class:`Structure`.

A function's decorators, default values and annotations, and a class's decorators, bases and
keywords, run in the scope that holds the definition; a class body is a scope of its own;
lambdas and comprehensions belong to the scope around them. Calls come in source order
(the order of a pre-order walk of the tree).
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Callable

from codeagent.pysyntax.structure import Structure

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Nodes with nothing below them that a walk for calls (and bindings) needs.
_LEAVES = frozenset({ast.Name, ast.Constant, ast.Load, ast.Store, ast.Del})
Site = tuple[ast.Call | ast.ImportFrom, int | None]  # the node, the index of its scope's def


def calls(
    structure: Structure,
    *,
    lines: list[int] | None = None,
    imports: bool = False,
    also: tuple[type[ast.AST], ...] = (),
    found_also: dict[int | None, list[ast.AST]] | None = None,
) -> list[Site]:
    """Every call of the file with its scope (the index of its definition in
    ``structure.defs``; None for the module's own).

    ``lines`` (sorted): only statements and expressions that span one of these lines are
    read (the lines that mention a name, when only calls of that name are wanted).
    ``imports``: the ``from ... import`` statements come too, where they stand among the calls
    (an alias is known from its import on).
    ``also``: node types (exact types) gathered by their scope into ``found_also`` in the
    same walk, in source order (what binds names, for :mod:`codeagent.symbols.receivers`).
    """
    keep = _spanning(lines) if lines is not None else None
    found: list[Site] = []
    gather = frozenset(also) if found_also is not None else frozenset()

    def visit(node: ast.AST, scope: int | None) -> None:
        if isinstance(node, _DEFS):
            own = structure.scope_of[id(node)]
            for part in _outer(node):
                if keep is None or keep(part):
                    visit(part, scope)
            for stmt in node.body:
                if keep is None or keep(stmt):
                    visit(stmt, own)
            return
        if isinstance(node, ast.Call) or (imports and isinstance(node, ast.ImportFrom)):
            found.append((node, scope))
        if gather and type(node) in gather:
            gathered = found_also.get(scope)  # type: ignore[union-attr]
            if gathered is None:
                found_also[scope] = [node]  # type: ignore[index]
            else:
                gathered.append(node)
        for field in node._fields:  # ast.iter_child_nodes, inline: the walk is the cost
            child = getattr(node, field, None)
            if isinstance(child, list):
                for item in child:
                    wanted = type(item) not in _LEAVES and isinstance(item, ast.AST)
                    if wanted and (keep is None or keep(item)):
                        visit(item, scope)
            elif (
                type(child) not in _LEAVES
                and isinstance(child, ast.AST)
                and (keep is None or keep(child))
            ):
                visit(child, scope)

    visit(structure.tree, None)
    return found


def _outer(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[ast.AST]:
    """The parts of a definition evaluated in the scope around it, in source order."""
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords]
    return [*node.decorator_list, node.args, *([node.returns] if node.returns is not None else [])]


def _spanning(lines: list[int]) -> Callable[[ast.AST], bool]:
    """Whether a node spans one of ``lines`` (a node without lines always does)."""

    def keep(node: ast.AST) -> bool:
        start = getattr(node, "lineno", None)
        if start is None:
            return True
        if isinstance(node, _DEFS) and node.decorator_list:
            start = node.decorator_list[0].lineno  # a def's lineno is its `def` line
        end = getattr(node, "end_lineno", None) or start
        i = bisect.bisect_left(lines, start)
        return i < len(lines) and lines[i] <= end

    return keep
