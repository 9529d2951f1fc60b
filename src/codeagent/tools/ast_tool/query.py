"""``run_ast_query``: one query about one file, answered through the operation table."""

from __future__ import annotations

from pathlib import Path

from codeagent.collector import gc_paused
from codeagent.tools.ast_tool.analyze import analyze
from codeagent.tools.ast_tool.errors import InvalidQueryError
from codeagent.tools.ast_tool.models import OPERATIONS, Operation
from codeagent.tools.ast_tool.operations import NEEDS_SYMBOL, TABLE
from codeagent.tools.ast_tool.ops import Query
from codeagent.tools.ast_tool.resolve import relative_path
from codeagent.tools.ast_tool.result import AstResult
from codeagent.tools.ast_tool.source import parse_file


def run_ast_query(
    root: Path, file: str, operation: Operation, symbol: str | None = None
) -> AstResult:
    """Answer ``operation`` about the Python file ``file`` names inside the repository ``root``.

    Raises an :class:`~codeagent.tools.ast_tool.errors.AstToolError` subclass on failure.
    """
    spec = TABLE.get(operation)
    if spec is None:
        known = ", ".join(OPERATIONS)
        raise InvalidQueryError(f"unknown AST operation {operation!r}; known: {known}")
    symbol = symbol.strip() if symbol else None
    if operation in NEEDS_SYMBOL and not symbol:
        raise InvalidQueryError(f"the {operation!r} operation needs a symbol name")
    rel = relative_path(root, file)
    with gc_paused():
        parsed = parse_file(root.resolve() / rel, rel)
        items, resolved = spec.answer(Query(analyze(parsed), parsed, rel, symbol or ""))
    return AstResult(
        path=rel,
        operation=operation,
        symbol=resolved if resolved is not None else symbol,
        line_count=len(parsed.lines),
        items=items,
    )
