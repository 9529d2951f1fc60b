"""The AST tool's rule matcher: structural questions about one named Python file.

The rule router asks it when no LLM is configured or the LLM router fails, and only with a
text shaped like a structural question (short, one sentence, asked: see
:mod:`codeagent.tools.structural`). It is conservative: only a question whose main ask is
structural ("list the classes in models.py", "methods of class Session in requests.models",
"where is foo called in app.py", "which classes in x.py inherit from something") goes to the
AST tool, and only when the file it names resolves to a Python file in the repository.
Everything else (how / why questions, no resolvable file) goes to RAG, with the reason
recorded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from codeagent.lang import PYTHON_AST, suffixes_read_by
from codeagent.tokens import QUESTION_STOPWORDS, STOPWORDS
from codeagent.tools.ast_tool.mentions import (
    file_candidates,
    file_missing,
    find_file,
    lang_file_tokens,
    named_files,
    without_mentions,
)
from codeagent.tools.ast_tool.models import AstArgs
from codeagent.tools.base import Declined
from codeagent.tools.structural import is_placeholder

# dotted, with ``::``, or Ruby's ``Class#method`` (an instance's method)
_ID = r"`?@?(?P<sym>[A-Za-z_]\w*(?:(?:\.|::|#)[A-Za-z_]\w*)*)(?:\(\))?`?(?![\w/])"
# The kind words of other languages too: "the Route struct", "the Handler interface".
_TYPE_WORDS = r"class|struct|interface|trait|type|enum"
_KIND = rf"(?:the\s+)?(?:(?:function|{_TYPE_WORDS}|method|constant|variable|decorator)\s+)?"
_SYM = rf"{_KIND}{_ID}(?:\s+(?:function|{_TYPE_WORDS}|method))?"  # "the function X", "the X class"
_I = re.IGNORECASE

# A conceptual opener: the question asks how or why, not what is where.
_CONCEPTUAL = re.compile(
    r"^\s*(?:how(?!\s+many\b)|why|explain(?!\s+the\s+(?:structure|layout)\b)|describe"
    r"(?!\s+the\s+(?:structure|layout)\b)|what\s+happens|what\s+(?:is|are|'s)\s+the\s+"
    r"(?:purpose|point|role|difference|reason|idea)|in\s+what\s+way|is\s+it|is\s+there|"
    r"should|when|fix|i\s)\b",
    _I,
)

_CALLS = [
    re.compile(rf"\bwhere\s+(?:is|are)\s+{_SYM}\s+(?:being\s+)?(?:called|invoked|used)", _I),
    re.compile(
        rf"\b(?:calls?|call\s+sites?|callers|invocations|usages)\s+(?:to|of|for)\s+{_SYM}",
        _I,
    ),
    re.compile(rf"\b(?:who|what)\s+calls\s+{_SYM}", _I),
    re.compile(rf"\bwhere\s+does\s+\S+(?:\s+\S+)?\s+call\s+{_SYM}", _I),
    re.compile(
        rf"\b(?:which|what)\s+(?:functions|methods|lines|places|code)\s+(?:\w+\s+)?"
        rf"(?:calls?|invokes?)\s+{_SYM}",
        _I,
    ),
    re.compile(rf"\b(?:lines|places)\s+(?:that|which|where)\s+(?:calls?|invokes?)\s+{_SYM}", _I),
    re.compile(rf"\b(?:is|are)\s+{_SYM}\s+(?:called|invoked)\b", _I),
]

_METHODS = [
    re.compile(
        rf"\bmethods\s+(?:(?:are\s+)?(?:defined\s+)?(?:of|on|for|in|by|inside)\s+)(?:the\s+)?"
        rf"(?:class\s+)?{_ID}",
        _I,
    ),
    re.compile(
        rf"\bmethods\s+(?:does|do)\s+(?:the\s+)?(?:class\s+)?{_ID}(?:\s+class)?"
        r"(?:\s+(?:in|of|from)\s+\S+)?\s+(?:have|define)",
        _I,
    ),
    re.compile(rf"\b(?:class\s+)?{_ID}(?:'s|\s+class's|\s+class'\s*s)\s+methods\b", _I),
    re.compile(rf"\bclass\s+{_ID}\s+(?:methods|has|have|defines?)\b", _I),
]

_DEFINITION = [
    re.compile(rf"\bdefinition\s+of\s+{_SYM}", _I),
    re.compile(rf"\bwhere\s+(?:is|are)\s+{_SYM}\s+defined\b", _I),
    re.compile(
        rf"\b(?:signature|docstring|source(?:\s+code)?|implementation)\s+(?:of|for)\s+{_SYM}",
        _I,
    ),
]
# Weaker phrasings: only when the name looks like code (see _looks_like_code).
_DEFINITION_WEAK = [
    re.compile(rf"\bwhat\s+does\s+{_SYM}(?:\s+(?:in|of|from)\s+\S+)?\s+do\b", _I),
    re.compile(rf"\b(?:code|body|parameters|arguments)\s+(?:of|for)\s+{_SYM}", _I),
    re.compile(rf"\bwhat\s+(?:arguments|parameters)\s+does\s+{_SYM}\s+take\b", _I),
    re.compile(rf"^\s*(?:show|print|display|give)(?:\s+me)?\s+{_SYM}", _I),
]
_POLITE = re.compile(r"^\s*(?:please|pls|can\s+you|could\s+you|would\s+you|kindly)\s+", _I)

_CATEGORIES: list[tuple[str, re.Pattern[str]]] = [
    ("decorators", re.compile(r"\bdecorat(?:ors?|ed|es)\b|(?<![\w`])@\w+", _I)),
    ("imports", re.compile(r"\bimport(?:s|ed|ing)?\b|\bdependencies\b", _I)),
    (
        "variables",
        re.compile(
            r"\b(?:variables|constants|globals|global\s+names|assignments|"
            r"module[- ]level\s+(?:names|variables|assignments))\b",
            _I,
        ),
    ),
    (
        "classes",
        re.compile(
            r"\b(?:classes|exceptions|exception\s+classes|(?:every|each|all)\s+class|"
            r"sub-?class(?:es|ed)?|inherits?|derives?|extends|base\s+classes|bases|"
            # the types of other languages ("list the structs in router.go"), not the
            # types of a function's parameters or results
            r"(?<!parameter\s)(?<!argument\s)(?<!return\s)(?<!result\s)(?<!value\s)"
            r"(?:types|structs|interfaces|enums|traits|records|protocols|unions))\b",
            _I,
        ),
    ),
    (
        "functions",
        re.compile(r"\b(?:functions|defs|(?:every|each|all)\s+functions?)\b", _I),
    ),
    ("methods", re.compile(r"\bmethods\b", _I)),
]
_LISTING = re.compile(
    r"\b(?:list|what|which|show|name|enumerate|give|find|get|print|display|are\s+there|"
    r"does|do|how\s+many|count|all|every|each)\b",
    _I,
)
_OUTLINE = re.compile(
    r"\b(?:outline|structure|skeleton|layout|table\s+of\s+contents|overview\s+of|"
    r"what(?:'s|\s+is)\s+(?:defined\s+)?in|what\s+does\s+(?:the\s+)?\S+"
    r"(?:\s+(?:module|file|package))?\s+(?:define|contain))\b",
    _I,
)


def _looks_like_code(match: re.Match[str]) -> bool:
    """A name written as code: `quoted`, called(), dotted, snake_case, CamelCase, or kinded."""
    sym, whole = match.group("sym"), match.group(0)
    kinded = re.search(r"\b(?:function|class|method|constant|variable)\b", whole, _I)
    return bool(
        "`" in whole
        or "()" in whole
        or kinded
        or re.search(r"[_.\d]|[A-Z]", sym.lstrip("_")[1:] if sym[:1].islower() else sym)
    )


def first_name(
    patterns: Iterable[re.Pattern[str]],
    text: str,
    accept: Callable[[str, re.Match[str]], bool],
) -> str | None:
    """The first ``sym`` group (trailing dot dropped) any pattern finds in ``text`` that
    ``accept(name, match)`` takes, trying the patterns in order."""
    for pattern in patterns:
        for match in pattern.finditer(text):
            name = match.group("sym").rstrip(".")
            if accept(name, match):
                return name
    return None


_KIND_WORD = re.compile(rf"(?:{_TYPE_WORDS})\s+$", _I)
_KIND_AFTER = re.compile(rf"\s+(?:{_TYPE_WORDS})\b", _I)


def _written_as_name(sym: str, match: re.Match[str]) -> bool:
    """Whether a word that is usually the question's own ("module", "functions", "a",
    "thing") is written as a name here: in backticks (`Module`), or capitalised inside the
    question and either no English function word (Module, Functions, Thing) or marked as a
    type ("class A", "the A class")."""
    text, start, end = match.string, match.start("sym"), match.end("sym")
    if text[start - 1 : start] == "`" and text[end : end + 1] == "`":
        return True
    if start == 0 or not sym[:1].isupper():
        return False
    typed = bool(_KIND_WORD.search(text[:start]) or _KIND_AFTER.match(text, end))
    return typed or sym.lower() not in STOPWORDS


def _symbol(
    patterns: list[re.Pattern[str]], text: str, exclude: set[str], *, strict: bool = False
) -> str | None:
    def accept(sym: str, match: re.Match[str]) -> bool:
        lower = sym.lower()
        if sym in exclude:
            return False
        if (lower in QUESTION_STOPWORDS or is_placeholder(sym)) and not _written_as_name(
            sym, match
        ):
            return False
        if lower.endswith(suffixes_read_by(PYTHON_AST)):
            return False
        return not strict or _looks_like_code(match)

    return first_name(patterns, text, accept)


def _categories(text: str) -> list[str]:
    return [name for name, pattern in _CATEGORIES if pattern.search(text)]


_TYPE_KIND = re.compile(r"\b(structs|interfaces|enums|traits|records|unions)\b", _I)


def type_kind(text: str) -> str | None:
    """The one kind of type a listing asks for ("list the structs in x.go": ``struct``), or
    None when it names none or several ("types", "classes", "structs and enums")."""
    kinds = {m.group(1).lower()[:-1] for m in _TYPE_KIND.finditer(text)}
    return kinds.pop() if len(kinds) == 1 else None


def _operation(text: str, exclude: set[str], listing: str) -> tuple[str | None, str | None]:
    """(operation, symbol) the question asks for, or (None, None); the category words are
    read from ``listing``, the question with its file mentions removed."""
    if sym := _symbol(_CALLS, text, exclude):
        return "calls", sym
    if re.search(r"\bmethods\b", text, _I) and (sym := _symbol(_METHODS, text, exclude)):
        return "methods", sym
    if sym := _symbol(_DEFINITION, text, exclude):
        return "definition", sym
    if sym := _symbol(_DEFINITION_WEAK, text, exclude, strict=True):
        return "definition", sym
    cats = _categories(listing)
    if cats and (_LISTING.search(listing) or len(listing.split()) <= 8):
        if "decorators" in cats:
            return "decorators", None
        if "imports" in cats:
            return "imports", None
        if "variables" in cats:
            return "variables", None
        if "classes" in cats and "functions" in cats:
            return "outline", None
        # "methods" without a class: the classes listing shows every class's methods.
        return ("classes" if cats[0] == "methods" else cats[0]), None
    if _OUTLINE.search(listing):
        return "outline", None
    return None, None


def asks_how_or_why(question: str) -> bool:
    """A conceptual question (how, why, what happens, ...): search answers it."""
    return bool(_CONCEPTUAL.search(_POLITE.sub("", " ".join(question.split()))))


def match_structural(question: str, root: Path) -> AstArgs | Declined:
    """The AST query ``question`` asks about the repository at ``root``, or why it is none."""
    text = _POLITE.sub("", " ".join(question.split()))
    if _CONCEPTUAL.search(text):
        return Declined("a how/why question")
    rel, mentions, why_not = find_file(text, root)
    exclude = set(mentions) | ({rel, Path(rel).name} if rel else set())
    named = named_files(text)
    operation, symbol = _operation(text, exclude, without_mentions(text, [*mentions, *named]))
    if operation is None:
        return Declined("not a structural question about one file")
    if rel is None:
        for name in named:  # ambiguous: the tool lists the candidates and asks which one
            if file_candidates(root, name):
                return AstArgs.model_validate(
                    {"file": name, "operation": operation, "symbol": symbol}
                )
        if missing := [n for n in [*named, *lang_file_tokens(text)] if file_missing(root, n)]:
            return Declined(  # the fallback says it: no notice besides
                f"structural question ({operation}) but {why_not}",
                failure=f"{missing[0]} does not exist in the repository",
            )
        return Declined(f"structural question ({operation}) but {why_not}")
    for name in mentions:  # `email.utils.parseaddr` in email/utils.py is `parseaddr`
        if symbol and symbol.startswith(name + "."):
            symbol = symbol[len(name) + 1 :]
    return AstArgs.model_validate({"file": rel, "operation": operation, "symbol": symbol})


def structural_without_file(question: str, root: Path) -> tuple[str, str] | None:
    """(operation, symbol) of a definition / calls / methods question that names no file
    (the repository-wide symbol graph answers those), else None."""
    text = _POLITE.sub("", " ".join(question.split()))
    if _CONCEPTUAL.search(text):
        return None
    named = named_files(text)
    rel, mentions, _why = find_file(text, root)
    if rel is not None or named:
        return None
    operation, symbol = _operation(text, set(mentions), without_mentions(text, mentions))
    if operation in ("definition", "calls", "methods") and symbol:
        return operation, symbol
    return None
