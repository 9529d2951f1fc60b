"""C and C++'s conditional compilation where the grammar cannot read it: a group (``#if`` ...
``#endif``) inside an expression's parentheses (``recv(sock,\\n#ifdef _WIN32\\n ... #else ...
#endif\\n flags)``), or one whose branches open or close what they do not close or open
(``#ifdef X\\nclass A : public B {\\n#else\\nclass A {\\n#endif``), is read as if its first
branch were compiled: its directives' lines and its other branches blanked, lines and columns
kept (part of the ``repair`` of C and C++). The other groups stay: the grammar reads them,
every branch. And ``__has_include(<x/y.h>)`` in a directive, which the grammar cannot read
(nor a string there), is written ``__has_include( x_y_h )``."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right

# what is not code, where a parenthesis or a brace says nothing: comments, strings,
# characters, raw strings, and the preprocessor's lines (with their continuations); each
# starts with a character of its own (what lets the search skip the rest quickly)
_NOT_CODE = re.compile(
    r"\#[^\n]*(?:(?<=\\)\n[^\n]*)*"
    r"|/(?:/[^\n]*|\*[\s\S]*?\*/)"
    r'|R"([^()\\\s]{0,16})\([\s\S]*?\)\1"'
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\(?:x[0-9A-Fa-f]+|[0-7]{1,3}|[^\n])|[^'\\\n])'"
)
_CONDITIONAL = re.compile(r"#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_BRACKET = re.compile(r"[(){}]")
_HAS_INCLUDE = re.compile(
    r"(?<=__has_include\()[ \t]*<([^<>\n]*)>|(?<=__has_include_next\()[ \t]*<([^<>\n]*)>"
)
_NOT_WORD = re.compile(r"\W")
_HEAD = re.compile(r"[ \t]*(?:\}[ \t]*)?(?:while|for|if|switch|else)\b")


def first_branches_where_needed(text: str) -> str:
    """``text`` with the groups the grammar cannot read reduced to their first branch."""
    if "#" not in text:
        return text
    directives: list[tuple[int, int, str]] = []  # (start, end, word) of each conditional

    def blank(match: re.Match[str]) -> str:
        written, start = match.group(), match.start()
        if written[0] == "#" and not text[text.rfind("\n", 0, start) + 1 : start].strip():
            found = _CONDITIONAL.match(written)
            if found is not None:
                directives.append((start, match.end(), found.group(1)))
        if "\n" not in written:
            return " " * len(written)
        return "\n".join(" " * len(part) for part in written.split("\n"))

    code = _Code(_NOT_CODE.sub(blank, text))
    if not directives:
        return text
    lines = _Lines(text)
    stack: list[tuple[int, list[tuple[int, int]]]] = []  # open groups: (depth, directives)
    depth = at = 0  # the parentheses open at ``at``
    for start, end, word in directives:
        depth += code.net("()", at, start)
        at = end
        if word.startswith("if"):
            stack.append((depth, [(start, end)]))
            if "__has_include" in text[start:end]:
                i = lines.of(start)
                lines[i] = _HAS_INCLUDE.sub(_header_name, lines[i])
        elif stack:
            opened, group = stack[-1]
            group.append((start, end))
            if word == "endif":
                stack.pop()
                if opened > 0 or code.unbalanced(group):
                    _first_only(lines, group)  # and read on as if it were the code
                    code.drop(group[1][0], group[-1][0])
                    depth = opened + code.net("()", group[0][1], group[1][0])
        depth = max(depth, 0)
    return lines.text()


class _Lines:
    """A text's lines, split when one is first rewritten."""

    def __init__(self, text: str) -> None:
        self.original = text
        self.lines: list[str] | None = None
        self.starts: list[int] | None = None  # each line's offset, when first asked

    def of(self, at: int) -> int:
        """The line (from 0) of offset ``at``."""
        if self.starts is None:
            self.starts = [0] + [m.end() for m in re.finditer("\n", self.original)]
        return bisect_right(self.starts, at) - 1

    def __getitem__(self, i: int) -> str:
        if self.lines is None:
            self.lines = self.original.split("\n")
        return self.lines[i]

    def __setitem__(self, i: int, line: str) -> None:
        if self.lines is None:
            self.lines = self.original.split("\n")
        self.lines[i] = line

    def text(self) -> str:
        return self.original if self.lines is None else "\n".join(self.lines)


class _Code:
    """A text with what is not code blanked, and the branches dropped so far."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.dropped: list[tuple[int, int]] = []  # (start, end) of each group's later branches

    def drop(self, start: int, end: int) -> None:
        """Leave out ``start`` to ``end`` (and the dropped branches inside it, counted once)."""
        self.dropped = [(a, b) for a, b in self.dropped if a < start or b > end]
        self.dropped.append((start, end))

    def net(self, pair: str, start: int, end: int) -> int:
        """How many of ``pair`` (``"()"``, ``"{}"``) are left open from ``start`` to ``end``,
        as if the dropped branches were not there."""
        opened, closed = self.code.count(pair[0], start, end), self.code.count(pair[1], start, end)
        for first, last in self.dropped:
            if first < end and last > start:
                first, last = max(first, start), min(last, end)
                opened -= self.code.count(pair[0], first, last)
                closed -= self.code.count(pair[1], first, last)
        return opened - closed

    def unbalanced(self, group: list[tuple[int, int]]) -> bool:
        """Whether a branch of a group opens or closes what it does not close or open (or
        closes first), or one ends with a statement's head, ``while (x)``, the code after the
        group its body."""
        for (_, begin), (end, _) in itertools.pairwise(group):
            if self.net("()", begin, end) or self.net("{}", begin, end):
                return True
            first = _BRACKET.search(self.code, begin, end)
            if first is not None and first.group() in ")}":
                return True
            tail = self.code[begin:end].rstrip()
            if tail[-1:] not in ("", ";", "{", "}") and _HEAD.match(tail[tail.rfind("\n") + 1 :]):
                return True  # a statement's head (#else while (x) #endif {): the branches split it
        return False


def _first_only(lines: _Lines, group: list[tuple[int, int]]) -> None:
    """Blank a group's directives' lines, and its branches after the first."""
    for start, end in group:
        for i in range(lines.of(start), lines.of(end - 1) + 1):
            lines[i] = " " * len(lines[i])
    for i in range(lines.of(group[1][0]), lines.of(group[-1][0])):
        lines[i] = " " * len(lines[i])


def _header_name(match: re.Match[str]) -> str:
    """`` <x/y.h>`` as a name of its length, ``  x_y_h ``."""
    written = match.group(0)
    at = written.index("<")
    inside = _NOT_WORD.sub("_", written[at + 1 : -1])
    return f"{written[:at]} {inside} "
