"""The AST operations, one row each: what it answers (the router prompt lists it), whether it
needs a symbol, the function that answers it and the function that renders its answer.

Adding an operation is one name in :data:`~codeagent.tools.ast_tool.models.Operation` (the
type the router's arguments are checked against) and one row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from codeagent.tools.ast_tool import ops, render
from codeagent.tools.ast_tool.models import Operation
from codeagent.tools.ast_tool.render import Answered


@dataclass(frozen=True)
class OperationSpec:
    help: str  # what it answers; ``symbol`` is what it names
    needs_symbol: bool
    answer: Callable[[ops.Query], ops.Answer]
    render: Callable[[render.Answered], list[str]]
    render_long: Callable[[Answered], list[str]] | None = None  # with every signature


TABLE: dict[Operation, OperationSpec] = {
    "functions": OperationSpec(
        "the top-level functions of the file", False, ops.functions, render.functions
    ),
    "classes": OperationSpec(
        "the classes of the file (with their bases and methods)",
        False, ops.classes, render.classes, render.classes_long,
    ),
    "methods": OperationSpec(
        "the methods of one class (`symbol` = the class)", True, ops.methods, render.methods
    ),
    "imports": OperationSpec("what the file imports", False, ops.imports, render.imports),
    "variables": OperationSpec(
        "module-level variables and constants", False, ops.variables, render.variables
    ),
    "decorators": OperationSpec(
        "the decorators used in the file", False, ops.decorators, render.decorators
    ),
    "calls": OperationSpec(
        "where a name is called in the file (`symbol` = the called name)",
        True, ops.calls, render.calls,
    ),
    "definition": OperationSpec(
        "the definition, signature or docstring of one symbol (`symbol` = its name)",
        True, ops.definition, render.definition,
    ),
    "outline": OperationSpec(
        "an outline of everything the file defines", False, ops.outline, render.outline
    ),
}  # fmt: skip
if tuple(TABLE) != get_args(Operation):  # pragma: no cover - a row missing or out of order
    raise RuntimeError("the AST operation table and the Operation type differ")

OPERATION_HELP: dict[Operation, str] = {name: spec.help for name, spec in TABLE.items()}
NEEDS_SYMBOL: frozenset[Operation] = frozenset(n for n, spec in TABLE.items() if spec.needs_symbol)


def render_lines(operation: Operation, answered: render.Answered, *, long: bool = False) -> str:
    """The text answer: the operation's rendered lines, each ended by a newline; ``long``:
    with every signature (a listing that is one line per class otherwise)."""
    spec = TABLE[operation]
    lines = (spec.render_long if long and spec.render_long else spec.render)(answered)
    return "\n".join(lines) + "\n"
