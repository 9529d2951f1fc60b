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
  ``type``, ``enum``, ``trait``, ``union``; a Rust ``impl`` block's head) that holds no body
  after a parameter list (a split class's head of fields; a Java enum's constants, a trait's
  default methods are code), read from its keyword and name on: the attributes and the
  documentation above it are no parameter list (every Rust ``#[derive(Debug)]`` struct read as
  one with a body; ripgrep's ``BinaryDetection`` fields came first for "how does ripgrep detect
  binary files?");
- a function's or method's chunk that holds its signature and no ``{`` (a declaration without
  a body; a long function's later windows hold neither);
- a whole function or method whose body is :data:`TRIVIAL_LINES` lines of code or fewer;
- a file's lines outside its definitions that only import and document
  (:mod:`codeagent.rank.idle_braces`).

A file of which :data:`FILE_SHARE` or more of the chunks only declare (a Java interface's
file, a TypeScript file of types; its share read past its comments, whose documented examples
hold bodies) gives up its places among the first five files to the next ones, unless the
question names it, and without bringing forward a test the how rule keeps after them
(:func:`files_after`).

In Python the code that does no work is a class's head, an accessor, a stub, a method that
only passes its call on and a module's imports (:mod:`codeagent.rank.idle_defs`), in Ruby a
class's or module's head, ``require`` lines, an accessor and a stub
(:mod:`codeagent.rank.idle_ruby`): they score times :data:`DECLARATION` too. A Python or Ruby
file gives its places up when :data:`FILE_SHARE` of its chunks are accessors, stubs or such
forwarders (jmespath's ``ast.py``, a module of node builders, came first for "how is a
projection evaluated?"); its classes' heads do not count (a module of data classes is what a
question about them reads), and a short function that calls is not scored down (a wrapper
such as ``requests.get`` is what a question about it reads first: measured, scoring down every
body of two lines lost more than it gained).
On SWE-QA's how- and where-questions of the seven Python development repositories, a function
the reference answer names among the first chunk cited: 29 -> 33 % (flask), 56 -> 59 %
(requests) with BM25 alone, 42 -> 49 % (flask) with the vectors; 13 questions up, one down,
every file figure equal (docs/eval.md, twenty-second round).

Measured on the hand-written how-questions of ``eval/go-how.jsonl``, ``rust-how.jsonl``,
``ts-how.jsonl`` and ``java-how.jsonl`` (62, seven repositories; a fresh ``codeagent ask`` each,
``eval/how_functions.py``), a function that does the work among the first 1 / 3 / 5 chunks:
BM25 alone 27.4 / 41.9 / 51.6 -> 35.5 / 58.1 / 62.9 %, with the vectors 33.9 / 50.0 / 58.1 ->
43.5 / 56.5 / 66.1 % (one question lower each way); Python's SWE-QA how-questions kept every
file (docs/eval.md, twentieth round).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codeagent.lang import PYTHON_AST, suffixes_read_by
from codeagent.rank import idle_defs, idle_ruby
from codeagent.rank.idle_braces import COMMENTS, header_declares, idle_heads
from codeagent.rank.idle_defs import CALLABLE

if TYPE_CHECKING:
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

DECLARATION = 0.5  # a declaration's chunk score, times this, for a question asking how
FILE_SHARE = 0.6  # a file with this share of such chunks or more gives its first places up
KINDS = frozenset({"struct", "class", "interface", "type", "enum", "trait", "union", "impl"})
BRACES = frozenset({
    ".go", ".rs", ".java", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".c",
    ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".cs", ".php", ".kt", ".swift", ".scala",
})  # fmt: skip
# a body after a parameter list: ``) {``, ``) -> T {``, ``) throws E {`` (a Java enum's
# constants, a trait's default methods, an interface's default methods hold code)
_BODY = re.compile(r"\)[^;{}()]*\{")
# a line from a keyword a type's declaration opens with (``struct``, ``record``, ``impl``, ...)
_DECLARED = re.compile(rf"\b(?:{'|'.join(sorted(KINDS | {'record'}))})\b[^\n;{{}}]*")
_WORDS = re.compile(r"\w+")
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
        text = COMMENTS.sub(" ", _in_comment(chunk.text)) if past_comments else chunk.text
        return _BODY.search(text, _head(chunk, text)) is None
    if chunk.kind not in CALLABLE or "{" in chunk.text:
        return False
    # its signature is there (a long function's later windows hold no signature, and may
    # hold no brace: a template's text, a run of statements)
    return _signed(chunk, chunk.text)


def _head(chunk: Chunk, text: str) -> int:
    """Where in ``text`` (of ``chunk``, a type's) the declaration itself starts: its keyword
    and name (``struct Foo``, ``impl<T> Display for Foo``), past the attributes and the
    documentation above it, whose parentheses are no parameter list (``#[derive(Debug)]``,
    ``@JsonAdapter(X.class)``, a comment's "(e.g. …)"); 0 when the name is not found."""
    name = chunk.symbol.rsplit(".", 1)[-1].partition("<")[0]
    if not name:
        return 0
    for line in _DECLARED.finditer(text):
        if name in _WORDS.findall(line.group()):
            return line.start()
    return 0


def _signed(chunk: Chunk, text: str) -> bool:
    """Whether ``text`` (of ``chunk``, a function's or method's) holds the definition's
    signature: its name followed by ``(``."""
    name = chunk.symbol.rsplit(".", 1)[-1].partition("#")[0]
    return bool(name) and f"{name}(" in text


_COMMENT = re.compile(r"^\s*(?://|/\*|\*|#)")
TRIVIAL_LINES = 2  # a function or method body of this many lines or fewer does little ...
WORKS = 2  # ... unless it holds this many operators: it works something out (``isLeapYear``)
# a statement that stores a value in a field: ``_name = name ?? "x";``, ``this.size = size;``
_STORE = re.compile(r"\s*(?:this\.)?[A-Za-z_][\w.]*\s*=\s*[^=\s][^;{}]*;\s*")


# what reads as an operator and is none: a string, a char, ``->``, ``=>``, ``::``, ``?.``, ``??``
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_NOT_OPERATORS = re.compile(r"->|=>|::|\?\.|\?\?")
_GENERICS = re.compile(r"(?<=\w)<[\w\s,.?<>\[\]]*>")  # List<String>, Map<K, List<V>>
_RETURN_DEREF = re.compile(r"\breturn\s*[*&-]")  # return *this, return -1
_OPERATOR = re.compile(r"[\w)\]]\s*(?:[=!<>]=|&&|\|\||<<|>>|[-+*/%&|^<>?])\s*[\w(!\-.]")


def is_trivial(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole function, method or constructor of a brace language, has a
    body of at most :data:`TRIVIAL_LINES` lines of code that work nothing out (an accessor, a
    forwarding wrapper; not joda-time's two-line ``isLeapYear``, a bit test: :func:`operators`;
    ``self.routes.len() + 1`` is still an accessor), or
    is a constructor that only stores what it is given (serilog's ``JsonFormatter(..)``, three
    fields set under documentation that says "formatted" and "written", came before its
    ``Format`` for "how does the JSON formatter write a log event?")."""
    if chunk.kind not in CALLABLE and chunk.kind != "constructor":
        return False
    text = chunk.text
    first, last = text.find("{"), text.rfind("}")
    if first < 0 or last <= first:
        return False
    if not _signed(chunk, text[:first]):
        return False  # not the definition's start: a later window of a long function
    body = text[first + 1 : last]
    lines = [ln for ln in body.splitlines() if ln.strip() and not _COMMENT.match(ln)]
    if len(lines) <= TRIVIAL_LINES:
        return sum(map(operators, lines)) < WORKS  # an accessor, not a calculation
    return chunk.kind == "constructor" and all(_STORE.fullmatch(ln) for ln in lines)


def operators(line: str) -> int:
    """How many operators between two operands a line of code holds (``1 << (year % 30)``: two;
    ``s == "~" || s == "null"``: three): an accessor, a setter or a call passed on holds none
    (its strings, member arrows, generic brackets and a ``return *this`` are no operators)."""
    code = _NOT_OPERATORS.sub(".", _STRING.sub("s", line))
    code = _RETURN_DEREF.sub("return ", _GENERICS.sub("", code))
    return len(_OPERATOR.findall(code))


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
            for i in ids:
                chunk = store.chunks[i]
                if idle_defs.is_class_head(chunk) or idle_defs.is_imports(chunk):
                    down.append(i)  # a module of data classes keeps its place
                elif (
                    idle_defs.is_accessor(chunk)
                    or idle_defs.is_stub(chunk)
                    or idle_defs.is_forwarder(chunk)
                ):
                    declaring += 1
                    down.append(i)
        elif idle_ruby.in_ruby(path):
            for i in ids:
                chunk = store.chunks[i]
                if idle_ruby.is_head(chunk):
                    down.append(i)  # as a Python class's head: a module of classes keeps its place
                elif idle_ruby.is_accessor(chunk) or idle_ruby.is_stub(chunk):
                    declaring += 1
                    down.append(i)
        elif in_braces(path):
            heads = idle_heads(sorted(((i, store.chunks[i]) for i in ids), key=_lines))
            for i in ids:
                chunk = store.chunks[i]
                if i in heads:
                    down.append(i)  # imports and documentation: the file's share only counts code
                elif is_declaration(chunk, True) or header_declares(chunk):
                    declaring += 1
                    down.append(i)
                elif is_declaration(chunk, True, past_comments=True):
                    declaring += 1  # the file's share only: its windows are chosen as before
                elif is_trivial(chunk):
                    down.append(i)
        told = found[path] = (down, bool(ids) and declaring >= FILE_SHARE * len(ids))
    return told


def _lines(item: tuple[int, Chunk]) -> tuple[int, int]:
    return (item[1].start_line, item[1].end_line)


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
