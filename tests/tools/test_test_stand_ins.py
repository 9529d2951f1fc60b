"""A test's stand-in class of the same name as the code's (``class Context`` in a test, to
record what the code under test calls) does not make "what methods does Context have?"
ambiguous: the code's class answers, the tests' stand-ins are left out when one class of the
code is left. The truth is pyclbr's reading of the code's module."""

from __future__ import annotations

import pyclbr
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

FILES = {
    "standin_shop/__init__.py": "",
    "standin_shop/context.py": (
        "class Context:\n"
        "    def get(self, key):\n"
        "        return key\n"
        "\n"
        "    def set(self, key, value):\n"
        "        return value\n"
        "\n"
        "    def json(self, data):\n"
        "        return data\n"
    ),
    "tests/test_handlers.py": (
        "class Context:\n"
        "    def json(self, data):\n"
        "        self.sent = data\n"
        "\n"
        "\n"
        "def test_handler():\n"
        "    assert Context().json(1) is None\n"
    ),
}


@pytest.fixture
def repo(git_repo: GitRepoFactory) -> Path:
    return git_repo(FILES)


def test_the_code_s_class_answers_not_the_test_s_stand_in(repo: Path, tmp_path: Path) -> None:
    # a package name no other test reads (pyclbr keeps what it read, by name), from the
    # repository only
    truth = pyclbr.readmodule_ex("standin_shop.context", path=[str(repo)])["Context"]
    assert isinstance(truth, pyclbr.Class)
    workspace = Workspace(repo, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = workspace.ask("what methods does Context have?")
    assert result.route.tool == "symbols", result.route
    cited = {(s.path, s.start_line) for s in result.sources}
    assert cited == {("standin_shop/context.py", m) for m in truth.methods.values()}
    # with only stand-ins of tests there is nothing else to prefer: they answer
    (repo / "standin_shop/context.py").unlink()
    fresh = Workspace(repo, Settings(home=tmp_path / "home2", llm="none", embed="none"))
    assert {s.path for s in fresh.ask("what methods does Context have?").sources} == {
        "tests/test_handlers.py"
    }
