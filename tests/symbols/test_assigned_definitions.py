"""A function a script defines by assignment (``res.json = function json(obj) {…}``,
``View.prototype.lookup = function lookup(name) {…}``) is found by the name it is assigned
to. The truth is the repository written here: the line of each assignment is counted by
hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

FILES = {
    "lib/response.js": (
        "var res = module.exports = {}\n"  # 1
        "\n"  # 2
        "res.send = function send(body) {\n"  # 3
        "  return this.end(body)\n"
        "}\n"
        "\n"
        "res.json = function json(obj) {\n"  # 7
        "  return this.send(JSON.stringify(obj))\n"
        "}\n"
    ),
    "lib/request.js": (
        "var req = module.exports = {}\n"  # 1
        "\n"
        "req.json = function json() {\n"  # 3: another object's json
        "  return JSON.parse(this.body)\n"
        "}\n"
    ),
    "lib/view.js": (
        "function View(name) {\n"  # 1
        "  this.name = name\n"
        "}\n"
        "\n"
        "View.prototype.lookup = function lookup(name) {\n"  # 5
        "  return this.root + '/' + name\n"
        "}\n"
        "\n"
        "module.exports = View\n"
    ),
}


@pytest.fixture
def workspace(git_repo: GitRepoFactory, tmp_path: Path) -> Workspace:
    root = git_repo(FILES)
    return Workspace(root, Settings(home=tmp_path / "home", llm="none", embed="none"))


@pytest.mark.parametrize(
    ("question", "path", "line"),
    [
        ("where is res.json defined?", "lib/response.js", 7),
        ("where is req.json defined?", "lib/request.js", 3),  # not response's json
        ("where is res.send defined?", "lib/response.js", 3),
        ("where is View.lookup defined?", "lib/view.js", 5),  # through its prototype
        ("where is View.prototype.lookup defined?", "lib/view.js", 5),
    ],
)
def test_a_function_is_found_by_what_it_is_assigned_to(
    workspace: Workspace, question: str, path: str, line: int
) -> None:
    result = workspace.ask(question)
    assert result.route.tool == "symbols", result.answer
    assert result.fallback is None, result.answer
    assert [(s.path, s.start_line) for s in result.sources] == [(path, line)], result.answer


def test_a_name_assigned_nowhere_is_still_not_found(workspace: Workspace) -> None:
    result = workspace.ask("where is res.render defined?")
    assert result.fallback is not None, result.answer  # searched instead, and said why
    assert "nothing named res.render" in result.fallback.reason
