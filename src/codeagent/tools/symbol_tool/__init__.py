"""Repository-wide structural answers from the symbol graph built at index time.

    run_symbol_query(store.symbols, SymbolArgs(operation="callers", name="send"), root)

Operations: definition, callers (by name), subclasses (``transitive``), importers, imports,
methods (inherited ones marked). A name the repository does not have raises
:class:`SymbolToolError`; the agent then searches.
"""

from __future__ import annotations

from codeagent.tools.symbol_tool.match import match_symbol_question
from codeagent.tools.symbol_tool.names import SymbolToolError
from codeagent.tools.symbol_tool.query import run_symbol_query
from codeagent.tools.symbol_tool.result import (
    SYMBOL_OPERATIONS,
    SymbolArgs,
    SymbolItem,
    SymbolOperation,
    SymbolResult,
)
from codeagent.tools.symbol_tool.tool import SymbolTool

__all__ = [
    "SYMBOL_OPERATIONS",
    "SymbolArgs",
    "SymbolItem",
    "SymbolOperation",
    "SymbolResult",
    "SymbolTool",
    "SymbolToolError",
    "match_symbol_question",
    "run_symbol_query",
]
