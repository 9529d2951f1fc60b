""" "Who calls c.send?": a user copies a call as the code writes it, its receiver a variable's
name. A name that is no type, module or imported name of the repository is read as the calls
of the method's name (each listed, resolved or by name), and the answer says so; it listed
none and counted the rest as "resolved to another definition". So is a function's name
(``client``, whose result is a ``Client``, imported by the package as requests imports its
``session()``). A module the code imports
(``json.dumps``) and a class (``Client.send``) keep their meaning. The truth is the text: the
lines that call ``.send(`` (found by a regular expression over the files, not by the graph)."""

from __future__ import annotations

import re

import pytest

from codeagent.config import Settings
from codeagent.workspace import Workspace

FILES = {
    "shop/__init__.py": "from shop.api import client\n",
    "shop/api.py": (
        "import json\n"
        "\n"
        "\n"
        "class Client:\n"
        "    def send(self, message):\n"
        "        return json.dumps(message)\n"
        "\n"
        "\n"
        "class Queue:\n"
        "    def send(self, item):\n"
        "        return item\n"
        "\n"
        "\n"
        "def client():\n"
        "    return Client()\n"
    ),
    "shop/app.py": (
        "from shop.api import Client, Queue\n"
        "\n"
        "\n"
        "def main(make):\n"
        "    c = Client()\n"
        "    c.send('a')\n"
        "    q = Queue()\n"
        "    q.send('b')\n"
        "    other = make()\n"
        "    other.send('c')\n"
        "    return c.send('d')\n"
    ),
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("shop")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    home = tmp_path_factory.mktemp("home")
    return Workspace(root, Settings(home=home, llm="none", embed="none"))


def calls_in_text(name: str) -> set[tuple[str, int]]:
    return {
        (path, n)
        for path, text in FILES.items()
        for n, line in enumerate(text.split("\n"), 1)
        if re.search(rf"\.{name}\(", line)
    }


def cited(workspace: Workspace, question: str) -> tuple[set[tuple[str, int]], str]:
    result = workspace.ask(question)
    assert result.route.tool == "symbols", result.route
    return {(s.path, s.start_line) for s in result.sources}, result.answer


@pytest.mark.parametrize(
    "question", ["who calls c.send?", "who calls other.send?", "who calls client.send?"]
)
def test_a_variable_s_name_reads_as_the_method_s_calls(workspace: Workspace, question: str) -> None:
    lines, answer = cited(workspace, question)
    assert lines == calls_in_text("send")  # every call of send, not none
    owner = question.split()[-1].split(".")[0]
    assert f"`{owner}` names no type or module of the repository" in answer


def test_a_class_and_an_imported_module_keep_their_meaning(workspace: Workspace) -> None:
    lines, answer = cited(workspace, "who calls Client.send?")
    # c = Client(): c's two; other.send by name after them (its type is not stated); not
    # q.send (a Queue's)
    assert lines == {("shop/app.py", 6), ("shop/app.py", 11), ("shop/app.py", 10)}
    assert "names no type" not in answer
    lines, answer = cited(workspace, "who calls json.dumps?")
    assert lines == {("shop/api.py", 6)}
    assert "names no type" not in answer
