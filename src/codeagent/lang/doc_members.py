"""Members a type declares in its documentation, not in its code: PHP's ``@method`` tags
(monolog's ``TestHandler`` declares ``hasDebugRecords()`` and forty more so, answered by its
``__call``). A language's :attr:`~codeagent.lang.spec.LanguageSpec.doc_members` reads them
from a type's lead (the comment lines above its name's line); they are rows of the file like
any member (``where is hasDebugRecords defined?``, a call of it tied to it) on the tag's line,
and hold no lines of code: the chunker leaves them out (:mod:`codeagent.lang.chunks`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from codeagent.lang.spec import TYPE_KINDS

Reader = Callable[[list[str], list[Any]], list[list[Any]]]


def inserted(
    read: Reader, text: str, rows: list[list[Any]], spans: list[tuple[int, int, int]]
) -> tuple[list[list[Any]], list[tuple[int, int, int]]]:
    """``rows`` with, after each type's row, the members its lead declares (``read(lines,
    row)``), but for a name the file defines in code too; ``spans`` (byte span, row index)
    following their rows."""
    lines: list[str] | None = None
    known = {row[0] for row in rows}
    out: list[list[Any]] = []
    moved: list[int] = []
    for row in rows:
        moved.append(len(out))
        out.append(row)
        if row[1] in TYPE_KINDS and row[3] < row[2]:  # a type with lines above its name
            lines = text.split("\n") if lines is None else lines
            out += [r for r in read(lines, row) if r[0] not in known]
    if len(out) == len(rows):
        return rows, spans
    return out, [(start, end, moved[i]) for start, end, i in spans]


def in_lead(child: list[Any], parent: list[Any]) -> bool:
    """Whether the row ``child`` lies in the lead of its type ``parent`` (above its name's
    line): a member its documentation declares."""
    return int(child[4]) < int(parent[2])
