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
``interface``, ``type``, ``enum``, ``trait``, ``union``) that holds no body after a parameter
list (a Java enum's constants, a trait's or an interface's default methods are code), or a
function's or method's chunk of a brace language that holds its signature and no ``{`` (a
declaration without a body; a long function's later windows hold neither). Python's chunks are
never touched (its classes hold their methods).

A file of which :data:`FILE_SHARE` or more of the chunks only declare (a Java interface's
file, a TypeScript file of types) gives up its places among the first five files to the next
ones, unless the question names it (:func:`files_after`).

Measured on the hand-written how-questions of ``eval/go-how.jsonl``, ``rust-how.jsonl``,
``ts-how.jsonl`` and ``java-how.jsonl`` (62, seven repositories; a fresh ``codeagent ask`` each,
``eval/how_functions.py``), a function that does the work among the first 1 / 3 / 5 chunks:
BM25 alone 27.4 / 41.9 / 51.6 -> 32.3 / 45.2 / 54.8 %, with the vectors 33.9 / 50.0 / 58.1 ->
35.5 / 56.5 / 64.5 %; no question lost a place, Python's SWE-QA how-questions kept every file
(docs/eval.md, twentieth round).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

DECLARATION = 0.5  # a declaration's chunk score, times this, for a question asking how
FILE_SHARE = 0.6  # a file with this share of such chunks or more gives its first places up
KINDS = frozenset({"struct", "interface", "type", "enum", "trait", "union"})
CALLABLE = frozenset({"function", "method"})
BRACES = frozenset({
    ".go", ".rs", ".java", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".c",
    ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".cs", ".php", ".kt", ".swift", ".scala",
})  # fmt: skip
_ASKS = re.compile(r"^\W*(?:how|where)\b", re.IGNORECASE)
# a body after a parameter list: ``) {``, ``) -> T {``, ``) throws E {`` (a Java enum's
# constants, a trait's default methods, an interface's default methods hold code)
_BODY = re.compile(r"\)[^;{}()]*\{")
# per index, per file: whether it mostly declares (an edit makes another index)
_MOSTLY: weakref.WeakKeyDictionary[IndexStore, dict[str, bool]] = weakref.WeakKeyDictionary()


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
        return _BODY.search(chunk.text) is None
    if chunk.kind not in CALLABLE or "{" in chunk.text:
        return False
    # its signature is there (a long function's later windows hold no signature, and may
    # hold no brace: a template's text, a run of statements)
    name = chunk.symbol.rsplit(".", 1)[-1].partition("#")[0]
    return bool(name) and f"{name}(" in chunk.text


def declares_mostly(store: IndexStore, path: str, ids: Sequence[int]) -> bool:
    """Whether :data:`FILE_SHARE` or more of the chunks ``ids`` of the file ``path`` of
    ``store`` only declare (a Java interface's file, a TypeScript file of types), remembered
    per index."""
    found = _MOSTLY.get(store)
    if found is None:
        found = _MOSTLY[store] = {}
    mostly = found.get(path)
    if mostly is None:
        braces = in_braces(path)
        count = sum(is_declaration(store.chunks[i], braces) for i in ids) if braces else 0
        mostly = found[path] = bool(ids) and count >= FILE_SHARE * len(ids)
    return mostly


def files_after(
    store: IndexStore,
    files: list[tuple[str, float]],
    chunks_of: Callable[[str], Sequence[int]],
    named: Callable[[str], bool],
) -> list[tuple[str, float]]:
    """``files`` (best first, with their scores) with those that mostly declare
    (:func:`declares_mostly`) and are not ``named`` by the question out of the first
    :data:`~codeagent.rank.source_first.TOP` places, right after them
    (:func:`~codeagent.rank.source_first.source_first`); the scores of the files moved are
    lowered to the score of the file they now follow."""
    from codeagent.rank.source_first import source_first

    def held(f: int) -> bool:
        path = files[f][0]
        return declares_mostly(store, path, chunks_of(path)) and not named(path)

    order, moved = source_first(list(range(len(files))), held)
    if not moved:
        return files
    new: list[tuple[str, float]] = []
    for f in order:
        path, score = files[f]
        new.append((path, min(score, new[-1][1]) if new else score))
    return new
