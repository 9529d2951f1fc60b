"""The symbol tool in the shape of the tool registry's ``Tool`` protocol.

``ctx`` is anything with ``repo_root`` and ``symbols`` (the :class:`SymbolGraph`, loaded on
first use) attributes.
"""

from __future__ import annotations

from typing import Any

from codeagent.tools.symbol_tool.query import run_symbol_query
from codeagent.tools.symbol_tool.result import SymbolArgs, SymbolResult


class SymbolTool:
    name = "symbols"
    description = (
        "Repository-wide structural questions that name no file: where a class, function or "
        "method is defined (X, Class.method or a dotted path), who calls X or where X is used "
        "(by name), subclasses of a class, which modules import X, what a module imports, and "
        "the methods of a class including inherited ones."
    )
    args_model = SymbolArgs

    def match(self, question: str, ctx: Any) -> SymbolArgs | None:
        """The rule router's decision for ``question``, when it picks this tool."""
        from codeagent.agent.rules import route_by_rules

        decision = route_by_rules(question, ctx.repo_root)
        if decision.tool != "symbols" or not decision.symbol or not decision.operation:
            return None
        return SymbolArgs(operation=decision.operation, name=decision.symbol)

    def run(self, args: SymbolArgs, ctx: Any) -> SymbolResult:
        return run_symbol_query(ctx.symbols, args, ctx.repo_root)
