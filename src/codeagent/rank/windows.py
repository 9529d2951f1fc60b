"""The windows an answer shows: chunks of one file merged where they touch, and, when the source
files run out before the first places are filled, more of the source before the files that the
source-first rule keeps after them.

A small library has few source files: python-schedule's code is one module, tenacity's a dozen.
The source-first rule (:mod:`codeagent.rank.source_first`) keeps configuration (and, for a
bug report, tests; for a question how the code works, tests, docs and examples) after the first
five *files* of source; when the repository has fewer source files with any evidence than that,
the files kept back came next and took the first five windows anyway: "how is the next run time
of a job computed?" about python-schedule cited the module once, then its tests, ``setup.py``,
a page of docs and ``pyproject.toml``. Now, before the first such file is shown among the first
:data:`~codeagent.rank.retrieve.SECOND_WITHIN` windows, the source files already shown show
their further chunks that hold any evidence, best first, until those windows are filled
(:func:`top_up`); the files kept back follow, as before.

For a question asking how, a file shows one overload of a method, the longest of those that
matched (:func:`shown`): the others say the same in their documentation and pass their call on
to it. serilog's ``LoggerSinkConfiguration`` took three of the first five places with its
``Sink(...)`` and ``Sink<TSink>(...)`` overloads for "how are events below a sink's own minimum
level kept from that sink?"; keeping the first that matched instead showed the
``CreatePropertyValue`` overload that passes its call on, not the one that does the work.

A function longer than :data:`~codeagent.rank.function_heads.SPAN` lines is cut into windows
that all carry its name and most of the question's words, and is shown as it matched
(:mod:`codeagent.rank.function_heads`); its windows took every place of their file: leveldb's
120-line ``log::Reader::ReadRecord`` filled the first file's three places for "how does the log
reader react when a log record's checksum doesn't match, or when the log file ends in the middle
of a record?", and ``ReadPhysicalRecord``, which checks the checksum, was not shown. So, for a
question asking how, such a function takes one place of its file: the window that matched
best, with the windows that touch it and its first window (its signature) if they come; its
other windows leave their places to the file's other definitions. On the hand-written
how-questions (342 in twenty sets, BM25 alone, in-process), a function that does the
work among the first 1 / 3 / 5 windows: 47.4 / 69.6 / 76.0 -> 47.7 / 71.1 / 77.5 % (six up,
none down); SWE-QA's seven development repositories: every figure equal (docs/eval.md,
thirtieth round).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from codeagent.rank.function_heads import SPAN
from codeagent.records import SearchHit

if TYPE_CHECKING:
    from codeagent.rank.ranking import Ranking
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

WORD = re.compile(r"[^\W_]")  # a letter or a digit: a chunk with none shows nothing


def shown(store: IndexStore, ids: list[int], per_file: int, overloads: bool = False) -> list[int]:
    """The first ``per_file`` of ``ids`` that hold something to read: not a chunk of braces
    alone (the ``}`` that closes a type whose members are chunks of their own matches a question
    by its path and symbol, which every chunk carries, and shows nothing); with ``overloads``
    (a question asking how), one definition of a name only (overloads: one symbol, other
    signatures), the longest of those among ``ids`` before the file's places are filled, in the
    place of the first, and one window of a long function besides its head
    (:func:`_long_function_window`)."""
    chosen: list[int] = []
    for i in ids:
        chunk = store.chunks[i]
        if WORD.search(chunk.text) is None:
            continue
        if overloads:
            twin = next((n for n, j in enumerate(chosen) if _overload(chunk, store.chunks[j])), -1)
            if twin >= 0:  # one of them is shown: the longer, which the others pass on to
                if _length(chunk) > _length(store.chunks[chosen[twin]]):
                    chosen[twin] = i
                continue
            if _long_function_window(store, ids, chosen, chunk):
                continue  # a long function takes one place: the window that matched
        chosen.append(i)
        if len(chosen) == per_file:
            break
    return chosen


def _length(chunk: Chunk) -> int:
    return chunk.end_line - chunk.start_line


def _long_function_window(
    store: IndexStore, ids: Sequence[int], chosen: list[int], chunk: Chunk
) -> bool:
    """Whether ``chunk`` is a further window of a function longer than
    :data:`~codeagent.rank.function_heads.SPAN` lines of which a window is ``chosen`` already:
    it touches none of them and is not the function's first (its head)."""
    same = [j for j in chosen if _one_function(chunk, store.chunks[j])]
    if not same:
        return False
    if any(touching(chunk, store.chunks[j]) for j in same):
        return False  # shown as one window with it
    spans = [
        (store.chunks[j].start_line, store.chunks[j].end_line)
        for j in ids
        if _one_function(chunk, store.chunks[j])
    ]
    first = min(start for start, _ in spans)
    longer = max(end for _, end in spans) - first + 1 > SPAN
    return longer and chunk.start_line != first


def _one_function(a: Chunk, b: Chunk) -> bool:
    """Whether ``a`` and ``b`` are windows of one definition: one symbol, one signature."""
    return a.kind == b.kind and bool(a.symbol) and a.symbol == b.symbol and a.header == b.header


def _overload(a: Chunk, b: Chunk) -> bool:
    """Whether ``a`` and ``b`` are two definitions of one name: one symbol, other signatures (the
    pieces of a function around the functions it nests share its signature)."""
    same = a.kind == b.kind and bool(a.symbol) and a.symbol == b.symbol
    return same and a.header != b.header


def merge_hits(first: SearchHit, second: SearchHit) -> SearchHit:
    """One window covering two overlapping or adjacent hits of the same file."""
    a, b = sorted((first, second), key=lambda h: (h.start_line, h.end_line))
    a_lines = a.text.splitlines()
    b_lines = b.text.splitlines()
    if b.end_line <= a.end_line:
        lines = a_lines
    else:
        lines = a_lines + b_lines[max(a.end_line - b.start_line + 1, 0) :]
    symbols = [s for s in dict.fromkeys((first.symbol, second.symbol)) if s]
    ranks = dict(second.ranks)
    for name, rank in first.ranks.items():
        ranks[name] = min(rank, ranks.get(name, rank))
    return SearchHit(
        path=a.path,
        start_line=a.start_line,
        end_line=max(a.end_line, b.end_line),
        symbol=", ".join(symbols),
        score=max(first.score, second.score),
        text="\n".join(lines),
        kind=first.kind if first.kind == second.kind else "window",
        ranks=ranks,
    )


def touching(a: SearchHit | Chunk, b: SearchHit | Chunk) -> bool:
    """Whether ``a`` and ``b`` (windows or chunks) are of one file and overlap or meet."""
    return a.path == b.path and a.start_line <= b.end_line + 1 and b.start_line <= a.end_line + 1


def add_merged(merged: list[SearchHit], hit: SearchHit) -> None:
    """Add ``hit`` to ``merged``: into the window it touches, else as a new one."""
    for j, kept in enumerate(merged):
        if touching(kept, hit):
            merged[j] = merge_hits(kept, hit)
            return
    merged.append(hit)


def top_up(
    store: IndexStore,
    ranking: Ranking,
    merged: list[SearchHit],
    shown: Sequence[tuple[int, str, float]],
    places: int,
) -> None:
    """Add to ``merged``, in place, the further chunks of the files ``shown`` (their rank,
    path and file score) that hold any evidence, best first, until ``merged`` holds ``places``
    windows or none is left."""
    scores = ranking.chunk_scores
    left = sorted(
        (
            (float(scores[i]), rank, i, path, score)
            for rank, path, score in shown
            for i in ranking.table.file_chunks[ranking.table.ids[path]]
            if scores[i] > 0.0 and WORD.search(store.chunks[i].text) is not None
        ),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    for _, rank, i, _path, score in left:
        if len(merged) >= places:
            return
        chunk = store.chunks[i]
        if any(
            hit.path == chunk.path and hit.start_line <= chunk.start_line <= hit.end_line
            for hit in merged
        ):
            continue  # shown already (a window holds its first line)
        add_merged(merged, SearchHit.of(chunk, score, {"file": rank}))
