"""A PHP variable's class from its bindings, for :mod:`codeagent.lang.php_calls`: each
binding of ``$x`` in the function a call is in (a typed parameter, ``catch (E $e)``, an
assignment, a documented ``foreach``, a docblock's ``@var``, which wins over the others) states
a class, read once when a call first asks (``_stated``); the variable has it when they all
state the same one, ``{A|B.g()}`` when they are written differently
(:mod:`codeagent.lang.php_alternatives`). An arrow function's variable, and a closure's
``use ($x)``, is the one of the function around it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from codeagent.lang import php_alternatives
from codeagent.lang.ts_names import Nest

if TYPE_CHECKING:
    from tree_sitter import Node


class _Calls(Protocol):
    """What is read of :class:`codeagent.lang.php_calls._Calls`."""

    decls: dict[str, list[list[Any]]]  # $name -> [its node, then its function; ...]
    functions: Nest | None
    function_spans: list[tuple[int, int, str]]

    def _stated(self, decl: list[Any]) -> str: ...


def variable(walk: _Calls, name: str, at: int) -> str | None:
    """The class of the variable ``name`` at ``at`` where each of its bindings in the function
    (an arrow function's or a closure's ``use``: the one around too) says one."""
    decls = walk.decls.get(name)
    if not decls:
        return None
    functions = walk.functions or Nest(list(walk.function_spans))
    walk.functions = functions
    for decl in decls if not isinstance(decls[0][0], int) else ():
        node: Node = decl[0]
        decl[0] = functions.inner(node.start_byte, node.end_byte)
    scope = functions.inner(at, at)
    while True:
        here = [decl for decl in decls if decl[0] == scope]
        stated = [decl for decl in here if len(decl) > 3]  # a docblock's @var: it wins
        found = {walk._stated(decl) for decl in stated or here}
        if found and found != {php_alternatives.OUTER}:
            return php_alternatives.agreed(found)
        if scope < 0 or (not found and functions.items[scope] != "arrow_function"):
            return None
        scope = functions.parents[scope]
