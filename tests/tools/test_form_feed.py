"""Lines shown with their numbers are the lines Python counts: a form feed (``\\f``, common in
older code such as the standard library's ``email/header.py``) ends no line, although
``str.splitlines()`` ends one there. Truth by hand, checked against ``ast``."""

from __future__ import annotations

import ast
import re

from codeagent.config import Settings
from codeagent.workspace import Workspace

SOURCE = (
    "def helper(x):\n    return x\n\f\n\n"  # 1-4
    "def target(y):\n"  # 5
    '    """Uses helper."""\n'  # 6
    "    z = 1\n"  # 7
    "\f\n"  # 8
    "    return helper(y + z)\n"  # 9
)


def numbered(text: str) -> dict[int, str]:
    """``{n: text}`` of the answer's ``n | text`` lines."""
    return {int(m[1]): m[2] for m in re.finditer(r"^\s*(\d+) \| ?(.*)$", text, re.M)}


def test_the_lines_as_python_counts_them() -> None:
    calls = [n for n in ast.walk(ast.parse(SOURCE)) if isinstance(n, ast.Call)]
    assert [c.lineno for c in calls] == [9]
    assert len(SOURCE.splitlines()) == 11  # what the bug counted: two lines too many


def test_call_sites_definitions_and_search_show_the_right_lines(git_repo) -> None:  # type: ignore[no-untyped-def]
    root = git_repo({"m.py": SOURCE})
    ws = Workspace.open(root, Settings.load(llm="none", embed="none"))
    callers = ws.ask("who calls helper").answer
    assert "m.py:9  return helper(y + z)  in target" in callers
    for question in ("show the definition of target in m.py", "where is target defined?"):
        lines = numbered(ws.ask(question).answer)
        assert lines[5] == "def target(y):", question
        assert lines[9] == "    return helper(y + z)", question
        assert max(lines) == 9, question
    found = numbered(ws.ask("how does target use the helper?").answer)
    assert found.get(9, "").strip() == "return helper(y + z)"
