"""What a structural question looks like, decided in one place.

The rule router asks :func:`not_a_question` before any structural tool's rules (the file AST
tool, the symbol graph), and the route check asks it of every decision, an LLM's included. A
long issue report that merely contains "classes that inherit from list or set" is searched;
it is never sent to the symbol graph as "subclasses of list".

A text is a structural question when it is

- short: at most :data:`MAX_WORDS` words, one line, one sentence, no code block, no traceback
  (every structural question of the eval suites and the tests has at most 12 words and one
  sentence; the issue reports of the SWE-bench suites have 18 to 1,900 words and up to 270
  lines);
- asked: it opens as a question or a request ("which ...", "where is ...", "list ...",
  "subclasses of ...", "methods of ...", a code name followed by what is asked of it), after
  courtesies ("please", "can you", "I'd like to know") and a leading place ("in models.py,");
  never as a statement ("my code breaks when classes that inherit from dict ...").

Whether it asks how or why, and which name it asks about, is the tools' rules' part; a
placeholder word (:data:`PLACEHOLDERS`: "something", "it", ...) never names a symbol.
"""

from __future__ import annotations

import re

MAX_WORDS = 30

# Words that stand for a name without naming one: never a symbol to look up.
_PLACEHOLDER_WORDS = """something anything everything nothing someone anyone somebody anybody
whatever it its this that these those them they one ones thing things stuff"""
PLACEHOLDERS = frozenset(_PLACEHOLDER_WORDS.split())

_I = re.IGNORECASE

_FENCE = re.compile(r"```|~~~")
_TRACEBACK = re.compile(
    r"Traceback \(most recent call last\)|\bFile \"[^\"\n]+\", line \d+|^\s*at \S+\(\S+:\d+\)",
    re.MULTILINE,
)
# A sentence ends at . ! ? followed by space and more text (not inside `code` or a.dotted.name).
_SENTENCE_END = re.compile(r"(?<=[^\s.][.!?])\s+(?=[\"'(`]?[A-Za-z])")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx)\.", _I)

_COURTESY = re.compile(
    r"^(?:(?:please|pls|kindly|hey|hi|hello|ok(?:ay)?|so|now|also|and|then|quick\s+question)"
    r"\b[,:!]?\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"|(?:do|does)\s+(?:you|anyone)\s+know\s+"
    r"|i(?:'d|\s+would)\s+like\s+(?:to\s+(?:know|see|find|get|have)\s+)?"
    r"|i\s+(?:want|need|wonder)\s+(?:to\s+(?:know|see|find|get)\s+)?"
    r"|i(?:'m|\s+am)\s+looking\s+for\s+"
    r"|(?:tell|show|give)\s+me\s+"
    r"|help\s+me\s+(?:find\s+|see\s+|understand\s+)?)+",
    _I,
)
_PLACE = re.compile(
    r"^(?:in|inside|within|for|from|across|throughout)\s+(?:the\s+|this\s+)?"
    r"(?:(?:file|module|package)\s+)?"
    r"(?:`[^`]+`|\S*[./_]\S*|repo(?:sitory)?|codebase|project|package|library|code)"
    r"(?:\s+(?:file|module|package))?\s*[,:]?\s+",
    _I,
)
_OPENER = re.compile(
    r"^(?:which|what|what's|whats|who|whom|whose|who's|where|where's|wheres|how|why|"
    r"is|are|does|do|did|has|have|can|could|should|list|show|give|find|get|print|display|"
    r"name|enumerate|tell|outline|summari[sz]e|count|locate|search|look|lookup|point|"
    r"explain|describe|dump|trace)\b",
    _I,
)
_ASKED = (
    r"(?:sub-?class(?:es)?|subtypes?|child(?:ren)?|derived|descendants|implementations?|"
    r"parents?|bases?|super-?class(?:es)?|definitions?|signatures?|docstrings?|source|"
    r"implementation|code|body|parameters|arguments|methods?|functions?|class(?:es)?|"
    r"imports?|importers|dependents|dependencies|callers|calls?|call[- ]sites?|usages?|uses|"
    r"invocations|references|outline|structure|skeleton|layout|overview|constants?|"
    r"variables?|globals|decorators?|exceptions?|lines|places|modules?|files?|packages?|"
    r"members|attributes|properties|contents)\b"
)
_NOUN_OPENER = re.compile(
    r"^(?:(?:the|all|every|each|any|its|their)\s+)?"
    r"(?:(?:top|module)[- ]level\s+|direct\s+|public\s+|private\s+|inherited\s+)?" + _ASKED,
    _I,
)
_CODE = (
    r"(?:`[^`]+`|\S+\.pyi?|\S*/\S+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|\w*_\w*|"
    r"[a-z]+[A-Z]\w*|[A-Z]\w*[A-Z]\w*)"
)
# A code name followed by what is asked of it ("Session.request definition", "Cart's methods").
_CODE_OPENER = re.compile(  # case matters in the name (CamelCase), not in what is asked
    rf"^(?:{_CODE}|(?!(?i:it|that|there|here|let|he|she|who|what|where)'s)[A-Za-z_]\w*'s)"
    rf"(?:\s+(?i:{_ASKED})|\s*\??$)"
)


def opens_as_question(text: str) -> bool:
    """The text opens as a question or a request, not as a statement: an opener, a noun of
    what is asked, or a code name, before or after its courtesies and leading place."""
    rest = " ".join(text.split()).lstrip("\"'([")
    previous = None
    while rest and rest != previous:
        if _OPENER.match(rest) or _NOUN_OPENER.match(rest) or _CODE_OPENER.match(rest):
            return True
        previous = rest
        rest = _PLACE.sub("", _COURTESY.sub("", rest))
    return False


def sentences(text: str) -> int:
    """How many sentences ``text`` has (dots inside code, names and abbreviations aside)."""
    plain = _ABBREVIATION.sub("eg", _INLINE_CODE.sub("code", " ".join(text.split())))
    return len([part for part in _SENTENCE_END.split(plain) if part.strip()])


def not_a_question(question: str) -> str | None:
    """Why ``question`` is not shaped like a structural question (a phrase such as "a long
    report (84 words, 12 lines, a code block, a traceback)"), or None when it is."""
    text = question.strip()
    words = len(text.split())
    lines = len([line for line in text.splitlines() if line.strip()])
    fence = bool(_FENCE.search(text))
    traceback = bool(_TRACEBACK.search(text))
    details = [
        *([f"{words} words"] if words > MAX_WORDS else []),
        *([f"{lines} lines"] if lines > 1 else []),
        *(["a code block"] if fence else []),
        *(["a traceback"] if traceback else []),
    ]
    if words > MAX_WORDS or lines > 1:
        kind = "a long report" if words > MAX_WORDS else "a multi-line text"
        return f"{kind} ({', '.join(details)})"
    if traceback or fence:
        return "a text with a traceback" if traceback else "a text with a code block"
    if sentences(text) > 1:
        return "more than one sentence"
    if not opens_as_question(text):
        return "a statement, not a structural question"
    return None


def is_placeholder(name: str) -> bool:
    """``name`` stands for a name without naming one ("something", "it", "these"); a
    capitalised one (``Thing``, ``Something``) is a name: the rule router only takes such a
    word where it is written as a name (not first in the question)."""
    word = name.strip("`'\"")
    return word.lower() in PLACEHOLDERS and not word[:1].isupper()


# "... with signatures", "... with their full signatures", "... in full": a listing with
# every member and signature (`codeagent ask --long` asks it this way).
_SIGNATURES = re.compile(
    r"\b(?:with|and|including|plus|show(?:ing)?)\s+(?:the\s+|their\s+|its\s+|all\s+|full\s+)*"
    r"signatures\b|\bin\s+full\b",
    _I,
)
LONG_SUFFIX = " with signatures"


def wants_signatures(question: str) -> bool:
    """The question asks for a listing with every signature, not one line per definition."""
    return bool(_SIGNATURES.search(question))
