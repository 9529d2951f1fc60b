"""Follow-up questions without an LLM: "it", "its", "that file" read as the symbol and the
file of the conversation's focus, which the last exact answers set (:func:`focus_after`);
a follow-up that cannot be resolved that way is declined, never searched as written.

The focus comes from the AST tool (the file the user named, and the symbol) and from the
symbol tool (the symbol, and its file when the answer located one definition), so
``where is Client.send defined?`` → ``who calls it?`` → ``list the functions in that file``
reads as ``who calls Client.send`` (repository-wide) and ``list the functions in
pkg/client.py``.

    >>> resolve_followup("what are its methods?", Focus("Circle", "geo.py", named_file=True))
    Followup(question='what are the methods of Circle in geo.py', declined=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NEEDS_LLM = (
    "not answered: follow-ups like this need an LLM (--llm ollama:MODEL); without one, name"
    " the file or the symbol in the question"
)

_FILE_REF = re.compile(r"\b(?:that|this|the same) (?:file|module)\b", re.IGNORECASE)
_SYMBOL_REF = re.compile(r"\b(?:that|this|the same) (?:class|function|method)\b", re.IGNORECASE)
_ITS = re.compile(r"\bits\b", re.IGNORECASE)
_IT = re.compile(r"\b(?:it|them)\b|(?<=\bin )there\b|(?<=\bfrom )there\b", re.IGNORECASE)
# References the focus cannot resolve: another class than the one named, "the ones".
_UNRESOLVABLE = re.compile(
    r"\b(?:base|parent|super|sub|child|derived)[ -]?class(?:es)?\b|\bsuperclass|\bthe ones\b"
    r"|\bthe others?\b|\bthe (?:previous|other) (?:one|answer)\b|\bthose\b",
    re.IGNORECASE,
)
_REFERENCES = (_FILE_REF, _SYMBOL_REF, _ITS, _IT, _UNRESOLVABLE)
# Questions about call sites: answered over the whole repository unless a file is named.
_CALLERS = re.compile(
    r"\b(?:callers?|calls|called|call sites?|invokes?|invoked|invocations?|uses|used)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Focus:
    """What "it" and "that file" mean now: a symbol, its file, or both."""

    symbol: str | None = None
    file: str | None = None
    named_file: bool = False  # the user named the file (an AST question about it)


@dataclass(frozen=True)
class Followup:
    question: str  # the question to ask: rewritten when a reference was resolved
    declined: str | None = None  # why it cannot be answered without an LLM (not asked)


def is_followup(question: str) -> bool:
    """Whether the question refers back ("it", "its", "that file", "the ones", ...)."""
    return any(pattern.search(question) for pattern in _REFERENCES)


def focus_after(previous: Focus | None, result: Any) -> Focus | None:
    """The focus once ``result`` (an :class:`~codeagent.result.AskResult`) is answered: its
    symbol and file when it is an exact answer about a named file (its ``file`` and
    ``symbol`` arguments) or a named symbol (its ``name``); none after a search or a
    fallback. Read from the route's arguments, whichever tool took them."""
    route = result.route
    args = route.args if isinstance(route.args, dict) else {}
    if result.fallback:
        return None
    if args.get("file"):
        file = str(args["file"])
        symbol = args.get("symbol")
        if not symbol and previous is not None and previous.file == file:
            symbol = previous.symbol  # "list the functions in that file" keeps the symbol
        return Focus(str(symbol) if symbol else None, file, named_file=True)
    if args.get("name"):
        name = str(args["name"])
        found = _defined_in(result.tool_result)
        if found is None and previous is not None and previous.symbol == name:
            found = previous.file  # "who calls it?" keeps the file the definition was found in
        return Focus(name, found)
    return None


def _defined_in(tool_result: Any) -> str | None:
    """The file of the one definition a symbol answer located (None: several, or none)."""
    if not isinstance(tool_result, dict) or tool_result.get("operation") != "definition":
        return None
    items = tool_result.get("items") or []
    if tool_result.get("ambiguous") or len(items) != 1:
        return None
    path = items[0].get("path")
    return str(path) if path else None


def resolve_followup(question: str, focus: Focus | None) -> Followup:
    """``question`` with its references replaced by the focus's symbol and file; declined
    (``declined`` set) when it refers back to something the focus does not hold."""
    if not is_followup(question):
        return Followup(question)
    if focus is None or _UNRESOLVABLE.search(question):
        return Followup(question, declined=NEEDS_LLM)
    symbol, file = focus.symbol, focus.file
    if _FILE_REF.search(question) and file is None:
        return Followup(question, declined=NEEDS_LLM)
    text = _FILE_REF.sub(file, question) if file else question
    owner = symbol or file
    if owner is None or (_SYMBOL_REF.search(text) and symbol is None):
        return Followup(question, declined=NEEDS_LLM)
    if symbol:
        text = _SYMBOL_REF.sub(symbol, text)
    text = _ITS.sub("the", text)
    text = _rewrite_its(question, text, owner)
    text = _IT.sub(owner, text)
    text = text.rstrip(" ?.!")
    # the file the user named earlier still holds the question (but call sites are looked
    # for across the repository unless this question names a file)
    if file and focus.named_file and file not in text and not _CALLERS.search(question):
        text += f" in {file}"
    return Followup(text)


def _rewrite_its(original: str, text: str, owner: str) -> str:
    """``its methods`` -> ``the methods of OWNER`` (the noun after "its" keeps its place)."""
    match = _ITS.search(original)
    if match is None:
        return text
    noun = re.match(r"\s+([\w-]+)", original[match.end() :])
    if noun is None:
        return text
    phrase = f"the {noun.group(1)}"
    return text.replace(phrase, f"{phrase} of {owner}", 1)
