"""A field's documentation says what the code that uses it does.

A class's fields are declared apart from its methods, and a field's comment often says in a
user's words what the methods that read it do: monolog's ``Logger`` documents ``$detectCycles``
as "Whether to detect infinite logging loops", and ``addRecord``, which does the detecting, says
nothing of the kind; for "how does the logger detect and stop an infinite loop when handler
code itself triggers more logging?" the fields' chunk was the file's best and ``addRecord`` was
not among the first windows. A chunk that only declares is scored down for a question asking
how (:mod:`codeagent.rank.declarations`); what it matched is passed on here: of its fields, those
whose documentation and name hold the most of the question's words, :data:`AT_LEAST` or more,
are read, and of the chunks of the same file that use one of them by name
(``$this->detectCycles``, ``self.depth``, ``c.depth``, ``@depth``, read and not only set: a
constructor that stores it is no user) the one that scores best on its own scores at least what
the declaration scored (one only: ``__serialize``, which lists every field, uses it too).

Two or three words are not enough: a documented struct such as cobra's ``Command`` says
"command" and "use" in every field's comment, and lifting the users of its best field
(``UseLine``) took the first place from ``Command.Find`` for "how does cobra find which
subcommand to run from the command line arguments?"; with four, none of the hand-written
how-questions lost a place (docs/eval.md, twenty-seventh round).

    users = field_users(chunks, declaring, terms, scores, idle)  # {chunk id: its new score}
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Set
from typing import TYPE_CHECKING

from codeagent.tokens import bm25_terms

if TYPE_CHECKING:
    import numpy as np

    from codeagent.records import Chunk

AT_LEAST = 4  # a field is read when its documentation and name hold this many question words
# a comment line: ``//``, ``/*``, `` *``, ``#`` (not an attribute ``#[``), ``--``
COMMENT = re.compile(r"^\s*(?://|/\*|\*|#(?!\[)|--)")
_TRAILING = re.compile(r"(?://|#)(.*)$")
_SIGILED = re.compile(r"[$@]{1,2}([A-Za-z_]\w*)")
_ATTRIBUTE = re.compile(r"\s*attr_(?:reader|writer|accessor)\s+:(\w+)")
_GENERIC = re.compile(r"<[^<>()=;]*>")
_HEAD = re.compile(
    r"\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|export|"
    r"pub(?:\([\w\s]+\))?|data|open)\s+)*(?:class|struct|interface|enum|type|impl|trait|record|"
    r"union|def|func|fn|namespace|module|object)\b"
)
_IDENT = re.compile(r"[A-Za-z_]\w*")
# where a declaration's name ends: ``T name;``, ``name: T``, ``name = v``, ``T Name { get; }``
_NAME_END = re.compile(r"([A-Za-z_]\w*)\s*(?:[;=,{]|:(?!:))")
_NOT_FIELDS = frozenset({
    "public", "private", "protected", "internal", "static", "final", "readonly", "const",
    "var", "let", "pub", "mut", "val", "override", "virtual", "abstract", "volatile",
    "transient", "class", "struct", "interface", "enum", "type", "func", "fn", "def",
    "function", "return", "get", "set", "self", "this", "true", "false", "null", "nil", "none",
})  # fmt: skip


def fields(text: str) -> list[tuple[str, str]]:
    """``(name, documentation)`` of each field ``text`` declares, one a line of code: the
    comment lines above it and one at its end are its documentation."""
    found: list[tuple[str, str]] = []
    doc: list[str] = []
    quoted = False  # inside a Python docstring
    for line in text.splitlines():
        if not line.strip():
            continue
        quotes = line.count('"""') + line.count("'''")
        if quoted or quotes:  # a docstring: its class's, not a field's
            quoted, doc = quoted != (quotes % 2 == 1), []
            continue
        if COMMENT.match(line):
            doc.append(line)
            continue
        name = _name(line)
        if name:
            trailing = _TRAILING.search(line)
            found.append((name, " ".join([*doc, trailing.group(1) if trailing else ""])))
        doc = []
    return found


@functools.lru_cache(maxsize=4096)
def _documented(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each field of ``text`` (:func:`fields`) with the terms of its documentation and name:
    what a question is matched against, the same whatever the question (a declaration is read
    again by every how-question that reaches its file)."""
    return tuple((name, frozenset(bm25_terms(f"{doc} {name}"))) for name, doc in fields(text))


def _name(line: str) -> str:
    """The name a line of a declaration declares, or "" (a method's head, a call, a brace)."""
    code = _GENERIC.sub("", _GENERIC.sub("", _TRAILING.sub("", line)))  # Map<K, V> is Map
    attribute = _ATTRIBUTE.match(code)
    if attribute:
        return attribute.group(1)  # Ruby's ``attr_reader :name``
    sigiled = _SIGILED.search(code)
    ended = sigiled or _NAME_END.search(code)
    paren = code.find("(")
    if 0 <= paren < (ended.start() if ended else len(code)):
        return ""  # a signature, a call: no field (an initializer's call comes after its name)
    if sigiled:
        return sigiled.group(1)  # PHP's ``$name``
    if _HEAD.match(code):
        return ""  # the type's own head: ``class Foo:``, ``type Foo struct {``
    words = [ended.group(1)] if ended else _IDENT.findall(code)[:1]  # Go: ``name Type``
    return words[0] if words and words[0].lower() not in _NOT_FIELDS else ""


def declares(chunk: Chunk) -> bool:
    """Whether ``chunk`` (one scored down for a how-question) declares a type's fields: a type's
    declaration, a Python class's or a Ruby class's head; not an accessor, a stub, imports."""
    from codeagent.rank import idle_defs, idle_ruby
    from codeagent.rank.declarations import KINDS

    return chunk.kind in KINDS or idle_defs.is_class_head(chunk) or idle_ruby.is_head(chunk)


def field_users(
    chunks: Mapping[int, Chunk],
    declaring: Mapping[int, float],
    terms: frozenset[str],
    scores: np.ndarray,
    idle: Set[int] = frozenset(),
) -> dict[int, float]:
    """Of ``chunks`` (one file's, by id), those to lift, with the score each is lifted to:
    the users of the fields of the chunks ``declaring`` (id: the score it had before it was
    scored down) whose documentation holds the most of ``terms`` (the question's). ``scores``:
    the chunks' own scores (which users come first); a chunk ``declaring`` or ``idle`` (scored
    down: an accessor, a stub) is never one."""
    lifted: dict[int, float] = {}
    for d, score in declaring.items():
        best, names = AT_LEAST - 1, set()
        for name, words in _documented(chunks[d].text):
            said = len(terms & words)
            if said > best:
                best, names = said, {name}
            elif said == best and said >= AT_LEAST:
                names.add(name)
        if not names:
            continue
        alternatives = "|".join(map(re.escape, names))
        # read, not only set (a constructor that stores it), and not a PHP local ``$name``
        used = re.compile(rf"(?<![\w$@])@{{0,2}}(?:{alternatives})\b(?!\s*=(?!=))")
        users = [i for i, c in chunks.items() if i not in idle and used.search(c.text)]
        if users:  # the one the question's words favour (not one that lists every field)
            user = max(users, key=lambda i: float(scores[i]))
            lifted[user] = max(lifted.get(user, 0.0), score)
    return lifted
