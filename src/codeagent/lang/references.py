"""The imports and calls of a parsed file, read from its language's query matches (the
``i`` and ``c`` rows of :mod:`codeagent.lang.extract`), and the text of captured nodes."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from codeagent.lang.spec import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node


_TIGHT = re.compile(r"\s*([,<>*&()])\s*")


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def cast_name(cast: Node) -> str:
    """``operator const char*`` for ``operator const char*() const``: the words before its
    own parameter list (the last one: ``operator Action<R(Args...)>()`` has two)."""
    text = node_text(cast)
    lists = [n for n in _descendants(cast) if n.type == "parameter_list"]
    params = lists[-1] if lists else None
    if params is not None:
        text = text[: params.start_byte - cast.start_byte]
    return _TIGHT.sub(r"\1", " ".join(text.split()))  # as ctags writes it: tuple<T1,T2>&


def _descendants(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.children))
    return out


def first_capture(captures: dict[str, list[Node]], name: str) -> Node | None:
    found = captures.get(name)
    return found[0] if found else None


def imports_of(
    spec: LanguageSpec, matches: list[tuple[int, dict[str, list[Node]]]]
) -> list[list[Any]]:
    rows: list[list[Any]] = []
    seen: set[tuple[int, str, str | None, str | None]] = set()
    for _, captures in matches:
        stmt, module = first_capture(captures, "import"), first_capture(captures, "module")
        if stmt is None or module is None:
            continue
        text = node_text(module)
        if spec.strip_quotes:
            text = text.strip("\"'`<>")
        name, alias = first_capture(captures, "name"), first_capture(captures, "alias")
        row = (
            stmt.start_point[0] + 1,
            text,
            node_text(name) if name is not None else None,
            node_text(alias) if alias is not None else None,
        )
        if row not in seen:
            seen.add(row)
            rows.append(list(row))
    named = {(r[0], r[1]) for r in rows if r[2] is not None or r[3] is not None}
    rows = [r for r in rows if r[2] is not None or r[3] is not None or (r[0], r[1]) not in named]
    rows.sort(key=lambda r: r[0])
    return rows


def calls_of(
    matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> list[list[Any]]:
    """``[line, name, scope]`` of each call (TypeScript's and JavaScript's rows, with their
    targets, are written by :func:`codeagent.lang.ts_calls.read`)."""
    # Definitions nest: sorted by start, each one's parent is the nearest earlier span that
    # holds it, so the innermost definition holding a call is found by bisection then a walk
    # up through the parents.
    ordered = sorted(spans, key=lambda s: (s[0], -s[1]))
    starts = [s[0] for s in ordered]
    parents: list[int] = []
    stack: list[int] = []
    for i, (_start, end, _) in enumerate(ordered):
        while stack and ordered[stack[-1]][1] < end:
            stack.pop()
        parents.append(stack[-1] if stack else -1)
        stack.append(i)
    rows: list[list[Any]] = []
    seen: set[tuple[int, int]] = set()
    for _, captures in matches:
        call, name = first_capture(captures, "call"), first_capture(captures, "name")
        if call is None or name is None or (call.start_byte, call.end_byte) in seen:
            continue
        seen.add((call.start_byte, call.end_byte))
        i = bisect_right(starts, call.start_byte) - 1
        while i >= 0 and ordered[i][1] < call.end_byte:
            i = parents[i]
        rows.append([name.start_point[0] + 1, node_text(name), ordered[i][2] if i >= 0 else -1])
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows
