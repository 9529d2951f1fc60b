"""How the file AST tool answers each structural operation on a Python file, one row each:
the function that answers it and the function that renders its answer. What an operation
answers and whether it needs a symbol is the one table's (:mod:`codeagent.tools.operations`,
read by the symbol tool and MCP too).

Adding an operation is one row in that table, one name in
:data:`~codeagent.tools.ast_tool.models.Operation` (the type the router's arguments are
checked against) and one row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from codeagent.tools.ast_tool import ops, render
from codeagent.tools.ast_tool.models import Operation
from codeagent.tools.ast_tool.render import Answered
from codeagent.tools.operations import BY_NAME, IN_FILE


@dataclass(frozen=True)
class OperationSpec:
    answer: Callable[[ops.Query], ops.Answer]
    render: Callable[[render.Answered], list[str]]
    render_long: Callable[[Answered], list[str]] | None = None  # with every signature


TABLE: dict[Operation, OperationSpec] = {
    "functions": OperationSpec(ops.functions, render.functions),
    "classes": OperationSpec(ops.classes, render.classes, render.classes_long),
    "methods": OperationSpec(ops.methods, render.methods),
    "imports": OperationSpec(ops.imports, render.imports),
    "variables": OperationSpec(ops.variables, render.variables),
    "decorators": OperationSpec(ops.decorators, render.decorators),
    "calls": OperationSpec(ops.calls, render.calls),
    "definition": OperationSpec(ops.definition, render.definition),
    "outline": OperationSpec(ops.outline, render.outline),
}
if tuple(TABLE) != get_args(Operation) or tuple(TABLE) != tuple(op.name for op in IN_FILE):
    # pragma: no cover - a row missing or out of order
    raise RuntimeError("the AST operation table, the Operation type and the one table differ")

OPERATION_HELP: dict[Operation, str] = {name: BY_NAME[name].help for name in TABLE}
NEEDS_SYMBOL: frozenset[Operation] = frozenset(n for n in TABLE if BY_NAME[n].needs_symbol)


def render_lines(operation: Operation, answered: render.Answered, *, long: bool = False) -> str:
    """The text answer: the operation's rendered lines, each ended by a newline; ``long``:
    with every signature (a listing that is one line per class otherwise)."""
    spec = TABLE[operation]
    lines = (spec.render_long if long and spec.render_long else spec.render)(answered)
    return "\n".join(lines) + "\n"
