"""Search results as text: for an answer without an LLM, the ranked sources with the lines
that share the most words with the question; for an LLM, the code blocks as its context."""

from __future__ import annotations

import re

from codeagent.display import location
from codeagent.records import SearchHit
from codeagent.tokens import QUESTION_STOPWORDS, identifier_parts

MAX_CONTEXT_CHARS = 16_000  # about 5k tokens of code
LINES_PER_SOURCE = 3
MAX_LINE_CHARS = 160

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def query_tokens(question: str) -> set[str]:
    """Lower-case words of the question worth matching: identifiers and their parts."""
    tokens: set[str] = set()
    for word in _WORD.findall(question):
        parts = [p for piece in word.split("_") for p in identifier_parts(piece)]
        for token in (word, *parts):
            token = _stem(token.lower())
            if len(token) >= 3 and token not in QUESTION_STOPWORDS:
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
    lines = hit.text.split("\n")  # as the chunker counts lines (splitlines() ends one at \f)
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


def snippet(hit: SearchHit, query: str, lines: int = 6) -> list[str]:
    """``lines`` numbered lines of the chunk around its line that best matches ``query``
    (the line before it unless blank, the rest after; the chunk's first lines when nothing
    matches), as ``  556 | code``: what a search client sees of a 40-line chunk."""
    text = hit.text.split("\n")
    best = relevant_lines(hit, query_tokens(query), n=1)
    at = best[0] - hit.start_line if best else 0
    before = 1 if at > 0 and text[at - 1].strip() else 0  # a line of context, not a blank one
    start = max(0, min(at - before, len(text) - lines))
    shown = text[start : start + lines]
    width = len(str(hit.start_line + start + len(shown)))
    return [
        f"{hit.start_line + start + i:>{width}} | {line.rstrip()[:MAX_LINE_CHARS]}"
        for i, line in enumerate(shown)
    ]


def render_hits(hits: list[SearchHit], question: str) -> str:
    """The ranked sources, each once: ``path:start-end (symbol)`` and its most relevant
    lines, indentation kept (the lines shown are dedented together, not each alone)."""
    if not hits:
        return "No code in the repository matched the question."
    tokens = query_tokens(question)
    out = [f"Most relevant code ({len(hits)} source{'s' if len(hits) != 1 else ''}):"]
    for rank, hit in enumerate(hits, 1):
        symbol = f" ({hit.symbol})" if hit.symbol and hit.symbol != "<module>" else ""
        where = location(hit.path, hit.start_line, hit.end_line)
        out.append(f"{rank}. {where}{symbol}")
        lines = hit.text.split("\n")
        numbers = [n for n in relevant_lines(hit, tokens) if 0 <= n - hit.start_line < len(lines)]
        shown = [lines[n - hit.start_line].rstrip().expandtabs(4) for n in numbers]
        indent = min((len(t) - len(t.lstrip()) for t in shown if t.strip()), default=0)
        for number, text in zip(numbers, shown, strict=True):
            text = text[indent:]
            if len(text) > MAX_LINE_CHARS:
                text = text[: MAX_LINE_CHARS - 3] + "..."
            out.append(f"   {number:>5} | {text}")
    return "\n".join(out)


def hits_context(hits: list[SearchHit], budget: int = MAX_CONTEXT_CHARS) -> str:
    """The retrieved code blocks, each under its ``path:start-end`` header, best first,
    after a title line."""
    blocks: list[str] = []
    used = 0
    for hit in hits:
        header = f"### {hit.location}" + (f" ({hit.symbol})" if hit.symbol else "")
        code = hit.text
        room = budget - used - len(header) - 10
        if room < 200:
            break
        if len(code) > room:
            code = code[:room].rsplit("\n", 1)[0] + "\n..."
        block = f"{header}\n```\n{code}\n```"
        blocks.append(block)
        used += len(block)
    if not blocks:
        return "Retrieved code:\n\n(no code matched the question)"
    body = "\n\n".join(blocks)
    return f"Retrieved code from the repository, most relevant first:\n\n{body}"
