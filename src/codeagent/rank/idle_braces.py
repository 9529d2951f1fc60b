"""A brace language's file-level lines that do no work: a file's imports and the documentation
above them, which a question asking how something is done is shown after the code that does
it (:mod:`codeagent.rank.declarations`, which scores them down).

A crate's or a package's documentation (Rust's ``/*! … */`` or ``//!`` lines, Go's package
comment) explains the subject in the question's own words and shows it used in examples, and
a file's imports name every type it works with: ripgrep's ``types.rs`` documentation came first
for "how is a file type definition like foo:*.foo parsed?", before ``TypesBuilder.add_def``,
which parses it; the ``use`` lines and crate documentation of ``globset``'s ``lib.rs`` and
``gitignore.rs`` took places among the first five for questions about matching. A file-level
chunk (the lines outside every definition) is idle when nothing but comments, imports,
``package``/``mod``/``namespace`` lines and attributes is left in it; a window that starts
inside a block comment a chunk before it opened is read from there (a long crate comment is
cut into several windows, the later ones without its ``/*!``).

With the declarations read past their attributes (:func:`codeagent.rank.declarations._head`),
on the 82 hand-written how-questions of ``eval/{go,rust,ts,java,js}-how.jsonl`` (a fresh
``codeagent ask`` each), a function that does the work among the first 1 / 3 / 5 chunks: BM25
alone 40.2 / 62.2 / 67.1 -> 42.7 / 63.4 / 70.7 %, with the vectors 43.9 / 63.4 / 70.7 -> 47.6 /
67.1 / 73.2 % (one question a place lower without the vectors; docs/eval.md, twenty-fourth
round).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.records import Chunk

FILE_LEVEL = frozenset({"module", "window"})  # the kinds of the lines outside any definition
HEADERS = frozenset({".h", ".hh", ".hpp", ".hxx", ".h++"})
_CODE = frozenset({"function", "method"})  # a header's inline function
_DIRECTIVE = re.compile(r"^[ \t]*#(?:\\\n|[^\n])*", re.MULTILINE)  # with its continuations
_MACRO_CALL = re.compile(r"#[ \t]*define[ \t]+\w+\(")
# a function body: a parameter list's end, then the body's brace, or a statement's keyword
_BODY = re.compile(r"\)\s*(?:const\s*|noexcept\s*|override\s*)*\{|\breturn\b")
# comments, whose examples hold bodies (``try {``, ``if (x) {``) a declaration does not
COMMENTS = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*", re.DOTALL)
_MARKS = re.compile(r"/\*|\*/|//[^\n]*")
# what a file's head holds besides comments, in each brace language: imports, its package,
# module or namespace line, attributes
_HEAD = re.compile(
    r"""
    (?:pub(?:\([^)]*\))?\s+)?use\s[^;{}]*(?:\{[^}]*\}[^;]*)?;
    | (?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*;
    | extern\s+crate\s[^;]*;
    | \#!?\[[^\]]*\]
    | package\s+[\w.]+\s*;?
    | import\s*\([^)]*\)
    | import\s+(?:[\w.]+\s+)?"[^"\n]*"
    | import\s+(?:static\s+)?[\w.*]+\s*;
    | import\s[^;'"]*?from\s*['"][^'"\n]*['"]\s*;?
    | import\s*['"][^'"\n]*['"]\s*;?
    | export\s*(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s*from\s*['"][^'"\n]*['"]\s*;?
    | (?:const|let|var)\s+[\w{}\s,:]+=\s*require\(\s*['"][^'"\n]*['"]\s*\)\s*;?
    | ['"]use\ strict['"]\s*;?
    | \#\s*include\s*[<"][^>"\n]*[>"]
    | \#\s*pragma\s+once
    | using\s+(?:static\s+)?[\w.=\s]+;
    | namespace\s+[\w.\\]+\s*;
    | <\?php
    """,
    re.VERBOSE,
)


def idle_head(chunk: Chunk, in_comment: bool = False) -> bool:
    """Whether ``chunk``, a brace-language file's lines outside its definitions, holds nothing
    but comments, imports and the file's package, module or namespace line (``in_comment``:
    it starts inside a block comment)."""
    if chunk.kind not in FILE_LEVEL:
        return False
    text = "/*" + chunk.text if in_comment else chunk.text
    return not _HEAD.sub(" ", COMMENTS.sub(" ", text)).strip()


def header_declares(chunk: Chunk) -> bool:
    """Whether ``chunk``, of a C or C++ header (:data:`HEADERS`), declares and does nothing:
    a constant's ``#define``, a type, the prototypes and the documentation of an API, with no
    function body (an inline function and a macro with parameters are code). zlib's ``zlib.h``
    documents every function in the question's words, next to its prototype, and its windows
    came first for "how is a preset dictionary set for deflate?", before
    ``deflateSetDictionary`` in ``deflate.c``."""
    if PurePosixPath(chunk.path).suffix.lower() not in HEADERS or chunk.kind in _CODE:
        return False
    code = _DIRECTIVE.sub(" ", COMMENTS.sub(" ", chunk.text))
    if chunk.kind == "macro":
        return _MACRO_CALL.search(chunk.text) is None  # #define NAME(args) ...: code
    return _BODY.search(code) is None


def idle_heads(chunks: Iterable[tuple[int, Chunk]]) -> set[int]:
    """Of a file's chunks ``(id, chunk)``, in the order of their lines, the ids of those
    :func:`idle_head` finds idle, each read as starting inside the block comment that an
    earlier file-level chunk left open where it does."""
    idle: set[int] = set()
    open_at: int | None = None  # the line an unclosed block comment opened on
    for i, chunk in chunks:
        if chunk.kind not in FILE_LEVEL:
            open_at = None
            continue
        inside = open_at is not None and open_at < chunk.start_line
        if idle_head(chunk, inside):
            idle.add(i)
        opened = _open_at_end(chunk.text, inside)
        if opened is None:
            open_at = None
        elif opened >= 0:
            open_at = chunk.start_line + chunk.text.count("\n", 0, opened)
        # opened == -1: still inside the comment this chunk started in; open_at stays
    return idle


def _open_at_end(text: str, inside: bool) -> int | None:
    """Where in ``text`` a block comment opens that is still open at its end (-1: the one it
    started inside), or None when none is."""
    opened: int | None = -1 if inside else None
    for mark in _MARKS.finditer(text):
        found = mark.group()
        if found == "/*" and opened is None:
            opened = mark.start()
        elif opened is not None and "*/" in found:  # a line comment's "/*" opens nothing
            opened = None
    return opened
