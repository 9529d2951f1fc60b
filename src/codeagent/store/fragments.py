"""An entry's per-file files written one stretch per file, so that an edit copies the bytes of
the files it did not change from the earlier entry instead of decoding and encoding them.

``chunks.json`` is a JSON list of rows (``json.dumps``'s default separators): the rows of one
file are one stretch of it, ``row, row``. ``symbols.json`` is ``{"format":F,"files":{...}}``
(compact separators): one ``"path":{record}`` stretch per file with symbols, in path order.
``files.json`` (:mod:`codeagent.index.reuse`) gives, for each file, its text digest, its chunk
range, where its two stretches lie (``at``: byte offset and length of each; -1 when it has no
record) and, for a Python record, its module name (``modules``): all a later build needs to
take the file's chunks and record over without reading them. Written anew or spliced, the
files are the same bytes (``tests/index/test_fragments.py``).

A stretch is taken over only when :func:`borrow` finds the layout sound: the chunk ranges
tile the chunks in order, the stretches tile both files exactly, separators included, each
chunk stretch holds exactly its count of rows of its own path (a row is the only place
``["path", `` can occur: inside a JSON string a quote is escaped) and each record stretch
starts with its own path. The bytes themselves are checked by their sha256 before.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from codeagent.records import Chunk
from codeagent.store.entry_files import CHUNKS, chunk_rows, to_chunks
from codeagent.symbols.graph import FORMAT as SYMBOLS_FORMAT
from codeagent.symbols.graph import SYMBOLS, SymbolGraph, dumps

FILES = "files.json"
Ranges = dict[str, tuple[str, int, int]]  # path -> (text digest, first chunk, chunk count)
_SYMBOLS_HEAD = dumps({"format": SYMBOLS_FORMAT, "files": {}})[:-2].encode()  # {"format":..{


@dataclass
class FilePart:
    """One file's share of an entry: its chunks and symbol record, each made now or the
    earlier entry's bytes (a ``memoryview`` of its stretch)."""

    path: str
    digest: str
    count: int  # chunks
    chunks: list[Chunk] | memoryview
    record: dict[str, Any] | memoryview | None  # None: no symbols
    module: str | None  # a Python record's module name; None for another language or none


def part_of(path: str, digest: str, chunks: list[Chunk], record: dict[str, Any] | None) -> FilePart:
    """The part of a file parsed now."""
    module = record["m"] if record is not None and "l" not in record else None
    return FilePart(path, digest, len(chunks), chunks, record, module)


def _head(path: str) -> bytes:
    """How each row of ``path`` starts in chunks.json."""
    return b"[" + json.dumps(path, ensure_ascii=False).encode() + b", "


class Content:
    """The chunks and symbol records of one repository state, file by file in index order."""

    def __init__(self, parts: list[FilePart], *, chunker: str) -> None:
        self.parts = parts
        self.chunker = chunker  # the chunker's version (codeagent.index.chunking)
        self._firsts: list[int] = []
        total = 0
        for part in parts:
            self._firsts.append(total)
            total += part.count
        self._count = total
        self._chunks: list[Chunk] | None = None
        self._graph: SymbolGraph | None = None

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: int) -> Chunk:
        """One chunk (of a borrowed file, only that file's stretch is decoded)."""
        if self._chunks is not None:
            return self._chunks[i]
        if not 0 <= i < self._count:
            raise IndexError(i)
        # a file without chunks has the first of the file after it: the last part whose first
        # is at most i is the one that holds chunk i
        at = bisect_right(self._firsts, i) - 1
        part = self.parts[at]
        if isinstance(part.chunks, memoryview):
            part.chunks = to_chunks(json.loads(b"[" + part.chunks.tobytes() + b"]"))
        return part.chunks[i - self._firsts[at]]

    @cached_property
    def ranges(self) -> Ranges:
        """Each file's digest, first chunk and chunk count (made once: the same object each
        time, so that what is worked out from it can be kept, as ``Earlier.moved`` does)."""
        return {
            p.path: (p.digest, first, p.count)
            for p, first in zip(self.parts, self._firsts, strict=True)
        }

    def chunks(self) -> list[Chunk]:
        """Every chunk, in index order (the borrowed ones decoded in one go)."""
        if self._chunks is None:
            borrowed = [p.chunks for p in self.parts if isinstance(p.chunks, memoryview)]
            borrowed = [stretch for stretch in borrowed if len(stretch)]
            rows = iter(to_chunks(json.loads(b"[" + b", ".join(borrowed) + b"]")))
            out: list[Chunk] = []
            for part in self.parts:
                if isinstance(part.chunks, memoryview):
                    out.extend(next(rows) for _ in range(part.count))
                else:
                    out.extend(part.chunks)
            self._chunks = out
        return self._chunks

    def graph(self) -> SymbolGraph:
        """The repository symbol graph (the borrowed records decoded in one go)."""
        if self._graph is None:
            own = sorted((p for p in self.parts if p.record is not None), key=lambda p: p.path)
            borrowed = [p.record for p in own if isinstance(p.record, memoryview)]
            decoded = json.loads(b"{" + b",".join(borrowed) + b"}")
            records = {
                p.path: decoded[p.path] if isinstance(p.record, memoryview) else p.record
                for p in own
            }
            self._graph = SymbolGraph(records)  # type: ignore[arg-type]
        return self._graph

    def decoded(self) -> tuple[list[Chunk] | None, SymbolGraph | None]:
        return self._chunks, self._graph

    def write(self, directory: Path) -> None:
        """Write chunks.json, symbols.json and files.json into ``directory``."""
        chunk_out: list[bytes | memoryview] = [b"["]
        at: dict[str, list[int]] = {}
        position = 1
        for part in self.parts:
            if isinstance(part.chunks, memoryview):
                piece: bytes | memoryview = part.chunks
            else:
                piece = json.dumps(chunk_rows(part.chunks), ensure_ascii=False)[1:-1].encode()
            if piece and position > 1:
                chunk_out.append(b", ")
                position += 2
            at[part.path] = [position, len(piece), -1, 0]
            chunk_out.append(piece)
            position += len(piece)
        chunk_out.append(b"]")
        symbol_out: list[bytes | memoryview] = [_SYMBOLS_HEAD]
        position = len(_SYMBOLS_HEAD)
        for part in sorted((p for p in self.parts if p.record is not None), key=lambda p: p.path):
            if isinstance(part.record, memoryview):
                piece = part.record
            else:
                piece = dumps({part.path: part.record})[1:-1].encode()
            if position > len(_SYMBOLS_HEAD):
                symbol_out.append(b",")
                position += 1
            at[part.path][2:] = [position, len(piece)]
            symbol_out.append(piece)
            position += len(piece)
        symbol_out.append(b"}}")
        layout = {
            "chunker": self.chunker,
            "symbols": SYMBOLS_FORMAT,
            "files": self.ranges,
            "at": at,
            "modules": {p.path: p.module for p in self.parts if p.module is not None},
        }
        (directory / CHUNKS).write_bytes(b"".join(chunk_out))
        (directory / SYMBOLS).write_bytes(b"".join(symbol_out))
        (directory / FILES).write_bytes(dumps(layout).encode())


def borrow(
    layout: dict[str, Any], chunks: bytes, symbols: bytes, count: object, *, chunker: str
) -> list[FilePart]:
    """The parts an earlier entry lends, from its files.json (``layout``), chunks.json and
    symbols.json bytes and its chunk ``count``; ValueError unless the layout is sound and
    written by the ``chunker`` version of now."""
    if not isinstance(layout, dict):
        raise ValueError("files.json is not of this format")
    if layout.get("chunker") != chunker or layout.get("symbols") != SYMBOLS_FORMAT:
        raise ValueError("built by another chunker or symbol-graph version")
    at, modules = layout["at"], layout["modules"]
    cview, sview = memoryview(chunks), memoryview(symbols)
    parts: list[FilePart] = []
    total, position = 0, 1  # chunks so far; where the next chunk stretch starts
    for path, (digest, first, n) in layout["files"].items():
        c_at, c_len, r_at, r_len = at[path]
        if first != total or n < 0 or (n == 0) != (c_len == 0):
            raise ValueError(f"the chunk range of {path} is wrong")
        total += n
        if n:
            if position > 1 and chunks[position : position + 2] != b", ":
                raise ValueError(f"the chunk bytes of {path} are not where it says")
            position += 2 * (position > 1)
            head, end = _head(path), c_at + c_len
            if (
                c_at != position
                or not chunks.startswith(head, c_at)
                or chunks.count(head, c_at, end) != n
            ):
                raise ValueError(f"the chunk bytes of {path} are not its {n} rows")
            position = end
        record = sview[r_at : r_at + r_len] if r_at >= 0 else None
        module = modules.get(path)
        if (module is not None and record is None) or not isinstance(module, str | None):
            raise ValueError(f"the module of {path} has no record")
        parts.append(FilePart(path, str(digest), n, cview[c_at : c_at + c_len], record, module))
    if total != count or chunks[:1] != b"[" or position != len(chunks) - 1 or chunks[-1:] != b"]":
        raise ValueError("the chunk ranges do not cover the chunks")
    position = len(_SYMBOLS_HEAD)
    if not symbols.startswith(_SYMBOLS_HEAD):
        raise ValueError("symbols.json is not of this format")
    for part in sorted((p for p in parts if p.record is not None), key=lambda p: p.path):
        r_at, r_len = at[part.path][2:]
        if position > len(_SYMBOLS_HEAD) and symbols[position : position + 1] != b",":
            raise ValueError(f"the symbol bytes of {part.path} are not where it says")
        position += position > len(_SYMBOLS_HEAD)
        head = json.dumps(part.path, ensure_ascii=False).encode() + b":{"
        if (
            r_at != position
            or r_len <= len(head)
            or not symbols.startswith(head, r_at)
            or symbols[r_at + r_len - 1] != ord("}")
        ):
            raise ValueError(f"the symbol bytes of {part.path} are not its record")
        position = r_at + r_len
    if position != len(symbols) - 2 or symbols[-2:] != b"}}":
        raise ValueError("the records do not cover symbols.json")
    return parts
