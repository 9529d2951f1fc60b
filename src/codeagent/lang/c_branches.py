"""C and C++'s conditional compilation where the grammar cannot read it: a group (``#if`` ...
``#endif``) inside an expression's parentheses (``recv(sock,\\n#ifdef _WIN32\\n ... #else ...
#endif\\n flags)``), or one whose branches open or close what they do not close or open
(``#ifdef X\\nclass A : public B {\\n#else\\nclass A {\\n#endif``), is read as if its first
branch were compiled: its directives' lines and its other branches blanked, lines and columns
kept (part of the ``repair`` of C and C++). The other groups stay: the grammar reads them,
every branch. And ``__has_include(<x/y.h>)`` in a directive, which the grammar cannot read
(nor a string there), is written ``__has_include( x_y_h )``."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

# what a parenthesis or brace inside is not code: comments, strings, characters, raw strings,
# and the preprocessor's lines (with their continuations)
_TOKENS = re.compile(
    r"(?P<directive>^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*)"
    r"|//[^\n]*|/\*[\s\S]*?\*/"
    r'|R"(?P<d>[^()\\\s]{0,16})\([\s\S]*?\)(?P=d)"'
    r'|"(?:\\.|[^"\\\n])*"'
    r"|(?<![0-9A-Fa-f])'(?:\\.|[^'\\\n])+'"
    r"|(?P<open>[({])|(?P<close>[)}])",
    re.MULTILINE,
)
_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_HAS_INCLUDE = re.compile(
    r"(?<=__has_include\()[ \t]*<([^<>\n]*)>|(?<=__has_include_next\()[ \t]*<([^<>\n]*)>"
)
_NOT_WORD = re.compile(r"\W")


@dataclass
class _Group:
    directives: list[tuple[int, int]]  # each directive's first and last line
    depth: int  # the parentheses open at its #if
    nets: list[list[int]] = field(default_factory=lambda: [[0, 0, 0]])  # per branch: (, {, low

    def unbalanced(self) -> bool:
        return any(paren or brace or low < 0 for paren, brace, low in self.nets)


def first_branches_where_needed(text: str) -> str:
    """``text`` with the groups the grammar cannot read reduced to their first branch."""
    if "#" not in text:
        return text
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    lines = text.split("\n")
    open_groups: list[_Group] = []
    collapsed: list[_Group] = []
    depth = 0  # parentheses open, over every branch
    for token in _TOKENS.finditer(text):
        kind = token.lastgroup
        if kind == "open" or kind == "close":
            step = 1 if kind == "open" else -1
            if token.group() in "()":
                depth = max(depth + step, 0)
            brace = token.group() in "{}"
            for group in open_groups:
                net = group.nets[-1]
                net[brace] += step
                net[2] = min(net[2], net[0] + net[1])
            continue
        if kind != "directive":
            continue
        found = _CONDITIONAL.match(token.group())
        if found is None:
            continue
        first = bisect_right(starts, token.start()) - 1
        span = (first, first + token.group().count("\n"))
        word = found.group(1)
        if word.startswith("if"):
            open_groups.append(_Group([span], depth))
            line = lines[first]
            if "__has_include" in line:
                lines[first] = _HAS_INCLUDE.sub(_header_name, line)
        elif open_groups:
            group = open_groups[-1]
            group.directives.append(span)
            if word == "endif":
                open_groups.pop()
                if group.depth > 0 or group.unbalanced():
                    collapsed.append(group)  # read on as if its first branch were the code:
                    parens = sum(net[0] for net in group.nets[1:])
                    braces = sum(net[1] for net in group.nets[1:])
                    depth = max(depth - parens, 0)
                    for outer in open_groups:
                        outer.nets[-1][0] -= parens
                        outer.nets[-1][1] -= braces
            else:
                group.nets.append([0, 0, 0])
    for group in collapsed:
        for first, last in group.directives:
            for i in range(first, last + 1):
                lines[i] = " " * len(lines[i])
        for i in range(group.directives[1][0], group.directives[-1][0]):
            lines[i] = " " * len(lines[i])  # the branches after the first
    return "\n".join(lines)


def _header_name(match: re.Match[str]) -> str:
    """`` <x/y.h>`` as a name of its length, ``  x_y_h ``."""
    written = match.group(0)
    at = written.index("<")
    inside = _NOT_WORD.sub("_", written[at + 1 : -1])
    return f"{written[:at]} {inside} "
