"""``codeagent.display``: what repository text may and may not do on a terminal.

The expected strings are written out by hand: a control character (C0 but tab and newline,
DEL, C1) or a bidirectional override becomes a visible ``\\xNN`` / ``\\uNNNN`` escape; a CRLF
line end is a newline; nothing else changes.
"""

from __future__ import annotations

import pytest

from codeagent.display import location, plural, safe_name, safe_text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\rb", "a\\x0db"),  # a lone carriage return would let b overwrite a
        ("line\r", "line\\x0d"),
        ("a\r\nb", "a\nb"),  # a CRLF line end is a line end
        ("a\r\r\nb", "a\\x0d\nb"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("\x7f\x9b\x85", "\\x7f\\x9b\\x85"),
        ("abc\u202edef", "abc\\u202edef"),
        ("\u2066x\u2069", "\\u2066x\\u2069"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("déjà vu ✓ 😀", "déjà vu ✓ 😀"),
    ],
)
def test_safe_text(text: str, shown: str) -> None:
    assert safe_text(text) == shown


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("src/app.py", "src/app.py"),
        ("new\nline.py", '"new\\nline.py"'),
        ("cr\rname.py", '"cr\\rname.py"'),
        ("tab\tname.py", '"tab\\tname.py"'),
        ('odd"\x1bname', '"odd\\"\\x1bname"'),
        ('quote"only.py', 'quote"only.py'),  # plain enough: nothing that acts on a terminal
    ],
)
def test_safe_name(name: str, shown: str) -> None:
    assert safe_name(name) == shown


def test_location_quotes_an_odd_path() -> None:
    assert location("a.py", 3) == "a.py:3"
    assert location("a.py", 3, 9) == "a.py:3-9"
    assert location("x\ny.py", 1, 2) == '"x\\ny.py":1-2'


def test_an_answers_lone_carriage_return_is_shown_not_obeyed() -> None:
    """A model's answer that repeats a lone ``\\r`` (file text reaches the terminal this way:
    the chunker reads a lone ``\\r`` in a file as a line break, as Python's tokenizer does)
    is printed as ``\\x0d``: the text after it cannot overwrite the line."""
    from codeagent.cli.render import AnswerPrinter

    out: list[str] = []
    printer = AnswerPrinter(llm=True, out=out.append, notice=out.append, terminal=False)
    printer.token("password = 'x'\rnothing to see here\n")
    assert out == ["password = 'x'\\x0dnothing to see here\n"]


@pytest.mark.parametrize(
    ("n", "word", "many", "shown"),
    [
        (1, "chunk", None, "1 chunk"),
        (0, "chunk", None, "0 chunks"),
        (2, "chunk", None, "2 chunks"),
        (1234567, "file", None, "1,234,567 files"),
        (1, "entry", "entries", "1 entry"),
        (3, "entry", "entries", "3 entries"),
    ],
)
def test_plural(n: int, word: str, many: str | None, shown: str) -> None:
    """English counts written out by hand: one is singular, zero and many plural, thousands
    grouped with commas, an irregular plural given as ``many``."""
    assert plural(n, word, many) == shown
