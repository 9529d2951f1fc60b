"""`codeagent repl`: a scripted session through stdin, commands, Ctrl-C and EOF."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codeagent.cli.repl import Repl
from codeagent.config import Settings
from codeagent.workspace import Workspace

FILES = {
    "geo/__init__.py": "",
    "geo/shapes.py": (
        "import math\n\n\nclass Circle:\n    def __init__(self, r):\n        self.r = r\n\n"
        "    def area(self):\n        return math.pi * self.r ** 2\n"
    ),
    "geo/render.py": "def draw(shape):\n    print('drawing', shape.area())\n",
}


@pytest.fixture
def repo(git_repo) -> Path:
    return git_repo(FILES, name="geo_repo")


def run_repl(repo: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codeagent", *args, "--repo", str(repo), "--llm", "none",
         "--embed", "none"],
        input=script, capture_output=True, text=True, env=os.environ.copy(), timeout=120,
        check=False,
    )  # fmt: skip


def test_a_scripted_session(repo: Path) -> None:
    script = "\n".join(
        [
            "list the classes in geo/shapes.py",
            "/route",
            "/sources",
            "how is drawing done?",
            "/route",
            "/clear",
            "/reindex",
            "/bogus",
            "/help",
            "/exit",
            "list the functions in geo/render.py",  # never read: /exit came first
        ]
    )
    proc = run_repl(repo, script + "\n", "repl")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "geo/shapes.py:4-9  class Circle" in out
    assert "tool: ast, file: geo/shapes.py, operation: classes, decided by: rules" in out
    assert "tool: rag, decided by: rules" in out
    assert "conversation cleared" in out
    assert re.search(r"reindexed: [23] files, \d+ chunks", out)
    assert "unknown command /bogus" in out
    assert "/reindex" in out  # the help
    assert "geo/render.py:1" in out
    assert "Top-level functions in geo/render.py" not in out
    # /sources lists locations that really exist
    sources_block = out.split("decided by: rules", 1)[1]
    listed = re.findall(r"^(geo/\w+\.py):(\d+)-(\d+)$", sources_block, re.M)
    assert listed, sources_block
    for path, start, end in listed:
        lines = (repo / path).read_text().splitlines()
        assert 1 <= int(start) <= int(end) <= len(lines)
    # --llm none was asked for: never remarked on; the search says why it searched
    assert "without an LLM" not in proc.stderr
    assert proc.stderr.count("searching the repository (a how/why question)") == 1


def test_eof_ends_the_session_cleanly_and_bare_codeagent_starts_it(repo: Path) -> None:
    env = {**os.environ, "CODEAGENT_LLM": "none", "CODEAGENT_EMBED": "none"}
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent"],  # no command: the REPL, on the current folder
        input="outline of geo/shapes.py\n",  # no /exit: stdin simply ends
        capture_output=True, text=True, env=env, cwd=repo, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Circle.area" in proc.stdout or "def area" in proc.stdout


class CancellingWorkspace:
    """The first question is interrupted by Ctrl-C mid-answer; later ones are answered."""

    repo_root = Path("/repo")

    def __init__(self) -> None:
        self.calls = 0

    def ask_stream(self, question: str, conversation: Any = None) -> Any:
        from codeagent.events import ResultEvent, TokenEvent
        from codeagent.result import AskResult
        from codeagent.route import RouteDecision

        self.calls += 1
        yield TokenEvent(text="partial")
        if self.calls == 1:
            raise KeyboardInterrupt
        route = RouteDecision(tool="rag")
        yield ResultEvent(result=AskResult(question=question, route=route, answer="fine"))


def test_ctrl_c_cancels_the_answer_not_the_session() -> None:
    out: list[str] = []
    session = CancellingWorkspace()
    Repl(session, stdin=io.StringIO("first\nsecond\n"), out=out.append).run()
    text = "".join(out)
    assert "cancelled" in text
    assert session.calls == 2
    assert text.index("cancelled") < text.index("\n", text.index("cancelled"))


def test_follow_ups_see_the_last_turns_capped(repo: Path, tmp_path: Path) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from pydantic import Field

    class Recording(GenericFakeChatModel):
        seen: list[Any] = Field(default_factory=list)

        def _generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            self.seen.append(messages)
            return super()._generate(messages, *args, **kwargs)

    model = Recording(messages=iter([f"answer {i}" for i in range(3)]))
    settings = Settings(home=tmp_path / "h", embed="none", history_turns=1)
    session = Workspace(repo, settings, chat_model=model)
    questions = "".join(f"how is drawing done, take {i}?\n" for i in range(3))
    out: list[str] = []
    Repl(session, stdin=io.StringIO(questions), out=out.append).run()
    last = model.seen[-1]
    assert [m.type for m in last] == ["system", "human", "ai", "human"]
    assert last[1].content == "how is drawing done, take 1?"
    assert last[2].content == "answer 1"
    assert "answer 2" in "".join(out)


def test_bare_commands_in_a_terminal(repo: Path) -> None:
    # Typed at the prompt of a real terminal (prompt_toolkit reads it): `clear`, `help` and
    # `exit` without the slash do what they say; none is searched for in the repository.
    from .clirun import run_in_terminal

    typed = ("list the classes in geo/shapes.py\r", "clear\r", "Help\r", "exit\r")
    flags = ("--repo", str(repo), "--llm", "none", "--embed", "none")
    code, out = run_in_terminal("repl", *flags, answers=typed, timeout=90)
    assert code == 0, out
    assert "geo/shapes.py:4-9  class Circle" in out
    assert "conversation cleared" in out
    assert "/reindex" in out  # the help
    assert "searching the repository" not in out
    assert "Most relevant code" not in out


def test_with_signatures_after_a_listing_asks_for_it_in_full(repo: Path) -> None:
    script = "list the classes in geo/shapes.py\nwith signatures\n"
    proc = run_repl(repo, script, "repl")
    assert proc.returncode == 0, proc.stderr
    first, again = proc.stdout.split("Top-level classes in geo/shapes.py")[1:]
    assert "class Circle (2 methods)" in first
    assert "def area(self)" not in first
    # the source written above: __init__ on line 5, area on line 8
    assert "geo/shapes.py:5-6  def __init__(self, r)" in again
    assert "geo/shapes.py:8-9  def area(self)" in again
    assert "read as: list the classes in geo/shapes.py with signatures" in proc.stderr
