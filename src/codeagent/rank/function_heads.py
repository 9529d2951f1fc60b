"""A function shown from its start, for a question asking how.

A definition longer than a chunk is cut into overlapping windows that keep its name. Its later
windows hold the statements, and a question's words often score one of them above the first,
which holds the signature and the documentation: httparty's ``ConnectionAdapter#connection``
was shown from its timeout lines on for "how are timeouts, proxy settings and the local bind
address applied when the connection is created?", serilog's ``JsonFormatter.Format`` from its
middle. A reader asked how something is done starts where the function does. So, when a later
window of a function or method of at most :data:`SPAN` lines is shown, the windows before it
are joined to it: one window from the function's first line to the end of the one that
matched, in the place that one earned (it takes no other window's place; raising the first
window's score instead took a third window of the first file from ripgrep's "how are context
lines printed?"). A longer function is shown as it matched: the window that does the asked
step of zlib's 600-line ``inflate`` does not start at its head.

A first window that holds only the documentation (a long Javadoc above its method) is shown
with the window after it, whatever the function's length: joda-time's ``forFields`` was shown
as forty lines of comment for "how do I get an ISO 8601 formatter that only outputs a chosen
set of fields?", its signature and code in the next window.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codeagent.rank.idle_defs import CALLABLE

if TYPE_CHECKING:
    from codeagent.rank.file_table import FileTable
    from codeagent.store.store import IndexStore

SPAN = 100  # a function up to this many lines is read from its start
# a line that is no code: a comment's, an annotation's or attribute's (``@Override``, ``#[cfg]``)
_NOT_CODE = re.compile(r"\s*(?:/\*|\*|//|#|@|$)")


def around(store: IndexStore, table: FileTable, path: str, i: int) -> list[int]:
    """The windows to join to chunk ``i`` of ``path``, nearest first: those before it
    (:func:`windows_before`), and the next window of its definition when ``i`` holds no line of
    code (only the documentation above it), and the next while they hold none."""
    chunk = store.chunks[i]
    if chunk.kind not in CALLABLE:
        return []
    mine = _windows(store, table, path, i)
    joined = _before(store, mine, i)[::-1] if chunk.symbol else []
    at = mine.index(i)
    while all(map(_NOT_CODE.match, store.chunks[mine[at]].text.splitlines())):
        if at + 1 == len(mine) or store.chunks[mine[at + 1]].start_line > _end(store, mine[at]):
            break
        at += 1  # a window of documentation: the next one too, until one holds code
        joined.append(mine[at])
    return joined


def _end(store: IndexStore, i: int) -> int:
    return store.chunks[i].end_line + 1


def windows_before(store: IndexStore, table: FileTable, path: str, i: int) -> list[int]:
    """The windows of ``path`` (in ``table``) of the function or method whose later window is
    chunk ``i`` that come before it, first to last, when the function spans at most
    :data:`SPAN` lines; none for anything else."""
    chunk = store.chunks[i]
    if chunk.kind not in CALLABLE or not chunk.symbol:
        return []
    return _before(store, _windows(store, table, path, i), i)


def _windows(store: IndexStore, table: FileTable, path: str, i: int) -> list[int]:
    """The chunks of ``path`` that carry chunk ``i``'s name and kind, by their first line."""
    return sorted(
        (j for j in table.file_chunks[table.ids[path]] if _same(store, i, j)),
        key=lambda j: store.chunks[j].start_line,
    )


def _before(store: IndexStore, mine: list[int], i: int) -> list[int]:
    """Of ``mine`` (:func:`_windows`), the windows of ``i``'s definition before it, first to
    last, when the definition spans at most :data:`SPAN` lines."""
    spans = [(store.chunks[j].start_line, store.chunks[j].end_line) for j in mine]
    first = last = at = mine.index(i)
    while first > 0 and spans[first][0] <= spans[first - 1][1] + 1:
        first -= 1  # back through the windows that overlap or touch: one definition's
    while last + 1 < len(spans) and spans[last + 1][0] <= spans[last][1] + 1:
        last += 1
    if at == first or spans[last][1] - spans[first][0] + 1 > SPAN:
        return []
    return mine[first:at]


def _same(store: IndexStore, i: int, j: int) -> bool:
    """Whether chunks ``i`` and ``j`` carry one definition's name and kind."""
    a, b = store.chunks[i], store.chunks[j]
    return a.symbol == b.symbol and a.kind == b.kind
