"""Declarations that do no work: a type's fields, an interface's method list, a signature
without a body.

A how-question asks for the code that does something. In the languages with braces a type is
often declared apart from the code that works on it, and its declaration carries every word of
the subject: cobra's ``Command`` struct, 200 lines of documented fields, is cut into chunks of
its own that each say "command", and they came before ``Command.Find`` for "how does cobra find
which subcommand to run?"; a Java interface's documented method (``Connection.cookieStore();``)
comes before the class that implements it. So, when the windows of a file are chosen for a
question that asks how (or where) something is done, such a chunk scores times
:data:`DECLARATION`: a chunk of a data type's declaration (the language's ``struct``,
``interface``, ``type``, ``enum``, ``trait``, ``union``), or a function's or method's chunk of a
brace language that holds no ``{`` (a declaration without a body). Python's chunks are never
touched (its classes hold their methods), nor are the files' places.

Measured on the hand-written how-questions of ``eval/go-how.jsonl``, ``rust-how.jsonl``,
``ts-how.jsonl`` and ``java-how.jsonl`` (62, seven repositories; a fresh ``codeagent ask`` each,
``eval/how_functions.py``), a function that does the work among the first 1 / 3 / 5 chunks:
BM25 alone 27.4 / 41.9 / 51.6 -> 32.3 / 45.2 / 54.8 %, with the vectors 33.9 / 50.0 / 58.1 ->
35.5 / 59.7 / 66.1 %; no question lost a place, Python's SWE-QA how-questions kept every file
(docs/eval.md, twentieth round). A Java interface's file itself still comes before the class
that implements it: the files are ranked before this.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.records import Chunk

DECLARATION = 0.5  # a declaration's chunk score, times this, for a question asking how
KINDS = frozenset({"struct", "interface", "type", "enum", "trait", "union"})
CALLABLE = frozenset({"function", "method"})
BRACES = frozenset({
    ".go", ".rs", ".java", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".c",
    ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".cs", ".php", ".kt", ".swift", ".scala",
})  # fmt: skip
_ASKS = re.compile(r"^\W*(?:how|where)\b", re.IGNORECASE)


def asks_how(question: str) -> bool:
    """Whether ``question`` asks how or where something is done (its first word)."""
    return _ASKS.match(question) is not None


def in_braces(path: str) -> bool:
    """Whether ``path`` is a file of a language that writes bodies in braces."""
    return PurePosixPath(path).suffix.lower() in BRACES


def is_declaration(chunk: Chunk, braces: bool | None = None) -> bool:
    """Whether ``chunk`` of a brace language declares without doing: a data type's
    declaration, or a function or method with no body (``braces``: :func:`in_braces` of its
    path, when the caller knows it)."""
    if not (in_braces(chunk.path) if braces is None else braces):
        return False
    if chunk.kind in KINDS:
        return True
    return chunk.kind in CALLABLE and "{" not in chunk.text
