"""Answers without an LLM: the AST result rendered exactly, or the ranked sources with the
lines that share the most words with the question."""

from __future__ import annotations

import re

from codeagent.display import safe_name
from codeagent.index.types import SearchHit

LINES_PER_SOURCE = 3
MAX_LINE_CHARS = 160

_STOP_WORDS = """
    the a an and or of to in on for is are was be by with from this that what which how why
    where when who does do did can could should would it its as at into not no yes any all
    there their them then than about get set use used using code file function method class
    me my we our you your
"""
_STOP = frozenset(_STOP_WORDS.split())
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def query_tokens(question: str) -> set[str]:
    """Lower-case words of the question worth matching: identifiers and their parts."""
    tokens: set[str] = set()
    for word in _WORD.findall(question):
        parts = [p for piece in word.split("_") for p in _CAMEL.findall(piece)]
        for token in (word, *parts):
            token = _stem(token.lower())
            if len(token) >= 3 and token not in _STOP:
                tokens.add(token)
    return tokens


def _stem(word: str) -> str:
    """A crude suffix cut so ``retried`` matches ``retries`` (tokens match as substrings)."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) - len(suffix) >= 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def relevant_lines(hit: SearchHit, tokens: set[str], n: int = LINES_PER_SOURCE) -> list[int]:
    """Line numbers of the chunk's ``n`` lines holding the most question tokens (in order).

    With no token in any line: the chunk's first non-blank line (its ``def`` / ``class``).
    """
    lines = hit.text.splitlines()
    scored: list[tuple[int, int]] = []
    for offset, line in enumerate(lines):
        lower = line.lower()
        score = sum(1 for token in tokens if token in lower)
        if score:
            scored.append((score, offset))
    if not scored:
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        return [] if first is None else [hit.start_line + first]
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:n]
    return sorted(hit.start_line + offset for _, offset in best)


def render_hits(hits: list[SearchHit], question: str) -> str:
    """The ranked sources, each once: ``path:start-end (symbol)`` and its most relevant
    lines, indentation kept (the lines shown are dedented together, not each alone)."""
    if not hits:
        return "No code in the repository matched the question."
    tokens = query_tokens(question)
    out = [f"Most relevant code ({len(hits)} source{'s' if len(hits) != 1 else ''}):"]
    for rank, hit in enumerate(hits, 1):
        symbol = f" ({hit.symbol})" if hit.symbol and hit.symbol != "<module>" else ""
        where = f"{safe_name(hit.path)}:{hit.start_line}-{hit.end_line}"
        out.append(f"{rank}. {where}{symbol}")
        lines = hit.text.splitlines()
        numbers = [n for n in relevant_lines(hit, tokens) if 0 <= n - hit.start_line < len(lines)]
        shown = [lines[n - hit.start_line].rstrip().expandtabs(4) for n in numbers]
        indent = min((len(t) - len(t.lstrip()) for t in shown if t.strip()), default=0)
        for number, text in zip(numbers, shown, strict=True):
            text = text[indent:]
            if len(text) > MAX_LINE_CHARS:
                text = text[: MAX_LINE_CHARS - 3] + "..."
            out.append(f"   {number:>5} | {text}")
    return "\n".join(out)
