"""PHP ``instanceof`` checks, for :mod:`codeagent.lang.php_calls`: the code where a variable or
``$this->p`` is known to be of a class because a check just said so, as a PHP language server
reads it (monolog's ``if ($this->handler instanceof ResettableInterface) {
$this->handler->reset(); }``: the property is declared with ``HandlerInterface``, which has
no ``reset``).

- ``if (S instanceof T) BODY``: ``S`` is ``T`` in ``BODY`` (not in an ``else``);
- ``S instanceof T && REST`` (``and`` too), at any depth of a chain of them: in ``REST``, and
  in the ``if`` body the chain is the condition of;
- ``S instanceof T ? A : B``: in ``A``.

``S`` is a variable or a property of ``$this``, matched by its text; ``T`` a class name (made
whole where it is written). A negation, an ``||`` or anything else around the check narrows
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

# the check: its subject, the class, the whole expression
PATTERN = (
    "(binary_expression left: [(variable_name) (member_access_expression)] @subject "
    'operator: "instanceof" right: [(name) (qualified_name)] @type) @test'
)
_AND = frozenset({"&&", "and"})


def checks(
    tests: list[dict[str, list[Node]]], text: Text, whole: Callable[[str, int], str]
) -> list[tuple[str, int, int, str]]:
    """``(subject, start, end, class)`` of each check of ``tests`` (:data:`PATTERN`'s
    captures) and each span where it holds (``whole``: a class name made whole where it is)."""
    return [
        (text(test["subject"][0]), start, end, cls)
        for test in tests
        if (cls := whole(text(test["type"][0]), test["test"][0].start_byte))
        for start, end in regions(test["test"][0])
    ]


def regions(test: Node) -> list[tuple[int, int]]:
    """The byte spans where the check ``test`` (``S instanceof T``) holds."""
    found: list[tuple[int, int]] = []
    node = test
    while (parent := node.parent) is not None and parent.type == "binary_expression":
        operator = parent.child_by_field_name("operator")
        if operator is None or operator.type not in _AND:
            return found
        left, right = parent.child_by_field_name("left"), parent.child_by_field_name("right")
        if left is not None and right is not None and left.start_byte == node.start_byte:
            found.append((right.start_byte, right.end_byte))  # S instanceof T && REST
        node = parent
    if parent is None:
        return found
    if parent.type == "conditional_expression":
        condition, body = (
            parent.child_by_field_name("condition"),
            parent.child_by_field_name("body"),
        )
        if condition is not None and body is not None and condition.start_byte == node.start_byte:
            found.append((body.start_byte, body.end_byte))
    elif parent.type == "parenthesized_expression":
        statement = parent.parent
        body = statement.child_by_field_name("body") if statement is not None else None
        if statement is not None and statement.type == "if_statement" and body is not None:
            condition = statement.child_by_field_name("condition")
            if condition is not None and condition.start_byte == parent.start_byte:
                found.append((body.start_byte, body.end_byte))
    return found


def narrowed(checks: list[tuple[str, int, int, str]], subject: str, at: int) -> str | None:
    """The class the innermost of ``checks`` (``(subject, start, end, class)``) holding ``at``
    says ``subject`` is; None when none does."""
    best: tuple[int, str] | None = None
    for written, start, end, cls in checks:
        if written == subject and start <= at < end and (best is None or start > best[0]):
            best = (start, cls)
    return best[1] if best is not None else None
