"""`codeagent ask` through a running server: the same output as in-process, nothing heavy
imported; `--no-server`; a stale address file; `serve --background` and `stop`.

The client always runs as its own process (what it imports is part of what is tested). The
in-process answer it is compared with runs the same entry point in this test process
(`in_here`): a fresh process for it would only import the agent again; that `--no-server` and
a server that cannot answer mean a fresh process answers alone is tested on its own, in
processes of their own."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.clirun import Run, run
from codeagent.cli.render import NO_LLM_AUTO
from server_helpers import FILES, state_of

HEAVY = {
    "langgraph",
    "langchain_core",
    "langchain_ollama",
    "torch",
    "faiss",
    "numpy",
    "bm25s",
    "sentence_transformers",
    "pydantic_settings",
    "starlette",
    "uvicorn",
    "mcp",
    "httpx",
    "git",
    # Needed only to draw (rich), to load settings (pydantic) or to log in-process (logging).
    "rich",
    "pydantic",
    "logging",
}
# The modules of the other commands, and of settings and logging: not on the client's path.
NOT_ON_CLIENT_PATH = {
    "codeagent.config",
    "codeagent.cli.logs",
    "codeagent.cli.default",
    "codeagent.cli.repl",
    "codeagent.cli.index",
    "codeagent.cli.cache",
    "codeagent.cli.doctor",
    "codeagent.cli.eval_cmd",
    "codeagent.cli.eval_dev",
    "codeagent.cli.serve",
}
# Runs the CLI, then reports on stderr which heavy modules (and which agent modules) it loaded.
WRAPPER = """
import sys
from codeagent.cli.main import main
sys.argv = ["codeagent", *sys.argv[1:]]
try:
    main()
finally:
    heavy = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv_heavy))
    agent = sorted(m for m in sys.modules if m.startswith(("codeagent.agent", "codeagent.index")))
    other = sorted(set(sys.modules) & set(sys.argv_other))
    print("LOADED " + " ".join(heavy + agent + other), file=sys.stderr)
"""


def run_cli(*args: str, home: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    code = f"import sys; sys.argv_heavy = {sorted(HEAVY)!r}\n"
    code += f"sys.argv_other = {sorted(NOT_ON_CLIENT_PATH)!r}\n" + WRAPPER
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "CODEAGENT_HOME": str(home)},
        timeout=300,
    )


def in_here(
    monkeypatch: pytest.MonkeyPatch, *args: str, home: Path, cwd: Path | None = None
) -> Run:
    """``codeagent ARGS`` through the real entry point in this process, with ``home`` and
    ``cwd`` as a process started by `run_cli` would have them."""
    with monkeypatch.context() as patched:
        patched.setenv("CODEAGENT_HOME", str(home))
        if cwd is not None:
            patched.chdir(cwd)
        return run(*args)


def said(proc: subprocess.CompletedProcess[str] | Run) -> list[str]:
    err = proc.stderr if isinstance(proc, subprocess.CompletedProcess) else proc.err
    return [line for line in err.splitlines() if not line.startswith("LOADED")]


def loaded(proc: subprocess.CompletedProcess[str]) -> list[str]:
    line = next(x for x in proc.stderr.splitlines() if x.startswith("LOADED"))
    return line.split()[1:]


@pytest.mark.parametrize(
    "question", ["list the methods of Square in geo/shapes.py", "where is the area computed?"]
)
def test_ask_through_the_server_prints_what_in_process_prints(
    served_repo: Any, question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, root = served_repo
    via_server = run_cli("ask", question, home=served.home, cwd=root)
    assert via_server.returncode == 0, via_server.stderr
    assert loaded(via_server) == []  # neither heavy libraries nor the agent: the server answered
    flags = ("--no-server", "--llm", "none", "--embed", "none")
    in_process = in_here(monkeypatch, "ask", *flags, question, home=served.home, cwd=root)
    assert in_process.code == 0, in_process.err
    assert via_server.stdout == in_process.out
    assert said(via_server) == said(in_process)  # the notices on stderr, e.g. the route line
    # Without an LLM the answer lists each source once, in its text (no "Sources:" block).
    assert "geo/shapes.py:" in via_server.stdout
    assert "Sources:" not in via_server.stdout


def test_ask_json_through_the_server(served_repo: Any) -> None:
    served, root = served_repo
    question = "list the classes in geo/shapes.py"
    proc = run_cli("ask", "--json", "--repo", str(root), question, home=served.home)
    assert proc.returncode == 0, proc.stderr
    assert loaded(proc) == []
    data = json.loads(proc.stdout)
    assert data["route"]["tool"] == "ast"
    assert [s["path"] for s in data["sources"]] == ["geo/shapes.py", "geo/shapes.py"]


def test_ask_json_names_the_same_state_in_process_and_through_the_server(
    served_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, root = served_repo
    question = "where is unit_square defined?"
    via_server = run_cli("ask", "--json", "--repo", str(root), question, home=served.home)
    assert via_server.returncode == 0, via_server.stderr
    assert loaded(via_server) == []
    flags = ("--no-server", "--llm", "none", "--embed", "none", "--repo", str(root))
    in_process = in_here(monkeypatch, "ask", "--json", *flags, question, home=served.home)
    assert in_process.code == 0, in_process.err
    state = json.loads(via_server.stdout)["state"]
    assert state == json.loads(in_process.out)["state"] == state_of(root)


def test_k_goes_to_the_server_as_a_field_of_the_question(
    served_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-k` is sent with the question: the server answers it, as in-process answers it."""
    served, root = served_repo
    question = ("-k", "1", "--llm", "none", "--embed", "none", "how are squares made")
    via_server = run_cli("ask", *question, home=served.home, cwd=root)
    assert via_server.returncode == 0, via_server.stderr
    assert loaded(via_server) == []  # the server answered
    in_process = in_here(monkeypatch, "ask", "--no-server", *question, home=served.home, cwd=root)
    assert in_process.code == 0, in_process.err
    assert via_server.stdout == in_process.out
    assert said(via_server) == said(in_process)
    wide = run_cli("ask", "--json", *question[2:], home=served.home, cwd=root)
    narrow = run_cli("ask", "--json", *question, home=served.home, cwd=root)
    assert loaded(wide) == loaded(narrow) == []
    assert len(json.loads(narrow.stdout)["sources"]) == 1
    assert len(json.loads(wide.stdout)["sources"]) > 1
    # and `ask --help` says what was just seen: -k does not keep a question from the server
    helped = run_cli("ask", "--help", home=served.home)
    text = " ".join(helped.stdout.split())
    assert "any -k goes with the question" in text, text
    assert "same --llm, --embed and -k" not in text


def test_no_server_answers_in_this_process_while_a_server_runs(served_repo: Any) -> None:
    served, root = served_repo
    flags = ("--no-server", "--llm", "none", "--embed", "none")
    proc = run_cli("ask", *flags, "list the classes in geo/shapes.py", home=served.home, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "geo/shapes.py:9-14  class Square" in proc.stdout
    assert "codeagent.agent.graph" in loaded(proc)


def test_a_setting_the_server_does_not_run_means_in_process(served_repo: Any) -> None:
    served, root = served_repo
    proc = run_cli(
        "ask",
        "--llm",
        "none",
        "--embed",
        "hash:64",
        "where is the area computed?",
        home=served.home,
        cwd=root,
    )
    assert proc.returncode == 0, proc.stderr
    assert "codeagent.agent.graph" in loaded(proc)


def test_flags_equal_to_what_auto_resolved_to_go_to_the_server(
    git_repo: Any, serve_process: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server started with `--llm auto` where no model answers runs without an LLM:
    `ask --llm none` asks for exactly that, so the server answers it."""
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root), "--llm", "auto")  # no Ollama answers here
    question = ("--llm", "none", "--embed", "none", "where is the area computed?")
    via_server = run_cli("ask", *question, home=served.home, cwd=root)
    assert via_server.returncode == 0, via_server.stderr
    assert loaded(via_server) == []
    in_process = in_here(monkeypatch, "ask", "--no-server", *question, home=served.home, cwd=root)
    assert in_process.code == 0, in_process.err
    assert via_server.stdout == in_process.out


def test_repository_the_server_does_not_serve_is_answered_in_process(
    served_repo: Any, git_repo: Any
) -> None:
    served, _root = served_repo
    other = git_repo({"pkg/a.py": "class Alpha:\n    pass\n"})
    proc = run_cli(
        "ask",
        "--llm",
        "none",
        "--embed",
        "none",
        "list the classes in pkg/a.py",
        home=served.home,
        cwd=other,
    )
    assert proc.returncode == 0, proc.stderr
    assert "pkg/a.py:1-2  class Alpha" in proc.stdout
    assert "codeagent.agent.graph" in loaded(proc)


def test_question_the_server_refuses_as_too_long_is_answered_in_process(
    served_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server refuses a question over max_question_chars (413); `codeagent ask` then
    answers in-process, where an over-long question is cut with a notice, as --no-server."""
    served, root = served_repo
    question = "list the classes in geo/shapes.py " + "please " * 700  # 4,934 characters
    flags = ("--llm", "none", "--embed", "none")  # the server's: it is asked first
    proc = run_cli("ask", *flags, question, home=served.home, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "codeagent.agent.graph" in loaded(proc)
    assert "question cut to its first 4000 of 4933 characters" in proc.stderr
    alone = in_here(monkeypatch, "ask", "--no-server", *flags, question, home=served.home, cwd=root)
    assert (proc.stdout, said(proc)) == (alone.out, said(alone))


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("kind", ["dead pid", "refused port"])
def test_stale_address_file_is_ignored(git_repo: Any, env_setup: Path, kind: str) -> None:
    root = git_repo(FILES)
    pid = dead_pid() if kind == "dead pid" else os.getpid()
    (env_setup / "server.json").write_text(
        json.dumps({"pid": pid, "host": "127.0.0.1", "port": free_port()})
    )
    proc = run_cli(
        "ask",
        "--llm",
        "none",
        "--embed",
        "none",
        "list the classes in geo/shapes.py",
        home=env_setup,
        cwd=root,
    )
    assert proc.returncode == 0, proc.stderr
    assert "geo/shapes.py:4-6  class Shape" in proc.stdout
    assert "codeagent.agent.graph" in loaded(proc)


def test_stop_with_a_stale_address_file(env_setup: Path) -> None:
    (env_setup / "server.json").write_text(
        json.dumps({"pid": dead_pid(), "host": "127.0.0.1", "port": free_port()})
    )
    proc = run_cli("stop", home=env_setup)
    assert proc.returncode == 1
    assert "error: no server is running" in proc.stderr
    assert not (env_setup / "server.json").exists()


def test_serve_background_then_stop(git_repo: Any, env_setup: Path) -> None:
    root = git_repo(FILES)
    started = run_cli(
        "serve",
        "--background",
        "--port",
        "0",
        "--repo",
        str(root),
        "--llm",
        "none",
        "--embed",
        "none",
        home=env_setup,
    )
    assert started.returncode == 0, started.stderr
    assert "server started: http://127.0.0.1:" in started.stdout
    assert "token=" not in started.stdout  # loopback, no --require-token: no token needed
    address = json.loads((env_setup / "server.json").read_text())
    # The log holds the start line, which carries the token when one is needed.
    assert stat.S_IMODE((env_setup / "server.log").stat().st_mode) == 0o600
    asked = run_cli("ask", "list the classes in geo/shapes.py", home=env_setup, cwd=root)
    assert "geo/shapes.py:9-14  class Square" in asked.stdout
    assert loaded(asked) == []
    stopped = run_cli("stop", home=env_setup)
    assert stopped.returncode == 0, stopped.stderr
    assert f"stopped the server (pid {address['pid']})" in stopped.stdout
    assert not (env_setup / "server.json").exists()


def test_serve_background_with_a_required_token_prints_the_address_with_it(
    git_repo: Any, env_setup: Path
) -> None:
    root = git_repo(FILES)
    flags = ("--port", "0", "--repo", str(root), "--llm", "none", "--embed", "none")
    started = run_cli("serve", "--background", "--require-token", *flags, home=env_setup)
    try:
        assert started.returncode == 0, started.stderr
        token = (env_setup / "server.token").read_text().strip()
        url = re.search(r"server started: (\S+)", started.stdout)
        assert url is not None, started.stdout
        assert url[1].endswith(f"/?token={token}")  # the page's address, as the log has it
        log = (env_setup / "server.log").read_text()
        assert url[1] in log
    finally:
        assert run_cli("stop", home=env_setup).returncode == 0


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_no_llm_found_is_said_through_the_server_as_in_process(
    git_repo: Any, serve_process: Any, as_json: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root), "--llm", "auto")  # no Ollama answers here
    question = ["ask", "where is the area computed?", *(["--json"] if as_json else [])]
    via_server = run_cli(*question, home=served.home, cwd=root)
    assert via_server.returncode == 0, via_server.stderr
    assert loaded(via_server) == []  # the server answered
    flags = ("--no-server", "--llm", "auto", "--embed", "none")
    in_process = in_here(monkeypatch, *question, *flags, home=served.home, cwd=root)
    assert in_process.code == 0, in_process.err
    assert said(in_process)[-1] == NO_LLM_AUTO  # said once, last
    assert said(via_server) == said(in_process)


def test_an_explicit_llm_none_is_never_remarked_on_through_the_server(
    git_repo: Any, serve_process: Any
) -> None:
    # The server runs `--llm auto` and found none: `--llm none` asks for what it runs, so
    # the server answers, and, as in-process, without a word about the missing model.
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root), "--llm", "auto")
    asked = run_cli("ask", "where is the area computed?", "--llm", "none", home=served.home,
                    cwd=root)  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    assert loaded(asked) == []  # the server answered
    assert NO_LLM_AUTO not in said(asked)
    assert not [line for line in said(asked) if "LLM" in line]


GOLDEN_QUESTIONS = [
    "list the classes in geo/shapes.py",  # exact: one file's syntax tree
    "where is unit_square defined?",  # exact: the symbol graph
    "how are squares made",  # search, with the route's line
    "list the methods of Circle in geo/shapes.py",  # the AST tool fails: a fallback
    "who calls nobody_calls_this",  # the symbol tool fails: a fallback
    "list the classes in geo/nothere.py",  # a named file that is not there
]


GOLDEN_FALLBACKS = set(GOLDEN_QUESTIONS[3:])


@pytest.mark.parametrize("question", GOLDEN_QUESTIONS)
def test_golden_the_server_prints_exactly_what_in_process_prints(
    served_repo: Any, question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same question through a real `codeagent serve` and in this process: the same
    stdout, the same stderr, line for line; a fallback is said in one line."""
    served, root = served_repo
    via_server = run_cli("ask", question, home=served.home, cwd=root)
    assert via_server.returncode == 0, via_server.stderr
    assert loaded(via_server) == []  # the server answered
    flags = ("--no-server", "--llm", "none", "--embed", "none")
    in_process = in_here(monkeypatch, "ask", *flags, question, home=served.home, cwd=root)
    assert in_process.code == 0, in_process.err
    assert via_server.stdout == in_process.out
    assert said(via_server) == said(in_process)
    failed = [line for line in said(in_process) if "could not answer" in line]
    data = json.loads(run_cli("ask", "--json", question, home=served.home, cwd=root).stdout)
    assert (data["fallback"] is not None) == (question in GOLDEN_FALLBACKS)
    if data["fallback"] is None:
        assert failed == []
    else:  # one line names the tool that failed and why; nothing else repeats the reason
        tool, reason = data["fallback"]["from"], data["fallback"]["reason"]
        assert failed == [f"searching the repository instead: the {tool.upper()} tool could"
                          f" not answer ({reason})"]  # fmt: skip
        assert sum(reason in line for line in said(in_process)) == 1
