"""Split a file into chunks: Python by structure, everything else by overlapping line windows.

Python (parsed with ``ast``):

- a module header chunk (``<module>``): docstring, imports and statements before the first
  definition, windowed when longer than ``MAX_LINES``;
- one chunk per top-level function or class, starting at its first decorator; definitions
  inside top-level ``if``/``try``/``with`` blocks count as top-level (as ``pyclbr`` does);
- a class longer than ``MAX_LINES`` becomes class chunks (class line, docstring, attributes,
  anything between methods) plus one ``method`` chunk per method (``Class.method``);
- a function longer than ``MAX_LINES`` becomes overlapping windows that keep its symbol;
- module-level code between definitions becomes plain ``window`` chunks.

Every chunk of a definition starts at that definition, so editing one function changes only
its own chunk texts. Every non-blank line is in at least one chunk. A file that does not
parse falls back to windows.

The languages of :mod:`codeagent.lang` (tree-sitter) are cut the same way from their
definitions (:mod:`codeagent.lang.chunks`); in a file of theirs with a parse error, only the
definitions no error touches are (the lines around the error become windows); a file of any
other language is cut into windows.
"""

from __future__ import annotations

import ast
import logging
import re
from typing import TYPE_CHECKING

from codeagent import lang
from codeagent.pysyntax import DefSite, Structure, scan
from codeagent.records import Chunk

if TYPE_CHECKING:
    from codeagent.lang.extract import Parsed

log = logging.getLogger(__name__)

# "2": the languages of codeagent.lang have structure (Python chunks are as in "1"); "3": their
# definitions changed (C/C++ macro repair, C# destructors and conversion operators, C++
# "= default"/"= delete" members as declarations, a test macro's missing semicolon no parse
# error), so entries built before are built again; "4": a file with a parse error keeps line
# windows only around the error, its definitions clear of it are chunked as definitions; "5": a
# comment that trails code on its line (``}  // namespace detail``) is not the doc comment of
# the definition below it, which no longer starts on that line; "6": a TypeScript/JavaScript
# class field whose value is a function (``fetch = (req) => ...``) is a method; "7": a
# definition starts at the attributes and decorators before it (Rust's ``#[..]``,
# TypeScript's ``@dec``) and at what wraps it (``export``, ``const f =``, C++'s ``template
# <..>``), with the comment above them; "8": a C/C++ word the grammar cannot place alone (``FAR``,
# ``ZEXPORT``, ``local void f``) is read as a macro, so the functions around it are definitions;
# a function whose parse errors all lie inside its body is chunked as one; "9": a namespace (a
# C# ``namespace X;``, a Ruby module) is cut into its members whatever its length, and a Ruby
# class's first method starts at the comments above it; "10": a C++ type defined outside the class
# that declares it (``class Block::Iter``, ``struct Parser::Impl``) is a type scoped to that
# class, and the functions of its body are its methods; a PHP docblock's @param and @var state
# a receiver's class (the call targets of the entries' symbol records); "11": PHP's call targets
# read instanceof checks, a foreach over a documented array and a variable whose bindings agree
# only across files; "12": the methods a PHP class's docblock declares (``@method``) are
# definitions (no chunks of their own), calls of them are tied to them, and PHP's call targets
# read an enum's case (``Level::Error->f()``), a property of agreeing bindings, closures' ``use``,
# documented arrays' elements, static properties, intersection types, ``@property`` tags, a
# local assigned a variable and an untyped property's assignments; "13": Ruby's calls carry
# their targets where the code says the receiver (``self``, a constant, ``new``, a variable
# assigned a class's ``new``; mixins' rows), so entries are built again once; "14": Ruby's
# targets read a copy of ``self`` (``dup``), ``self.class.new``, ``new.f`` in the class,
# ``reader(..)`` and ``Const.new(..).f`` at the top level, and a file whose classes call
# nothing keeps its ``class << self`` and readers' rows.
CHUNKER_VERSION = "14" if lang.available() else "1"

MAX_LINES = 50  # a definition up to this long is one chunk (MiniLM reads ~256 tokens)
MAX_CHARS = 3000  # ... and up to this many characters
WINDOW_LINES = 40
OVERLAP_LINES = 10

_NEWLINE = re.compile(r"\r\n|\r|\n")  # the line breaks Python's tokenizer counts
_BLOCK = (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)


def parse_python(path: str, text: str) -> ast.Module | None:
    """The ``ast`` tree of a Python file, or None (not Python, or it does not parse); an
    empty file (``__init__.py``) is an empty module."""
    if not path.endswith(lang.suffixes_read_by(lang.PYTHON_AST)):
        return None
    if "\r" in text:
        text = _NEWLINE.sub("\n", text)
    try:
        return ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        log.debug("%s does not parse, chunking by lines: %s", path, exc)
        return None


def chunk_file(
    path: str,
    text: str,
    tree: ast.Module | None = None,
    found: Structure | None = None,
    parsed: Parsed | None = None,
) -> list[Chunk]:
    """Chunks of one file; ``path`` is POSIX relative to the repository root.

    ``tree`` is the file's :func:`parse_python` tree and ``found`` its structure
    (:func:`codeagent.pysyntax.scan`) when the caller already has them (the index build parses
    and scans once for the chunks and the symbol graph); without them it is done here.
    ``parsed`` is the same for a file of the language layer (:func:`codeagent.lang.parse_file`).
    """
    if not text.strip():
        return []
    if "\r" in text:
        text = _NEWLINE.sub("\n", text)
    lines = text.split("\n")
    if tree is None:
        tree = parse_python(path, text)
    if tree is not None:
        return _Chunker(path, lines).module(found if found is not None else scan(tree))
    if parsed is None and not path.endswith(lang.suffixes_read_by(lang.PYTHON_AST)):
        parsed = lang.parse_file(path, text)
    if parsed is not None:
        from codeagent.lang.chunks import chunk_definitions

        rows = parsed.clear_defs()  # with a parse error: the definitions clear of it
        if rows or not parsed.errors:
            return chunk_definitions(_Chunker(path, lines), rows)
    return _Chunker(path, lines).windows(1, len(lines), "", "window")


def window_chunks(path: str, text: str) -> list[Chunk]:
    """Chunks of one file by line windows alone, with no parse (what a file whose parse
    failed gets)."""
    if not text.strip():
        return []
    lines = _NEWLINE.sub("\n", text).split("\n")
    return _Chunker(path, lines).windows(1, len(lines), "", "window")


class _Chunker:
    def __init__(self, path: str, lines: list[str]) -> None:
        self.path = path
        self.lines = lines

    def module(self, found: Structure) -> list[Chunk]:
        out: list[Chunk] = []
        cursor = 1
        for site in _top_level(found):
            start = site.start_line
            if cursor == 1:
                out += self.windows(cursor, start - 1, "<module>", "module")
            else:
                out += self.windows(cursor, start - 1, "", "window")
            out += self.definition(found, site, "")
            cursor = max(cursor, site.end_line + 1)
        if cursor == 1:
            out += self.windows(1, len(self.lines), "<module>", "module")
        else:
            out += self.windows(cursor, len(self.lines), "", "window")
        return out

    def definition(self, found: Structure, site: DefSite, prefix: str) -> list[Chunk]:
        node = site.node
        symbol = f"{prefix}{node.name}"
        start, end = site.start_line, site.end_line
        if not isinstance(node, ast.ClassDef):
            return self.windows(start, end, symbol, "method" if prefix else "function")
        if not self._too_big(start, end):
            return self.windows(start, end, symbol, "class")
        out: list[Chunk] = []
        cursor = start
        for member in found.members(found.scope_of[id(node)]):
            out += self.windows(cursor, member.start_line - 1, symbol, "class")
            out += self.definition(found, member, f"{symbol}.")
            cursor = max(cursor, member.end_line + 1)
        out += self.windows(cursor, end, symbol, "class")
        return out

    def windows(self, start: int, end: int, symbol: str, kind: str) -> list[Chunk]:
        """Lines ``start..end`` (blank edges trimmed) as one chunk, or overlapping windows."""
        while start <= end and not self.lines[start - 1].strip():
            start += 1
        while end >= start and not self.lines[end - 1].strip():
            end -= 1
        if start > end:
            return []
        if not self._too_big(start, end):
            return [self._chunk(start, end, symbol, kind)]
        out: list[Chunk] = []
        first = start
        while True:
            last, size = first, len(self.lines[first - 1]) + 1
            while last < end and last - first + 1 < WINDOW_LINES:
                size += len(self.lines[last]) + 1
                if size > MAX_CHARS:
                    break
                last += 1
            lo, hi = self._trim(first, last)
            if self.lines[lo - 1].strip():
                out.append(self._chunk(lo, hi, symbol, kind))
            if last >= end:
                return out
            overlap = min(OVERLAP_LINES, (last - first + 1) // 2)
            first = last + 1 - overlap

    def _too_big(self, start: int, end: int) -> bool:
        if end - start + 1 > MAX_LINES:
            return True
        return sum(len(line) + 1 for line in self.lines[start - 1 : end]) > MAX_CHARS

    def _trim(self, start: int, end: int) -> tuple[int, int]:
        while start < end and not self.lines[start - 1].strip():
            start += 1
        while end > start and not self.lines[end - 1].strip():
            end -= 1
        return start, end

    def _chunk(self, start: int, end: int, symbol: str, kind: str) -> Chunk:
        text = "\n".join(self.lines[start - 1 : end])
        return Chunk(self.path, start, end, text, symbol=symbol, kind=kind)


def _top_level(found: Structure) -> list[DefSite]:
    """The module's functions and classes, those inside top-level ``if``, ``try``, ``with``,
    ``for`` and ``while`` blocks included (as ``pyclbr`` has them)."""
    return [
        site
        for site in found.defs
        if site.depth == 0 and all(isinstance(b.stmt, _BLOCK) for b in site.blocks)
    ]
