"""Calls to a name: ``name(...)`` and ``obj.name(...)``, with the scope each is made in
(the scopes as :mod:`codeagent.pysyntax.calls` defines them: decorators, default values and
annotations run in the scope that holds the definition; a class body is a scope of its own;
lambdas and comprehensions belong to the function around them). Only statements whose lines
mention the name are read.
"""

from __future__ import annotations

import ast
import bisect
import re

from codeagent.pysyntax import calls as pysyntax_calls
from codeagent.tools.ast_tool import describe
from codeagent.tools.ast_tool.models import CallSite
from codeagent.tools.ast_tool.source import ParsedFile


def find_calls(parsed: ParsedFile, symbol: str) -> list[CallSite]:
    """Every call of ``symbol`` (a bare name, or dotted: ``os.path.join`` matches that callee
    or one ending in it), in source order."""
    name = symbol.rpartition(".")[2]
    offsets = parsed.line_offsets()
    mentions = re.finditer(rf"\b{re.escape(name)}\b", parsed.text)
    lines = sorted({bisect.bisect_right(offsets, m.start()) for m in mentions})
    if not lines:
        return []
    found: list[tuple[int, int, CallSite]] = []
    structure = parsed.structure()
    for call, scope in pysyntax_calls(structure, lines=lines):
        assert isinstance(call, ast.Call)
        func = call.func
        simple = (
            func.id if isinstance(func, ast.Name)
            else func.attr if isinstance(func, ast.Attribute)
            else None
        )  # fmt: skip
        if simple != name:
            continue
        callee = describe.unparse(func)
        if "." in symbol and callee != symbol and not callee.endswith("." + symbol):
            continue
        site = CallSite(
            callee=callee,
            text=describe.snippet(parsed.lines, call),
            line=call.lineno,
            end_line=call.end_lineno or call.lineno,
            scope=structure.scope_name(scope),
        )
        found.append((call.lineno, call.col_offset, site))
    found.sort(key=lambda f: (f[0], f[1]))
    return [site for _, _, site in found]
