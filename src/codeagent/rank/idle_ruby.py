"""Ruby's code that does no work: a class's or module's head, a file's ``require`` lines, an
accessor written out as a method, a method with no body.

A Ruby class is cut into chunks by method when it is long; its head (the documentation above
``class Decompressor``, its ``attr_reader`` lines, its constants) carries the words of the
subject and no work: httparty's ``HashConversions`` head, whose comment shows
``address[city]=``, came first for "how are nested hashes flattened into bracketed parameter
names?", before ``normalize_keys``; ``Decompressor``'s head before ``decompress``. Such a chunk
is scored down for a question asking how (:mod:`codeagent.rank.declarations`), as a Python
class's head is; so are a file's lines outside its definitions when they only require and
document, a method that only reads or sets an instance variable, and one with no body (these
two count toward the file's share, as Python's accessors and stubs do).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.records import Chunk

SUFFIXES = frozenset({".rb", ".rake"})
_TYPES = frozenset({"class", "namespace"})  # a Ruby module's kind is the namespace's
_FILE = frozenset({"module", "window"})  # a file's own lines
# a line of a file's own lines that does no work
_IDLE = re.compile(
    r"""\s*(?:
      \#.*
    | (?:class|module)\s+[\w:]+(?:\s*<\s*[\w:.]+)?\s*(?:;\s*end)?
    | class\s*<<\s*self
    | end
    | (?:private|protected|public|module_function)(?:\s+:\w+[?!]?(?:\s*,\s*:\w+[?!]?)*)?
    | (?:private_)?attr_(?:reader|writer|accessor)\b[^\n]*
    | (?:include|extend|prepend)\s+[\w:]+(?:\s*,\s*[\w:]+)*
    | (?:require|require_relative|load|autoload)\b\s*\(?\s*(?::\w+\s*,\s*)?['"][^'"\n]+['"]\s*\)?
    | [A-Z]\w*\s*=\s*(?:'[^'\n]*'|"[^"\n]*"|[-\d_.]+|:\w+|[A-Z][\w:]*|true|false|nil)
      (?:\.freeze)?
    )?\s*""",
    re.VERBOSE,
)
# an accessor's one line: an instance variable read, or set from a name or a literal
_ACCESS = re.compile(r"\s*(?:@\w+|@\w+\s*=\s*(?:\w+|'[^']*'|\"[^\"]*\"))\s*")
_STUB = re.compile(r"\s*(?:raise\s+(?:::)?NotImplementedError\b[^\n]*|nil)?\s*")
_DEF_LINE = re.compile(r"^[ \t]*def\s", re.MULTILINE)
_DEF = re.compile(r"\s*def\s+(?:self\.)?[\w?!=\[\]<>+\-*/%]+")
_ONE_LINE = re.compile(r"\s*def\s+[^;(]+(?:\([^)]*\))?\s*;(.*?);?\s*end\s*")  # def x; @x; end
_ENDLESS = re.compile(r"\s*def\s+(?:self\.)?\w+[?!]?(?:\([^)]*\))?\s*=\s*(.+)")


def in_ruby(path: str) -> bool:
    """Whether ``path`` is a Ruby file."""
    return path.lower().endswith(tuple(SUFFIXES))


def is_head(chunk: Chunk) -> bool:
    """Whether ``chunk`` is a Ruby class's or module's and holds no method (its head: the
    documentation, attribute declarations, constants; as a Python class's head), or is a
    file's own lines and holds nothing that runs: documentation, ``require`` lines, the
    ``module`` lines a class is nested in."""
    if chunk.kind in _TYPES:
        return _DEF_LINE.search(chunk.text) is None
    return chunk.kind in _FILE and all(_IDLE.fullmatch(ln) for ln in chunk.text.split("\n"))


def _body(chunk: Chunk) -> list[str] | None:
    """The lines of code of ``chunk``, a whole Ruby method (its comments aside) between its
    ``def`` line and its ``end``; a one-line method's (``def x; @x; end``, ``def x = @x``);
    None for anything else."""
    if chunk.kind != "method":
        return None
    lines = [ln for ln in chunk.text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines or _DEF.match(lines[0]) is None:
        return None
    if len(lines) == 1:
        one = _ONE_LINE.fullmatch(lines[0]) or _ENDLESS.fullmatch(lines[0])
        return None if one is None else [b for b in [one.group(1)] if b.strip()]
    if lines[-1].strip() != "end":
        return None
    return lines[1:-1]


def is_accessor(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Ruby method, only reads or sets an instance variable
    (``@body``, ``@format = format``)."""
    body = _body(chunk)
    return body is not None and len(body) == 1 and _ACCESS.fullmatch(body[0]) is not None


def is_stub(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Ruby method, has no body or only raises
    ``NotImplementedError`` (an abstract method)."""
    body = _body(chunk)
    return body is not None and len(body) <= 1 and all(_STUB.fullmatch(b) for b in body)
