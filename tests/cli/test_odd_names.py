"""A file name holding a newline cannot forge a line of an answer, whichever tool answers: the
symbol tool, the AST tool and search print a path the same way (``codeagent.display.location``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeagent.tools.ast_tool import run_ast_query

from .clirun import run

ODD = "new\nline.py"
# Lines 1-2 the function, 5 a decorator on `other` (5-7), 10 a call: counted by hand.
SOURCE = (
    "def backoff_line():\n    pass\n\n\n@staticmethod\ndef other():\n    pass\n\n\nbackoff_line()\n"
)
QUOTED = '"new\\nline.py"'


@pytest.fixture
def odd_repo(git_repo) -> Path:
    return git_repo({ODD: SOURCE, "plain.py": "import os\n"})


def ask(root: Path, question: str, *extra: str) -> str:
    result = run("ask", question, "--repo", str(root), "--llm", "none", "--embed", "none", *extra)
    assert result.code == 0, result.err
    return result.out


def no_forged_line(out: str) -> None:
    """No printed line starts with what followed the newline in the name."""
    assert not [line for line in out.splitlines() if line.startswith("line.py")], out


def test_a_symbol_answer_quotes_the_name(odd_repo: Path) -> None:
    question = "where is backoff_line defined?"
    data = json.loads(ask(odd_repo, question, "--json"))
    assert data["route"]["tool"] == "symbols"  # the symbol tool answered, not search
    assert {s["path"] for s in data["sources"]} == {ODD}  # --json stays exact
    out = ask(odd_repo, question)
    no_forged_line(out)
    assert f"`backoff_line` is defined at {QUOTED}:1-2" in out
    assert '"new\\nline.backoff_line"' in out  # its qualified name holds the path too


def test_the_callers_answer_quotes_the_name(odd_repo: Path) -> None:
    out = ask(odd_repo, "which functions call backoff_line?")
    no_forged_line(out)
    assert f"{QUOTED}:10" in out


@pytest.mark.parametrize(
    ("operation", "symbol", "wanted"),
    [
        ("functions", None, [f"in {QUOTED}:", f"{QUOTED}:1-2  def backoff_line()"]),
        ("outline", None, [f"Outline of {QUOTED}", f"{QUOTED}:1-2", f"{QUOTED}:5-7"]),
        ("decorators", None, [f"{QUOTED}:5  @staticmethod  on function other"]),
        ("calls", "backoff_line", [f"{QUOTED}:10  backoff_line()"]),
        ("definition", "backoff_line", [f"{QUOTED}:1-2  backoff_line"]),
    ],
)
def test_an_ast_answer_quotes_the_name(
    odd_repo: Path, operation: str, symbol: str | None, wanted: list[str]
) -> None:
    rendered = run_ast_query(odd_repo, ODD, operation, symbol).render()  # type: ignore[arg-type]
    no_forged_line(rendered)
    for text in wanted:
        assert text in rendered, rendered


def test_a_search_answer_quotes_the_name(odd_repo: Path) -> None:
    out = ask(odd_repo, "backoff line pass")
    no_forged_line(out)
    assert f"{QUOTED}:1-2" in out, out
