"""A file that starts with blank lines or spaces: its call sites are read from where they are
written. The grammar's tree starts at the file's first token, so a call's name sliced from
the tree's text by the node's place in the file would be shifted by the blank lines (``g``
read as ``}``). The truth is the source itself: each call's name, at its line, is the name
the text has there."""

from __future__ import annotations

import re

import pytest

from codeagent.lang import parse_file

SOURCES = {
    "a.c": "int helper(int x) { return x; }\nint f(void) { return helper(1); }\n",
    "a.cpp": "int helper(int x) { return x; }\nint f() { return helper(1); }\n",
    "A.java": "class A {\n  int helper() { return 1; }\n  int f() { return helper(); }\n}\n",
    "a.go": "package a\n\nfunc helper() int { return 1 }\nfunc f() int { return helper() }\n",
    "a.rs": "fn helper() -> i32 { 1 }\nfn f() -> i32 { helper() }\n",
    "a.ts": "function helper(): number { return 1; }\nfunction f() { return helper(); }\n",
    "a.js": "function helper() { return 1; }\nfunction f() { return helper(); }\n",
}
LEADS = ("\n", "\n\n\n", "   \n\t\n  ")


def _written(text: str, line: int, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\s*\(", text.split("\n")[line - 1]) is not None


@pytest.mark.parametrize("lead", LEADS, ids=["one", "three", "spaces"])
@pytest.mark.parametrize("path", sorted(SOURCES))
def test_a_call_is_read_where_it_is_written(path: str, lead: str) -> None:
    text = lead + SOURCES[path]
    parsed = parse_file(path, text)
    assert parsed is not None
    assert parsed.errors == 0
    calls = [(row[0], row[1]) for row in parsed.calls]
    assert calls, "the file has a call"
    for line, name in calls:
        assert _written(text, line, name), f"{name!r} is not called on line {line}"
    assert {name for _, name in calls} == {"helper"}
    # the same rows as the file without the blank lines, each on its line moved down
    plain = parse_file(path, SOURCES[path])
    assert plain is not None
    moved = lead.count("\n")
    assert [[row[0] - moved, *row[1:3]] for row in parsed.calls] == [row[:3] for row in plain.calls]
