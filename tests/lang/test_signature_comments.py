"""A definition's signature (its text before its body, on one line) leaves out the comments
written inside it: TypeScript's ``// eslint-disable-next-line`` among a class's type
parameters, a ``/* unit */`` between a function's parameters. Outside a comment nothing
changes: a ``//`` inside a string stays.

The truth is the text the test writes: each case is put together from a definition's parts
with a comment between two of them, and the signature expected is those parts without the
comment, one space between words, as the source writes them otherwise.
"""

from __future__ import annotations

import pytest

from codeagent import lang
from codeagent.lang.extract import parse

pytestmark = pytest.mark.skipif(not lang.available(), reason="the language layer is needed")

# (path, name, the parts before the body, the body); a comment goes between parts i and i+1
CASES = [
    (
        "a.ts",
        "Context",
        ["class Context<", "E extends Env = any,", "P = string,", ">"],
        " {}\n",
    ),
    ("a.ts", "send", ["function send(", "to: string,", "body: string", "): void"], " {}\n"),
    ("a.js", "send", ["function send(", "to,", "body", ")"], " {}\n"),
    ("a.rs", "send", ["fn send(", "to: &str,", "body: &str", ") -> u8"], " {\n    1\n}\n"),
    ("A.java", "send", ["class A { int send(", "int to,", "int body", ")"], " { return 1; } }\n"),
    ("a.go", "send", ["func send(", "to string,", "body string", ") int"], " {\n\treturn 1\n}\n"),
    ("a.cpp", "send", ["int send(", "int to,", "int body", ")"], " {\n  return 1;\n}\n"),
    ("A.cs", "Send", ["class A { int Send(", "int to,", "int body", ")"], " { return 1; } }\n"),
]
COMMENTS = {
    ".ts": ["// eslint-disable-next-line", "/* unit */"],
    ".js": ["// note", "/* unit */"],
    ".rs": ["// note", "/* unit */"],
    ".java": ["// note", "/* unit */"],
    ".go": ["// note", "/* unit */"],
    ".cpp": ["// note", "/* unit */"],
    ".cs": ["// note", "/* unit */"],
}


def signature_of(path: str, text: str, name: str) -> str:
    spec = lang.spec_for(path)
    assert spec is not None
    rows = parse(spec, path, text).defs
    found = [row[5] for row in rows if row[0].rpartition(".")[2] == name]
    assert found, rows
    return found[0]


def expected(parts: list[str]) -> str:
    """The signature the parts make: the text up to the body, one space between words (a
    class's own row in Java and C# starts at the method: the class's part left out)."""
    first = parts[0].split("{ ")[-1]
    return " ".join(" ".join([first, *parts[1:]]).split())


@pytest.mark.parametrize(("path", "name", "parts", "body"), CASES)
@pytest.mark.parametrize("gap", [0, 1, 2])
@pytest.mark.parametrize("which", [0, 1])
def test_a_comment_inside_a_signature_is_left_out(
    path: str, name: str, parts: list[str], body: str, gap: int, which: int
) -> None:
    comment = COMMENTS["." + path.rpartition(".")[2]][which]
    lines = [*parts[: gap + 1], comment, *parts[gap + 1 :]]
    text = "\n".join(lines) + body
    without = "\n".join(parts) + body
    assert signature_of(path, without, name) == expected(parts)  # the parts as they are
    assert signature_of(path, text, name) == expected(parts)


def test_a_double_slash_in_a_string_stays() -> None:
    text = 'function get(url = "http://example.com/a"): void {}\n'
    assert signature_of("a.ts", text, "get") == 'function get(url = "http://example.com/a"): void'
