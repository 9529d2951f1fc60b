"""Calls to a name: ``name(...)`` and ``obj.name(...)``, with the scope each is made in.

Decorators, default values and annotations run in the scope that holds the definition;
a class body is a scope of its own (``Outer``); lambdas and comprehensions belong to the
function around them. Only statements whose lines mention the name are searched.
"""

from __future__ import annotations

import ast
import bisect
import re

from codeagent.tools.ast_tool import describe
from codeagent.tools.ast_tool.models import CallSite
from codeagent.tools.ast_tool.source import ParsedFile

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def find_calls(parsed: ParsedFile, symbol: str) -> list[CallSite]:
    """Every call of ``symbol`` (a bare name, or dotted: ``os.path.join`` matches that callee
    or one ending in it), in source order."""
    name = symbol.rpartition(".")[2]
    offsets = parsed.line_offsets()
    mentions = re.finditer(rf"\b{re.escape(name)}\b", parsed.text)
    lines = sorted({bisect.bisect_right(offsets, m.start()) for m in mentions})
    if not lines:
        return []
    finder = _Finder(lines, name)
    finder.visit_children(parsed.tree, "<module>", "")
    found: list[tuple[int, int, CallSite]] = []
    for call, scope in finder.found:
        callee = describe.unparse(call.func)
        if "." in symbol and callee != symbol and not callee.endswith("." + symbol):
            continue
        site = CallSite(
            callee=callee,
            text=describe.snippet(parsed.lines, call),
            line=call.lineno,
            end_line=call.end_lineno or call.lineno,
            scope=scope,
        )
        found.append((call.lineno, call.col_offset, site))
    found.sort(key=lambda f: (f[0], f[1]))
    return [site for _, _, site in found]


class _Finder:
    def __init__(self, lines: list[int], name: str) -> None:
        self.lines = lines
        self.name = name
        self.found: list[tuple[ast.Call, str]] = []

    def mentions(self, node: ast.AST) -> bool:
        start = getattr(node, "lineno", None)
        if start is None:
            return True
        if isinstance(node, _DEFS) and node.decorator_list:
            start = node.decorator_list[0].lineno  # a def's lineno is its `def` line
        end = getattr(node, "end_lineno", None) or start
        i = bisect.bisect_left(self.lines, start)
        return i < len(self.lines) and self.lines[i] <= end

    def visit_children(self, node: ast.AST, scope: str, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if self.mentions(child):
                self.visit(child, scope, prefix)

    def visit(self, node: ast.AST, scope: str, prefix: str) -> None:
        if isinstance(node, _DEFS):
            for expr in _outer_expressions(node):
                if self.mentions(expr):
                    self.visit(expr, scope, prefix)
            qualname = f"{prefix}.{node.name}" if prefix else node.name
            for stmt in node.body:
                if self.mentions(stmt):
                    self.visit(stmt, qualname, qualname)
            return
        if isinstance(node, ast.Call):
            func = node.func
            simple = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if simple == self.name:
                self.found.append((node, scope))
        self.visit_children(node, scope, prefix)


def _outer_expressions(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> list[ast.AST]:
    """The parts of a definition evaluated in the scope around it."""
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords]
    args = node.args
    found: list[ast.AST] = [*node.decorator_list, *args.defaults]
    found += [d for d in args.kw_defaults if d is not None]
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    found += [a.annotation for a in every if a is not None and a.annotation is not None]
    return found + ([node.returns] if node.returns is not None else [])
