"""Every `codeagent` example in the README, run as written against a repository made here, does
what the README says it does. Paths and URLs the README names (a system folder, a project
under ~, a GitHub URL) are pointed at the fixture; with no Ollama server the answers come
without an LLM, and CODEAGENT_EMBED=none keeps the embedding model out of the default suite."""

from __future__ import annotations

import json
import pyclbr
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from .clirun import run

README = Path(__file__).parents[2] / "README.md"

MESSAGE = """\
class Message:
    def get(self, name):
        return name


class EmailMessage(Message):
    def set_content(self, text):
        self.text = text
"""
CHARSET = """\
class Charset:
    def header_encode(self, string):
        \"\"\"Header-encode a string with non-ASCII characters as an RFC 2047 encoded word.\"\"\"
        return "=?utf-8?b?" + string + "?="
"""
MODELS = "def create_user(name):\n    return name\n\n\ndef delete_user(user):\n    pass\n"
SESSIONS = """\
class Session:
    def request(self, method, url):
        return self.send(method)

    def send(self, request):
        return resolve_redirects(request)

    def close(self):
        pass


def resolve_redirects(response):
    \"\"\"Follow redirects: handled by resolving each Location header.\"\"\"
    if should_strip_auth(response):
        response = None
    return response


def should_strip_auth(response):
    return False
"""
EXCEPTIONS = """\
class RequestException(IOError):
    pass


class HTTPError(RequestException):
    pass


class ConnectionError(RequestException):
    pass
"""
UTILS = """\
def parse_header(line):
    return line.split(";")


def content_type(headers):
    return parse_header(headers["content-type"])


def charset(headers):
    kind = parse_header(headers["content-type"])
    return kind[-1]
"""
ADAPTERS = """\
class BaseAdapter:
    def send(self, request):
        raise NotImplementedError


class HTTPAdapter(BaseAdapter):
    def send(self, request):
        return request
"""
RETRY = 'def with_retry(call, retries=3):\n    """The retry logic."""\n    return call()\n'
FIXTURE = {
    "message.py": MESSAGE,
    "charset.py": CHARSET,
    "src/app/models.py": MODELS,
    "requests/__init__.py": "",
    "requests/sessions.py": SESSIONS,
    "requests/utils.py": UTILS,
    "requests/exceptions.py": EXCEPTIONS,
    "requests/adapters.py": ADAPTERS,
    "retry.py": RETRY,
}


def readme_examples() -> list[str]:
    """The command lines in the README's console and sh blocks that run codeagent."""
    lines = []
    for block in re.findall(r"```(?:console|sh)\n(.*?)```", README.read_text(), re.S):
        for line in block.splitlines():
            line = line.removeprefix("$ ").strip()
            if line.startswith("codeagent"):
                lines.append(line)
    return lines


EXAMPLES = readme_examples()
SYNOPSES = [line for line in EXAMPLES if "[" in line]
# The "Serve" block starts a server, asks through it and stops it: tests/server/test_cli_client.py
# runs that sequence against a real server (and test_mcp.py the stdio MCP server).
SERVE_BLOCK = {"serve", "stop", "mcp"}
SERVED = [
    line for line in EXAMPLES if line.split()[1] in SERVE_BLOCK or "answered by the server" in line
]
RUNNABLE = [line for line in EXAMPLES
            if "[" not in line and " eval " not in line and line not in SERVED]  # fmt: skip


@pytest.fixture
def project(git_repo, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = git_repo(FIXTURE, name="project")
    monkeypatch.chdir(root)
    monkeypatch.setenv("CODEAGENT_EMBED", "none")
    return root


def argv(line: str, root: Path) -> list[str]:
    words = shlex.split(line, comments=True)[1:]
    swap = {
        "/usr/lib/python3.11/email": str(root),
        "~/src/project": str(root),
        "https://github.com/psf/requests": root.as_uri(),
    }
    return [swap.get(word, word) for word in words]


def test_the_readme_has_the_examples_this_test_knows() -> None:
    assert len(RUNNABLE) == 16, RUNNABLE
    assert len(SYNOPSES) == 4, SYNOPSES
    assert len(SERVED) == 4, SERVED


@pytest.mark.parametrize("line", RUNNABLE)
def test_a_readme_example_does_what_the_readme_says(line: str, project: Path) -> None:
    result = run(*argv(line, project), input="/exit\n")
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    out = result.out
    if shlex.split(line)[1] == "map":  # turned towards the retry question: retry.py first
        assert out.splitlines()[:2] == ["retry.py", "  def with_retry(call, retries=3)"]
        assert "of 2,048 tokens" in result.err
        return
    question = next((w for w in shlex.split(line)[1:] if " " in w), None)
    if question is None:  # the bare command: the interactive session
        assert out.startswith(f"codeagent: {project}")
        return
    if "--json" in line:  # "one JSON object"
        payload = json.loads(out)
        assert payload["question"] == question
        assert any(s["path"] == "charset.py" for s in payload["sources"])
        return
    if question.startswith("list the classes in message.py"):
        truth = pyclbr.readmodule_ex("message", path=[str(project)])
        for name, item in truth.items():
            assert f"message.py:{item.lineno}-" in out
            assert f"class {name}" in out
            for method, lineno in item.methods.items():  # with --long only, and each once
                listed = f"    message.py:{lineno}-" in out and f"def {method}(" in out
                assert listed == ("--long" in line), (method, out)
    elif question.startswith("list the functions"):  # "AST tool: exact"
        truth = pyclbr.readmodule_ex("models", path=[str(project / "src/app")])
        assert {n for n in truth} == set(re.findall(r"def (\w+)\(", out))
    elif question.startswith("methods of class Session"):  # "dotted module names work"
        truth = pyclbr.readmodule_ex("sessions", path=[str(project / "requests")])["Session"]
        for name, lineno in truth.methods.items():
            assert f"requests/sessions.py:{lineno}-" in out
            assert f"def {name}(" in out
    elif question.startswith("where is parse_header called"):
        calls = [n for n, text in enumerate(UTILS.splitlines(), 1) if "= parse_header(" in text
                 or "return parse_header(" in text]  # fmt: skip
        for lineno in calls:
            assert f"requests/utils.py:{lineno}" in out
    elif question.startswith("where is Session.request defined"):  # "symbol graph"
        truth = pyclbr.readmodule_ex("sessions", path=[str(project / "requests")])["Session"]
        assert f"requests/sessions.py:{truth.methods['request']}" in out
        assert "searching the repository" not in result.err
    elif question.startswith("subclasses of RequestException"):
        truth = pyclbr.readmodule_ex("exceptions", path=[str(project / "requests")])
        subclasses = {
            n
            for n, c in truth.items()
            if "RequestException" in {getattr(b, "name", b) for b in c.super}
        }
        assert subclasses == {"HTTPError", "ConnectionError"}
        for name in subclasses:
            assert name in out
            assert f"requests/exceptions.py:{truth[name].lineno}" in out
    elif question.startswith("who overrides BaseAdapter.send"):  # "in every subclass"
        truth = pyclbr.readmodule_ex("adapters", path=[str(project / "requests")])
        overriding = {
            n: c.methods["send"]
            for n, c in truth.items()
            if "send" in c.methods and "BaseAdapter" in {getattr(b, "name", b) for b in c.super}
        }
        assert overriding == {"HTTPAdapter": 7}
        for name, lineno in overriding.items():
            assert f"requests/adapters.py:{lineno}" in out
            assert f"{name}.send  [overrides BaseAdapter.send]" in out
    elif question.startswith("who calls should_strip_auth"):  # "by name"
        calls = [n for n, text in enumerate(SESSIONS.splitlines(), 1)
                 if "should_strip_auth(response)" in text and "def " not in text]  # fmt: skip
        assert calls
        for lineno in calls:
            assert f"requests/sessions.py:{lineno}" in out
    else:  # how / why questions: a search, said so, each source listed once
        assert "searching the repository" in result.err
        assert out.startswith("Most relevant code")
        if "redirects" in question:
            assert "requests/sessions.py:" in out
        if "retry" in question:
            assert "retry.py:" in out


@pytest.mark.parametrize("line", SYNOPSES)
def test_a_readme_synopsis_names_real_options(line: str) -> None:
    for part in line.removeprefix("codeagent ").split(" | "):
        words = part.split()
        command = words[0] if words[0] not in ("list", "prune", "clear") else "cache"
        sub = [command] if command != "cache" else ["cache", words[0]]
        if words[0] == "cache":
            sub, words = ["cache", words[1]], words[1:]
        helptext = run(*sub, "--help").out
        for option in re.findall(r"--[a-z-]+", part):
            assert option in helptext, (option, sub)


@pytest.mark.slow
def test_the_readme_stdlib_evaluation_runs(project: Path) -> None:
    (project / "eval").mkdir()
    shutil.copy(README.parent / "eval" / "stdlib.jsonl", project / "eval")
    line = next(line for line in EXAMPLES if "eval/stdlib.jsonl" in line)
    result = run(*argv(line, project))
    assert result.code == 0, result.err
    assert (project / "eval" / "out" / "report.json").is_file()
    assert sys.version_info >= (3, 11)
