"""Follow-ups without an LLM, through the REPL on a real git repository: "it", "its" and
"that file" read as the symbol and file of the last exact answer (the symbol tool's as well
as the AST tool's); a follow-up that cannot be read so is declined in one line, not searched.

The truth is the repository below, read by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .clirun import run

CLIENT = """\
class Client:
    def send(self, request):
        return self.transport(request)

    def transport(self, request):
        return request


def build():
    return Client()
"""
API = """\
from pkg.client import Client


def get(url):
    return Client().send(url)


def post(url):
    client = Client()
    return client.send(url)
"""
README = "The client sends requests over a transport.\n"


@pytest.fixture
def repo(git_repo) -> Path:  # type: ignore[no-untyped-def]
    return Path(git_repo({"pkg/client.py": CLIENT, "pkg/api.py": API, "README.md": README}))


def repl(repo: Path, *lines: str) -> tuple[str, str]:
    script = "\n".join([*lines, "/exit"]) + "\n"
    result = run("repl", "--repo", str(repo), "--llm", "none", "--embed", "none", input=script)
    assert result.code == 0, result.err
    assert "Traceback" not in result.out + result.err
    return result.out, result.err


def test_it_and_that_file_follow_the_symbol_answer(repo: Path) -> None:
    out, err = repl(
        repo,
        "where is Client.send defined?",
        "who calls it?",
        "show its definition",
        "list the functions in that file",
    )
    read_as = re.findall(r"^read as: (.*)$", err, re.M)
    assert read_as == [
        "who calls Client.send",  # the whole repository: no file added
        "show the definition of Client.send",
        "list the functions in pkg/client.py",  # "that file": where Client.send is defined
    ]
    assert "pkg/api.py:5" in out  # Client().send(url) in get
    assert "pkg/api.py:10" in out  # client.send(url) in post
    assert "pkg/client.py:2-3" in out
    assert re.search(r"^pkg/client\.py:9-10\s+def build\(\)$", out, re.M)  # its one function


def test_a_follow_up_that_cannot_be_resolved_is_declined_not_searched(repo: Path) -> None:
    out, err = repl(repo, "how does the client reach the transport?", "who calls it?")
    # the first question is a search (no symbol, no file): "it" has nothing to stand for
    declined = [line for line in err.splitlines() if "need an LLM" in line]
    assert declined == [
        "not answered: follow-ups like this need an LLM (--llm ollama:MODEL); without one,"
        " name the file or the symbol in the question"
    ]
    first = run("ask", "how does the client reach the transport?", "--repo", str(repo),
                "--llm", "none", "--embed", "none")  # fmt: skip
    assert out.count("\n") == first.out.count("\n") + 1  # + the greeting: nothing else shown


def test_the_first_question_is_never_declined(repo: Path) -> None:
    out, err = repl(repo, "what calls it when a request is sent?")
    assert "need an LLM" not in err
    assert "pkg/" in out  # searched


def test_a_base_class_reference_is_declined_after_an_exact_answer(repo: Path) -> None:
    out, err = repl(repo, "where is Client.send defined?", "what about the ones in its base class?")
    assert "not answered: follow-ups like this need an LLM" in err
    assert out.count("pkg/client.py:2-3") == 2  # the first answer only (header and item)


def test_callers_after_an_ast_answer_search_the_whole_repository(repo: Path) -> None:
    out, err = repl(repo, "show the definition of Client in pkg/client.py", "who calls it?")
    assert "read as: who calls Client" in err.splitlines()
    assert "pkg/api.py:1" not in out  # an import is not a call
    assert "pkg/api.py:5" in out  # Client() in get, outside the file named before
    assert "pkg/api.py:9" in out  # Client() in post
