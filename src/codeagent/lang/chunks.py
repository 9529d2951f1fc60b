"""Structure-aware chunks for the languages of the layer, as Python's are cut.

- a header chunk (``<module>``) for what comes before the first definition (package line,
  imports), windowed when long;
- one chunk per top-level definition (its qualified name as the symbol, its kind in the
  language's words, its signature as the header line of the embedded text);
- a definition longer than ``MAX_LINES`` that holds others (a class, an ``impl``) becomes
  chunks of its own lines between members plus one chunk per member, recursively; a long one
  without members becomes overlapping windows keeping its symbol;
- a namespace (C#, C++, PHP, TypeScript, a Ruby module, a Rust ``mod``) is cut so whatever its
  length: it names where code lives, not a unit of it, so a short file's class under a C#
  ``namespace X;`` is a chunk with the class's name and kind, not the namespace's;
- code between definitions becomes plain windows;
- a member that a type's documentation declares (PHP's ``@method``,
  :mod:`codeagent.lang.doc_members`) holds no code: it is no chunk, its tag stays in its type's.

Every non-blank line is in at least one chunk, and every chunk of a definition starts inside
that definition, so an edit changes only its own chunks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from codeagent.lang.doc_members import in_lead
from codeagent.records import Chunk


class _Chunker(Protocol):
    """What is used here of the chunker of :mod:`codeagent.index.chunking` (which calls this
    module): its lines, its size rule and its windows over a range of lines."""

    lines: list[str]

    def _too_big(self, start: int, end: int) -> bool: ...

    def windows(self, start: int, end: int, symbol: str, kind: str) -> list[Chunk]: ...


@dataclass
class _Node:
    row: list[Any]
    children: list[_Node] = field(default_factory=list)

    @property
    def start(self) -> int:
        return int(self.row[3])

    @property
    def end(self) -> int:
        return int(self.row[4])


def tree_of(rows: list[list[Any]]) -> list[_Node]:
    """The definitions nested by line range (rows are in source order)."""
    top: list[_Node] = []
    stack: list[_Node] = []
    for row in rows:
        node = _Node(row)
        while stack and not (stack[-1].start <= node.start and node.end <= stack[-1].end):
            stack.pop()
        (stack[-1].children if stack else top).append(node)
        stack.append(node)
    return top


def chunk_definitions(chunker: _Chunker, rows: list[list[Any]]) -> list[Chunk]:
    """Chunks of one file from its definition rows; ``chunker`` is the Python chunker's line
    cutter (:class:`codeagent.index.chunking._Chunker`), which windows ranges."""
    out: list[Chunk] = []
    cursor = 1
    for node in tree_of(rows):
        if node.start < cursor:  # overlaps what is already cut (a one-line neighbour)
            continue
        kind = "module" if cursor == 1 else "window"
        out += chunker.windows(cursor, node.start - 1, "<module>" if cursor == 1 else "", kind)
        out += _definition(chunker, node)
        cursor = node.end + 1
    if cursor == 1:
        return chunker.windows(1, len(chunker.lines), "<module>", "module")
    return out + chunker.windows(cursor, len(chunker.lines), "", "window")


_SCOPES = frozenset({"namespace", "mod"})


def _definition(chunker: _Chunker, node: _Node) -> list[Chunk]:
    qualname, kind, sig = node.row[0], node.row[1], node.row[5]
    small = kind not in _SCOPES and not chunker._too_big(node.start, node.end)
    if not node.children or small:
        return _headed(chunker.windows(node.start, node.end, qualname, kind), sig)
    out: list[Chunk] = []
    cursor = node.start
    for child in node.children:
        if child.start < cursor or in_lead(child.row, node.row):  # no code: a @method tag
            continue
        out += _headed(chunker.windows(cursor, child.start - 1, qualname, kind), sig)
        out += _definition(chunker, child)
        cursor = child.end + 1
    out += _headed(chunker.windows(cursor, node.end, qualname, kind), sig)
    return out


def _headed(chunks: list[Chunk], signature: str) -> list[Chunk]:
    if not signature:
        return chunks
    return [
        Chunk(c.path, c.start_line, c.end_line, c.text, c.symbol, c.kind, signature) for c in chunks
    ]
