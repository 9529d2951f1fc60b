"""Question analysis for retrieval: the code names, paths and traceback frames a question holds.

An issue report or a question about code names things: ``separability_matrix``,
``CompoundModel``, ``astropy.modeling.separable``, ```backticked``` names, ``src/flask/app.py``,
or a traceback (``File ".../requests/sessions.py", line 512, in request``). Each is strong
evidence for the file that defines or is that thing, far stronger than the prose around it.
:func:`analyze` pulls them out; the file ranker (:mod:`codeagent.rank.ranking`) matches them
against the repository's files and definitions.

A name counts as code when it looks like code (``snake_case``, ``CamelCase``, dotted, a call
``name(``), or stands in backticks or a fenced code block. Python keywords and builtins are
dropped. Standard library only: cheap to import.
"""

from __future__ import annotations

import builtins
import keyword
import re
from dataclasses import dataclass

from codeagent.pathtext import path_pattern

ISSUE_WORDS = 60  # a longer question reads like an issue report

_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+", re.IGNORECASE)
_STRING = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_BACKTICK = re.compile(r"`([^`\n]+)`")
# a line of code pasted without a fence, on a line of its own: a prompt (``>>> ``, ``$ ``),
# an assignment from a call or a literal (``db = TinyDB("db.json")``), a call alone
# (``db.close()``), an import, an indented line
_PASTED = re.compile(
    r"^(?:>>>|\$)\s|^[\w.\[\]]+\s*=\s*\S.*$|^[\w.]+\(.*\)\s*$"
    r"|^(?:import|from\s+[\w.]+\s+import)\s+\w|^(?: {4}|\t)\S",
    re.MULTILINE,
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")
_FRAME = re.compile(r"""File\s+"([^"]+)",\s+line\s+(\d+)(?:,\s+in\s+([<>\w.]+))?""")
_PATH = re.compile(
    path_pattern(
        "(?:py|pyi|pyx|cfg|toml|ini|txt|rst|md|ya?ml|json|js|ts|c|h|cpp)", separator=r"[/\\]"
    )
)
_CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2,}[a-z]")
# a capitalized word the question calls a type: "the Mode class", "a Config dataclass",
# "class Mode", "struct Command" (a word alone, ``Mode``, may start a sentence)
_KINDS = r"(?:class|dataclass|struct|enum|interface|trait|protocol|exception|record)"
_DETERMINER = r"(?i:the|a|an|this|that|its|our|my|your|each|every)"
_TYPE_WORD = r"([A-Z][A-Za-z0-9]+)"
_TYPE_NAMED = re.compile(
    rf"\b{_DETERMINER}[ \t]+{_TYPE_WORD}[ \t]+{_KINDS}\b|\b{_KINDS}[ \t]+{_TYPE_WORD}\b"
)
_TESTS = re.compile(
    r"\b(tests?|tested|testing|test (suite|case|class|function|method|file)s?|pytest|unittest|"
    r"fixtures?|conftest)\b",
    re.IGNORECASE,
)
_DOCS = re.compile(
    r"\b(docs?|documentation|readme|changelog|tutorials?|docstring examples?|sphinx)\b",
    re.IGNORECASE,
)
# Pasted environment reports: a section under an "Environment" / "Versions" heading, version
# lines ("numpy: 1.26.4", "Python 3.11.4 (main, …)"), pip freeze lines, show_versions() output.
_NOISE_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*|\*\*)?(?:environment|versions?|system (?:info(?:rmation)?|details)|"
    r"installed versions|dependencies|platform|your environment|output of [^\n]*versions?\W*)"
    r"\s*(?:\*\*)?\s*:?\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*\s*$)")
# (a name, ``: 1.2`` or ``==1.2``, more versions, then at most a note in brackets or after a
# bar: "why does 8 == 8.0 come out true?" is a question, not a version)
_VERSION = r"v?\d+(?:\.\w+)+\S*"
_VERSION_LINE = re.compile(
    rf"^\s*(?:[-*]\s*)?[\w .()/-]{{1,40}}\s*[:=]=?\s*{_VERSION}(?:,?\s+{_VERSION})*"
    r"(?:\s+[(\[|].*)?\s*$"
    r"|^\s*(?:[-*]\s*)?(?:python|os|platform|machine|executable|sys\.version|blas|lapack)"
    r"(?:\s+version)?\s*[:=]\s*\S[^\n]{0,100}$"
    r"|^\s*(?:[-*]\s*)?python\s+v?\d+\.\d+\S*\s*(?:\(.*\))?\s*$",
    re.IGNORECASE,
)

# Latin abbreviations of prose ("e.g.", "i.e.", "etc."): their letters are no words of the
# question, and a one-letter name (flask's ``g``, an ``e`` of ``except … as e``) is a term.
_ABBREVIATION = re.compile(r"(?<![\w.])(?:e\.g|i\.e|etc)\.(?=[\s,;:)]|$)", re.IGNORECASE)


def strip_noise(question: str) -> str:
    """``question`` without pasted environment reports: a section under an "Environment",
    "Versions" (…) heading up to the next heading, and lines that only give a version
    (``numpy: 1.26.4``, ``requests==2.31.0``, ``Python 3.11.4``), and without the Latin
    abbreviations of prose ("e.g.", "i.e.", "etc."). Traceback lines stay; a question that
    would be left with nothing is kept whole."""
    kept: list[str] = []
    skipping = skipped = False  # in a report's section; some of its lines already left out
    for line in question.splitlines():
        if _NOISE_HEADING.match(line):
            skipping, skipped = True, False
            continue
        if skipping and (_HEADING.match(line) or (skipped and not line.strip())):
            skipping = False
        if _FRAME.search(line) or line.lstrip().startswith("Traceback"):
            skipping = False
        elif skipping or _VERSION_LINE.match(line):
            skipped = skipped or bool(line.strip())
            continue
        kept.append(_ABBREVIATION.sub(" ", line))
    return "\n".join(kept) if any(line.strip() for line in kept) else question


_IGNORED = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | {"self", "cls", "args", "kwargs"}


@dataclass(frozen=True, slots=True)
class Frame:
    """One traceback frame: the file as printed, its line, the function (may be empty)."""

    path: str
    line: int
    function: str


@dataclass(frozen=True, slots=True)
class QueryAnalysis:
    """What :func:`analyze` found in a question."""

    identifiers: tuple[str, ...]  # code names (each part of a dotted name too), first seen first
    weak: tuple[str, ...]  # plain words of code blocks (``data``, ``put``): weaker evidence
    dotted: tuple[str, ...]  # dotted names as written: ``astropy.modeling.separable``
    paths: tuple[str, ...]  # file paths as written: ``flask/app.py``
    frames: tuple[Frame, ...]  # traceback frames, outermost first
    issue_like: bool  # a long report: mentions of tests and docs are in passing
    reports: bool  # a bug report: a long question, or one that pastes code or a traceback
    wants_tests: bool  # a short question about tests (not a report: no snippet, no traceback)
    wants_docs: bool  # a short question about the documentation (the same)


# "how …", "where …", and the same asked as a request: "explain how …", "can you show me where …"
_ASKING = r"(?:please\s+)?(?:(?:can|could)\s+you\s+)?(?:explain|describe|show(?:\s+me)?|tell\s+me)"
# ... and after a clause that sets the scene: "when loading, how does ...", "if I build a time
# the clocks skip, how is that detected?", "rounding half-even: how are ties resolved?"
_SCENE = r"(?:[^?!.,:;]{1,120}[,:;]\s*)?"
_LEAD = rf"^\W*(?:{_ASKING}\s+)?{_SCENE}"
_ASKS = re.compile(_LEAD + r"(?:how|where|what\s+happens)\b", re.IGNORECASE)


def asks_how(question: str) -> bool:
    """Whether ``question`` asks how or where something is done (its first word), or what
    happens when it is ("what happens when a table is dropped?")."""
    return _ASKS.match(question) is not None


# how to use it, not how it works: "how do I add a route?", "how to configure the cache?"
_USAGE = re.compile(
    _LEAD + r"how\s+(?:to|(?:do|does|can|could|should|would|may)\s+(?:i|we|you|one))\b"
    # "how is apply_coupon used?" (its callers, its tests; not "used as a key"), examples
    r"|\b(?:is|are)\s+(?:[\w.()]+\s+){0,4}used\b(?!\s+(?:as|to|together|for|by|in)\b)"
    r"|\b(?:usage|examples?)\b",
    re.IGNORECASE,
)
# a test named: ``test_list``, ``TestIsValidCIDR``, ``parse_test``, ``RouterTest``
_TEST_NAME = re.compile(r"\btest_\w+|\b\w+_tests?\b|\bTest[A-Z_]\w*|\b[A-Z]\w*Tests?\b")


def asks_workings(question: str) -> bool:
    """Whether ``question`` asks how (or where) the code does something: its first word is
    "how" or "where", it does not ask how to use it ("how do I …", "how to …", "how is it
    used", examples) and it names no test (``test_list``, ``TestIsValidCIDR``)."""
    return asks_how(question) and not _USAGE.search(question) and not _TEST_NAME.search(question)


def looks_like_code(name: str) -> bool:
    """``snake_case``, ``_private``, ``CamelCase``, ``dotted.name`` or ``UPPER_CASE``."""
    core = name.strip("_")
    if not core:
        return False
    return "_" in name or "." in name or _CAMEL.search(name) is not None


def analyze(question: str) -> QueryAnalysis:
    """The identifiers, paths and traceback frames of ``question`` (its pasted environment
    report left out: :func:`strip_noise`)."""
    words = len(question.split())
    question = strip_noise(question)
    names: dict[str, None] = {}
    weak: dict[str, None] = {}
    dotted: dict[str, None] = {}

    def add(raw: str, strong: bool = True) -> None:
        raw = raw.strip(".")
        if not raw:
            return
        if "." in raw:
            dotted[raw] = None
        for part in raw.split("."):
            if len(part) > 1 and part not in _IGNORED and not part.isdigit():
                (names if strong or looks_like_code(part) else weak)[part] = None

    frames = tuple(
        Frame(m.group(1), int(m.group(2)), m.group(3) or "") for m in _FRAME.finditer(question)
    )
    paths = {m.group(1).replace("\\", "/"): None for m in _PATH.finditer(question)}
    for frame in frames:
        paths[frame.path.replace("\\", "/")] = None
    path_texts = {piece for path in paths for piece in _PATH_PIECES.split(path)}
    question = _URL.sub(" ", question)
    for block in _FENCE.finditer(question):
        code = block.group().strip("`").partition("\n")[2]  # without the language tag
        for m in _NAME.finditer(_STRING.sub(" ", code)):
            if not _inside_path(m.group(), path_texts):
                add(m.group(), strong=False)
    prose = _FENCE.sub(" ", question)
    for m in _BACKTICK.finditer(prose):
        for name in _NAME.finditer(m.group(1)):
            if not _inside_path(name.group(), path_texts):
                add(name.group())
    for m in _CALL.finditer(prose):
        add(m.group(1))
    for m in _NAME.finditer(prose):
        word = m.group()
        if looks_like_code(word) and not _inside_path(word, path_texts):
            add(word)
    for frame in frames:
        if frame.function and not frame.function.startswith("<"):
            add(frame.function)
    issue_like = words > ISSUE_WORDS
    # a question that pastes code or a traceback reports a bug, however short: its "a test
    # that shows it" or "the docs say" is said in passing, as in a long report
    reports = issue_like or bool(frames) or _FENCE.search(question) is not None
    if not reports and "\n" in question.strip():  # code pasted on lines of its own, unfenced
        reports = _PASTED.search(question) is not None
    if not reports:  # a report's "class Foo(Base):" is its own code, pasted
        for m in _TYPE_NAMED.finditer(prose):
            add(m.group(1) or m.group(2))
    return QueryAnalysis(
        identifiers=tuple(names),
        weak=tuple(w for w in weak if w not in names),
        dotted=tuple(d for d in dotted if not _is_path_like(d)),
        paths=tuple(paths),
        frames=frames,
        issue_like=issue_like,
        reports=reports,
        wants_tests=not reports and _TESTS.search(question) is not None,
        wants_docs=not reports and _DOCS.search(question) is not None,
    )


def _is_path_like(name: str) -> bool:
    return name.rsplit(".", 1)[-1] in {"py", "pyi", "cfg", "toml", "ini", "txt", "rst", "md"}


_PATH_PIECES = re.compile(r"[/.]")


def _inside_path(name: str, pieces: set[str]) -> bool:
    """Whether ``name`` is a path, or a piece of one the question gives (``pieces``: the
    pieces of every path, split at ``/`` and ``.``, gathered once per question)."""
    return _is_path_like(name) or name in pieces
