"""A binding's text read back as an expression: the same nodes as the parser gives."""

from __future__ import annotations

import ast

import pytest

from codeagent.symbols.bindings import expression

TEXTS = [
    "Client",
    "mod.Client",
    "pkg.mod.Client()",
    "Console()",
    "x.get()",
    "self.make().run()",
    "None",
    "True.x",
    "a.None",
    "match",
    "Client(1)",
    "\ufb01le",  # the parser normalizes the name (NFKC): "file"
    "ﬁle()",
    "a..b",
    "()",
    "",
    "1x",
    "a.b(",
]


@pytest.mark.parametrize("text", TEXTS)
def test_expression_is_what_the_parser_reads(text: str) -> None:
    try:
        truth: str | None = ast.dump(ast.parse(text, mode="eval").body)
    except SyntaxError:
        truth = None
    found = expression(text)
    assert (ast.dump(found) if found is not None else None) == truth
