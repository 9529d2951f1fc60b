"""Code that does no work: a type's fields, an interface's method list, a signature without a
body, an accessor of two lines.

A how-question asks for the code that does something. In the languages with braces a type is
often declared apart from the code that works on it, and its declaration carries every word of
the subject: cobra's ``Command`` struct, 200 lines of documented fields, is cut into chunks of
its own that each say "command", and they came before ``Command.Find`` for "how does cobra find
which subcommand to run?"; a Java interface's documented method (``Connection.cookieStore();``)
comes before the class that implements it. Short accessors and wrappers do the same from the
other side: named for the subject and a few lines long, they outscore the function that does
the work (jsoup's two-line ``followRedirects(boolean)`` setter, viper's ``func WriteConfig()
error { return v.WriteConfig() }``). So, when the windows of a file are chosen for a question
that asks how (or where) something is done, such a chunk scores times :data:`DECLARATION`:

- a chunk of a data type's declaration (the language's ``struct``, ``class``, ``interface``,
  ``type``, ``enum``, ``trait``, ``union``) that holds no body after a parameter list (a split
  class's head of fields; a Java enum's constants, a trait's default methods are code);
- a function's or method's chunk that holds its signature and no ``{`` (a declaration without
  a body; a long function's later windows hold neither);
- a whole function or method whose body is :data:`TRIVIAL_LINES` lines of code or fewer.

A file of which :data:`FILE_SHARE` or more of the chunks only declare (a Java interface's
file, a TypeScript file of types; its share read past its comments, whose documented examples
hold bodies) gives up its places among the first five files to the next ones, unless the
question names it, and without bringing forward a test the how rule keeps after them
(:func:`files_after`).

In Python a class longer than a chunk is cut into its head (the ``class`` line, docstring and
fields) and one chunk per method, and the head's docstring says what the class is for in the
question's words (black's ``Cache`` dataclass, four lines of fields, was the first chunk shown
for "how is the cache of already formatted files invalidated?"): a chunk of a class that holds
no method (:func:`is_class_head`) scores times :data:`DECLARATION` too, and so does an
accessor (:func:`is_accessor`: a function whose body only reads or sets an attribute, with no
call: cleo's ``Output.verbosity`` before ``Output.write`` for "explain how output verbosity
works"). Python's files keep their places (a module of data classes is what a question about
them reads), and a short function that calls is not scored down (a wrapper such as
``requests.get`` is what a question about it reads first: measured, scoring down every body of
two lines lost more than it gained). On SWE-QA's how- and where-questions of
the seven Python development repositories, a function the reference answer names among the
first chunk cited: 29 -> 33 % (flask), 56 -> 59 % (requests) with BM25 alone, 42 -> 49 %
(flask) with the vectors; 13 questions up, one down, every file figure equal (docs/eval.md,
twenty-second round).

Measured on the hand-written how-questions of ``eval/go-how.jsonl``, ``rust-how.jsonl``,
``ts-how.jsonl`` and ``java-how.jsonl`` (62, seven repositories; a fresh ``codeagent ask`` each,
``eval/how_functions.py``), a function that does the work among the first 1 / 3 / 5 chunks:
BM25 alone 27.4 / 41.9 / 51.6 -> 35.5 / 58.1 / 62.9 %, with the vectors 33.9 / 50.0 / 58.1 ->
43.5 / 56.5 / 66.1 % (one question lower each way); Python's SWE-QA how-questions kept every
file (docs/eval.md, twentieth round).
"""

from __future__ import annotations

import ast
import re
import textwrap
import weakref
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codeagent.lang import PYTHON_AST, suffixes_read_by

if TYPE_CHECKING:
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

DECLARATION = 0.5  # a declaration's chunk score, times this, for a question asking how
FILE_SHARE = 0.6  # a file with this share of such chunks or more gives its first places up
KINDS = frozenset({"struct", "class", "interface", "type", "enum", "trait", "union"})
CALLABLE = frozenset({"function", "method"})
STUBBED = CALLABLE | {"class"}
BRACES = frozenset({
    ".go", ".rs", ".java", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".c",
    ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".cs", ".php", ".kt", ".swift", ".scala",
})  # fmt: skip
# a body after a parameter list: ``) {``, ``) -> T {``, ``) throws E {`` (a Java enum's
# constants, a trait's default methods, an interface's default methods hold code)
_BODY = re.compile(r"\)[^;{}()]*\{")
# comments, whose examples hold bodies (``try {``, ``if (x) {``) a declaration does not
_COMMENTS = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*", re.DOTALL)
_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]", re.M)  # a Python method's first line
# per index, per file: what told_apart found (an index's chunks do not change; an edit makes
# another index)
_FOUND: weakref.WeakKeyDictionary[IndexStore, dict[str, tuple[list[int], bool]]] = (
    weakref.WeakKeyDictionary()
)


def _in_comment(text: str) -> str:
    """``text`` from the end of the block comment it opens inside, if it does (a window that
    starts in the middle of a documentation comment)."""
    close = text.find("*/")
    return text[close + 2 :] if close >= 0 and not 0 <= text.find("/*") < close else text


def in_braces(path: str) -> bool:
    """Whether ``path`` is a file of a language that writes bodies in braces."""
    return PurePosixPath(path).suffix.lower() in BRACES


def is_declaration(chunk: Chunk, braces: bool | None = None, past_comments: bool = False) -> bool:
    """Whether ``chunk`` of a brace language declares without doing: a data type's
    declaration, or a function or method with no body (``braces``: :func:`in_braces` of its
    path, when the caller knows it). ``past_comments``: a body in a comment (a documented
    example's ``try {``) is none."""
    if not (in_braces(chunk.path) if braces is None else braces):
        return False
    if chunk.kind in KINDS:
        text = _COMMENTS.sub(" ", _in_comment(chunk.text)) if past_comments else chunk.text
        return _BODY.search(text) is None
    if chunk.kind not in CALLABLE or "{" in chunk.text:
        return False
    # its signature is there (a long function's later windows hold no signature, and may
    # hold no brace: a template's text, a run of statements)
    return _signed(chunk, chunk.text)


def _signed(chunk: Chunk, text: str) -> bool:
    """Whether ``text`` (of ``chunk``, a function's or method's) holds the definition's
    signature: its name followed by ``(``."""
    name = chunk.symbol.rsplit(".", 1)[-1].partition("#")[0]
    return bool(name) and f"{name}(" in text


_COMMENT = re.compile(r"^\s*(?://|/\*|\*|#)")
TRIVIAL_LINES = 2  # a function or method body of this many lines or fewer does little
ACCESSOR_LINES = 12  # a Python accessor, decorators and docstring included, is this short
# ... and its last line returns or sets a value without a call (what ast then checks whole)
_LAST_READ = re.compile(r"\s*(?:return\b[^()]*|[\w.]+\s*(?::[^=()]*)?=[^=()][^()]*)$")
# ... and a stub's last line: ``...`` (after a signature, or alone), ``pass``, a raise
_STUB_END = re.compile(r"(?:\.\.\.|\bpass|raise\s+NotImplementedError\b.*|\"\"\"|''')\s*$")


def is_trivial(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole function or method of a brace language, has a body of at most
    :data:`TRIVIAL_LINES` lines of code (an accessor, a forwarding wrapper)."""
    if chunk.kind not in CALLABLE:
        return False
    text = chunk.text
    first, last = text.find("{"), text.rfind("}")
    if first < 0 or last <= first:
        return False
    if not _signed(chunk, text[:first]):
        return False  # not the definition's start: a later window of a long function
    body = text[first + 1 : last]
    lines = [ln for ln in body.splitlines() if ln.strip() and not _COMMENT.match(ln)]
    return len(lines) <= TRIVIAL_LINES


def is_class_head(chunk: Chunk) -> bool:
    """Whether ``chunk``, a Python class's, holds no method: the head of a class cut into
    chunks (its ``class`` line, docstring and fields; each method a chunk of its own), or a
    class of fields alone."""
    return chunk.kind == "class" and _DEF.search(chunk.text) is None


def is_accessor(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Python function or method, only reads or sets an attribute
    (``return self._verbosity``, ``return self._level >= Level.HIGH``, ``self._x = x``; its
    docstring aside): a call in it is work (``requests.get`` calls ``request``)."""
    text = chunk.text
    if chunk.kind not in CALLABLE or text.count("\n") > ACCESSOR_LINES:
        return False
    if _LAST_READ.match(text[text.rstrip().rfind("\n") + 1 :]) is None:
        return False  # (read no further: this runs as a question comes, chunk by chunk)
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return False  # a window of a long function
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    body = tree.body[0].body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1:
        return False
    statement = body[0]
    if isinstance(statement, ast.Return):
        return statement.value is None or _plain(statement.value)
    if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(t, ast.Attribute) for t in targets) and _plain(statement.value)
    return False


def is_stub(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Python function or method, has no body: its docstring, or
    ``...``, ``pass`` or ``raise NotImplementedError`` after it (an ``@overload``'s signature, a
    ``Protocol``'s or an abstract method; tenacity's three typed ``retry`` overloads came before
    the code that retries), or is a whole class whose methods are all such (a ``Protocol``)."""
    text = chunk.text.rstrip()
    if chunk.kind not in STUBBED or _STUB_END.search(text[text.rfind("\n") + 1 :]) is None:
        return False  # (read no further: this runs as a question comes, chunk by chunk)
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return False  # a window of a long function
    if len(tree.body) != 1:
        return False
    node = tree.body[0]
    if isinstance(node, ast.ClassDef):
        methods = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        return bool(methods) and all(map(_no_body, methods))
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _no_body(node)


def _no_body(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``node`` holds its docstring, one empty statement, or both."""
    body = node.body[1:] if ast.get_docstring(node, clean=False) is not None else node.body
    return not body or (len(body) == 1 and _empty(body[0]))


def _empty(statement: ast.stmt) -> bool:
    """``...``, ``pass``, ``raise NotImplementedError`` (called or not)."""
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant) and statement.value.value is Ellipsis
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        exc = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False


def _plain(node: ast.expr) -> bool:
    """A value read without a call: a name, an attribute, a constant, and comparisons or
    negations of them."""
    if isinstance(node, ast.Name | ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return _plain(node.value)
    if isinstance(node, ast.Compare):
        return _plain(node.left) and all(map(_plain, node.comparators))
    if isinstance(node, ast.BoolOp):
        return all(map(_plain, node.values))
    if isinstance(node, ast.UnaryOp):
        return _plain(node.operand)
    return False


def told_apart(store: IndexStore, path: str, ids: Sequence[int]) -> tuple[list[int], bool]:
    """Of the chunks ``ids`` of the file ``path`` of ``store``: those that only declare or do
    little (:func:`is_declaration`, :func:`is_trivial`), and whether :data:`FILE_SHARE` or more
    of them only declare (a Java interface's file, a TypeScript file of types); remembered per
    index."""
    found = _FOUND.get(store)
    if found is None:
        found = _FOUND[store] = {}
    told = found.get(path)
    if told is None:
        down: list[int] = []
        declaring = 0
        if PurePosixPath(path).suffix.lower() in suffixes_read_by(PYTHON_AST):
            down = [
                i
                for i in ids
                if is_class_head(c := store.chunks[i]) or is_accessor(c) or is_stub(c)
            ]
        elif in_braces(path):
            for i in ids:
                chunk = store.chunks[i]
                if is_declaration(chunk, True):
                    declaring += 1
                    down.append(i)
                elif is_declaration(chunk, True, past_comments=True):
                    declaring += 1  # the file's share only: its windows are chosen as before
                elif is_trivial(chunk):
                    down.append(i)
        told = found[path] = (down, bool(ids) and declaring >= FILE_SHARE * len(ids))
    return told


def files_after(
    store: IndexStore,
    files: list[tuple[str, float]],
    chunks_of: Callable[[str], Sequence[int]],
    named: Callable[[str], bool],
    kept_back: Callable[[str], bool] = lambda path: False,
) -> list[tuple[str, float]]:
    """``files`` (best first, with their scores) with those that mostly declare
    (:func:`told_apart`) and are not ``named`` by the question out of the first
    :data:`~codeagent.rank.source_first.TOP` places, right after them
    (:func:`~codeagent.rank.source_first.source_first`); the scores of the files moved are
    lowered to the score of the file they now follow."""
    from codeagent.rank.source_first import source_first

    def held(f: int) -> bool:
        path = files[f][0]
        if kept_back(path):
            return True  # a test kept after the first places stays after them
        return told_apart(store, path, chunks_of(path))[1] and not named(path)

    order, moved = source_first(list(range(len(files))), held)
    if not moved:
        return files
    new: list[tuple[str, float]] = []
    for f in order:
        path, score = files[f]
        new.append((path, min(score, new[-1][1]) if new else score))
    return new
