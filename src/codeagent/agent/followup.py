"""Follow-up questions without an LLM: "it", "its", "that file" read as the last question's
file and symbol, when the last question named them (an AST route) and the reference is
unambiguous; otherwise the caller is told that such a follow-up needs an LLM.

    >>> resolve_followup("what are its methods?", last_route)   # last: class Circle in geo.py
    Followup(question='what are the methods of Circle in geo.py', needs_llm=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NEEDS_LLM = (
    "follow-ups like this need an LLM (--llm ollama:MODEL); without one, name the file or"
    " the symbol in the question"
)

_FILE_REF = re.compile(r"\b(?:that|this|the same) (?:file|module)\b", re.IGNORECASE)
_SYMBOL_REF = re.compile(r"\b(?:that|this|the same) (?:class|function|method)\b", re.IGNORECASE)
_ITS = re.compile(r"\bits\b", re.IGNORECASE)
_IT = re.compile(r"\b(?:it|them|there)\b", re.IGNORECASE)
# References the last route cannot resolve: another class than the one named, "the ones".
_UNRESOLVABLE = re.compile(
    r"\b(?:base|parent|super|sub|child|derived)[ -]?class(?:es)?\b|\bsuperclass|\bthe ones\b"
    r"|\bthe others?\b|\bthe (?:previous|other) (?:one|answer)\b|\bthose\b",
    re.IGNORECASE,
)
_REFERENCES = (_FILE_REF, _SYMBOL_REF, _ITS, _IT, _UNRESOLVABLE)


@dataclass(frozen=True)
class Followup:
    question: str  # the question to ask: rewritten when a reference was resolved
    needs_llm: str | None = None  # why it could not be resolved


def is_followup(question: str) -> bool:
    """Whether the question refers back ("it", "its", "that file", "the ones", ...)."""
    return any(pattern.search(question) for pattern in _REFERENCES)


def resolve_followup(question: str, last_route: Any | None) -> Followup:
    """``question`` with its references to the last question replaced by the last route's
    file and symbol; unchanged (with ``needs_llm`` set) when they cannot be resolved."""
    if last_route is None or not is_followup(question):
        return Followup(question)
    file = _arg(last_route, "file") if last_route.tool == "ast" else None
    if not file or _UNRESOLVABLE.search(question):
        return Followup(question, needs_llm=NEEDS_LLM)
    symbol = _arg(last_route, "symbol")
    text = _FILE_REF.sub(file, question)
    if symbol:
        text = _SYMBOL_REF.sub(symbol, text)
        text = _ITS.sub(lambda m: "the", text)
        text = _rewrite_its(question, text, symbol)
        text = _IT.sub(symbol, text)
    else:
        if _SYMBOL_REF.search(text):
            return Followup(question, needs_llm=NEEDS_LLM)
        text = _ITS.sub("the", text)
        text = _rewrite_its(question, text, file)
        text = _IT.sub(file, text)
    text = text.rstrip(" ?.!")
    if file not in text:
        text += f" in {file}"
    return Followup(text)


def _arg(route: Any, name: str) -> str | None:
    """The route's ``file`` / ``symbol``: an attribute, or an entry of its ``args``."""
    args = getattr(route, "args", None)
    value = args.get(name) if isinstance(args, dict) else getattr(route, name, None)
    return str(value) if value else None


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
