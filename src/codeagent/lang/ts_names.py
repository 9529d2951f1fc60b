"""The spans and names the TypeScript/JavaScript receiver walk looks things up in
(:mod:`codeagent.lang.ts_calls`): nested spans with the innermost one holding a place, and
every name a file declares with the function that declares it; the innermost of one name's
declarations holding a place (:func:`holding`, for the Java, Go, Rust, C and C++ walks too);
the call rows of a walk that writes each call's target (:func:`call_rows`: Rust, C, C++)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

from codeagent.lang.ts_receivers import Scope, Text

if TYPE_CHECKING:
    from tree_sitter import Node

# What a walk writes for one call: (its captures, its name, where it is, its scope) -> target
Targeter = Callable[[dict[str, list["Node"]], str, int, int], "str | None"]

Span = TypeVar("Span", bound=tuple[Any, ...])


def holding(begins: list[int], spans: list[Span], at: int) -> Span | None:
    """Of one name's declarations, sorted by where they are first seen (``begins``), each
    ``(seen to, ...)``: the latest to begin at or before ``at`` that still holds it, which is
    the innermost where a name's spans nest or are apart; None when none holds it."""
    for i in range(bisect_right(begins, at) - 1, -1, -1):
        if at < spans[i][0]:
            return spans[i]
    return None


def call_rows(
    calls: Iterable[dict[str, list[Node]]],
    spans: list[tuple[int, int, int]],
    text: Text,
    target: Targeter,
) -> list[list[Any]]:
    """``[line, name, scope]`` of each call (its ``name`` capture), with the target ``target``
    writes for it when it writes one, sorted by line and name; the scope is the row of the
    innermost of ``spans`` ``(start, end, row)`` holding the name (-1: none)."""
    scopes = Nest(list(spans))
    inner, scope_rows = scopes.inner, scopes.items
    rows: list[list[Any]] = []
    for captures in calls:
        node = captures["name"][0]
        start, end = node.byte_range
        name = text(node)
        i = inner(start, end)
        scope = scope_rows[i] if i >= 0 else -1
        written = target(captures, name, start, scope)
        line = node.start_point[0] + 1
        rows.append([line, name, scope, written] if written else [line, name, scope])
    rows.sort(key=itemgetter(0, 1))
    return rows


class Nest:
    """Spans ``(start, end, item)`` sorted by start (the outer first), and the innermost one
    holding a span."""

    def __init__(self, spans: list[tuple[int, int, Any]]) -> None:
        spans.sort(key=lambda s: (s[0], -s[1]))
        self.items = [s[2] for s in spans]
        self.starts = [s[0] for s in spans]
        self.ends = [s[1] for s in spans]
        self.parents: list[int] = []
        stack: list[int] = []
        for i, end in enumerate(self.ends):
            while stack and self.ends[stack[-1]] < end:
                stack.pop()
            self.parents.append(stack[-1] if stack else -1)
            stack.append(i)

    def inner(self, start: int, end: int) -> int:
        i = bisect_right(self.starts, start) - 1
        while i >= 0 and self.ends[i] < end:
            i = self.parents[i]
        return i


class Names:
    """Every name declared in the file, with the function that declares it (-1: the module):
    a name at a place is the declaration of the innermost function holding the place (its
    parameters, then its body's declarations, the later winning; the module's imports last)."""

    def __init__(self, functions: Nest) -> None:
        self.functions = functions
        self.by_name: dict[str, list[tuple[int, int, int, int, str | None]]] = {}
        self.starts: dict[str, list[int]] = {}

    def add(self, scope: Scope, owner: int, rank: int) -> None:
        start = self.functions.starts[owner] if owner >= 0 else -1
        for name, value in scope.items():
            rows = self.by_name.setdefault(name, [])
            rows.append((start, rank, len(rows), owner, value))

    def at(self, name: str, start: int, end: int) -> str | None:
        rows = self.by_name.get(name)
        if rows is None:
            return None
        starts = self.starts.get(name)
        if starts is None:  # a name's rows sorted when first asked for (most never are)
            rows.sort()  # by where their function starts, then rank, then order: a lookup
            starts = self.starts[name] = [row[0] for row in rows]  # walks back from the place
        ends = self.functions.ends
        for i in range(bisect_right(starts, start) - 1, -1, -1):
            owner = rows[i][3]
            if owner < 0 or ends[owner] >= end:
                return rows[i][4]
        return None
