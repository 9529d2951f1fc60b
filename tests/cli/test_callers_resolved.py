""" "Who calls Client.send?" on a repository where `send` is a common name (the issue's case:
a client's method beside ASGI `send` callables and generators' `.send`): the calls tied to
the method come first and are counted apart from those matched by name only, in the answer
text, in `--json` and in the REPL's follow-up. Expected lines are read off FILES by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import GitRepoFactory

from .clirun import run

FILES = {
    "pkg/__init__.py": "",
    "pkg/client.py": (
        "class Client:\n"  # 1
        "    def send(self, request):\n"  # 2
        "        return request\n"  # 3
        "\n"  # 4
        "    def get(self, url):\n"  # 5
        "        return self.send(url)\n"  # 6: resolved (self)
        "\n"  # 7
        "\n"  # 8
        "def stream(client: Client):\n"  # 9
        "    return client.send('x')\n"  # 10: resolved (annotated parameter)
    ),
    "pkg/asgi.py": (
        "async def app(scope, receive, send):\n"  # 1
        "    await send({'type': 'http'})\n"  # 2: by name (a parameter)
        "\n"  # 3
        "\n"  # 4
        "def drive(gen):\n"  # 5
        "    gen.send(None)\n"  # 6: by name (nothing says what gen is)
    ),
    "pkg/mail.py": (
        "class Mailer:\n"  # 1
        "    def send(self, message):\n"  # 2
        "        return message\n"  # 3
        "\n"  # 4
        "\n"  # 5
        "def notify():\n"  # 6
        "    Mailer().send('hi')\n"  # 7: resolved to Mailer.send: not a call of Client.send
    ),
}
HEAD = (
    "Calls of `Client.send` in the repository: 2 resolved to `pkg.client.Client.send` "
    "(in 1 file); 2 other calls of `send` that could not be tied to a type "
    "(by name, listed after)"
)


@pytest.fixture
def repo(git_repo: GitRepoFactory) -> Path:
    return git_repo(FILES)


def ask(repo: Path, question: str, *extra: str) -> str:
    result = run("ask", question, "--repo", str(repo), "--llm", "none", "--embed", "none", *extra)
    assert result.code == 0, result.err
    return result.out


def test_resolved_calls_come_first_and_the_by_name_ones_are_counted(repo: Path) -> None:
    out = ask(repo, "who calls Client.send?")
    lines = out.splitlines()
    start = lines.index(HEAD)
    assert lines[start + 1].startswith("  pkg/client.py:6  return self.send(url)  in Client.get")
    assert lines[start + 2].startswith("  pkg/client.py:10  return client.send('x')  in stream")
    assert "[by name]" not in lines[start + 1] + lines[start + 2]
    assert lines[start + 3].startswith("  pkg/asgi.py:2  await send({'type': 'http'})  in app")
    assert lines[start + 3].endswith("[by name]")
    assert lines[start + 4].startswith("  pkg/asgi.py:6  gen.send(None)  in drive")
    assert "pkg/mail.py:7" not in out  # Mailer.send is another method
    assert "1 other call of `send` resolved to another definition" in out


def test_the_json_answer_has_a_field_per_reference(repo: Path) -> None:
    data = json.loads(ask(repo, "who calls Client.send?", "--json"))
    items = data["tool_result"]["items"]
    got = [(i["path"], i["start_line"], i["resolved"], i["caller"]) for i in items]
    assert got == [
        ("pkg/client.py", 6, True, "pkg.client.Client.get"),
        ("pkg/client.py", 10, True, "pkg.client.stream"),
        ("pkg/asgi.py", 2, False, "pkg.asgi.app"),
        ("pkg/asgi.py", 6, False, "pkg.asgi.drive"),
    ]
    assert {i["target"] for i in items if i["resolved"]} == {"pkg.client.Client.send"}


def test_the_repl_follow_up_answers_the_same(repo: Path) -> None:
    script = "where is Client.send defined?\nwho calls it?\n/exit\n"
    result = run("repl", "--repo", str(repo), "--llm", "none", "--embed", "none", input=script)
    assert result.code == 0, result.err
    assert HEAD in result.out.splitlines()


def test_a_common_name_alone_lists_every_resolved_call_first(repo: Path) -> None:
    out = ask(repo, "who calls send?")
    lines = [line for line in out.splitlines() if line.startswith("  pkg/")]
    resolved = [line for line in lines if not line.endswith("[by name]")]
    assert lines[: len(resolved)] == resolved  # every resolved call before any by-name one
    assert {line.split()[0] for line in resolved} == {
        "pkg/client.py:6",
        "pkg/client.py:10",
        "pkg/mail.py:7",
    }
    assert "2 other calls of `send` that could not be tied to a type" in out
