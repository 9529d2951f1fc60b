"""The path by which `codeagent ask` reaches a running server is lean: a fresh interpreter
runs the console entry point against a real `codeagent serve` and loads the standard library
(its cheap part) and a few small modules of the project, nothing else. A structural test,
not a timing: docs/benchmarks.md has the times.

The command line is read without click on that path (codeagent.cli.remote); what it reads
is checked against what click itself reads from the same arguments."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codeagent.cli.main import COMMANDS
from codeagent.cli.remote import K_MAX, read_question

# Runs the entry point as the `codeagent` script does, then names every module it imported.
PROBE = """
import sys
before = set(sys.modules)
sys.argv = ["codeagent", *sys.argv[1:]]
from codeagent.cli.main import main
try:
    main()
finally:
    print("LOADED " + " ".join(sorted(set(sys.modules) - before)), file=sys.stderr)
"""
# The project's modules on that path: the entry point, the wire, and the printer (the same
# one an in-process answer goes through), with the package and its two imports.
LEAN = {
    "codeagent",
    "codeagent.errors",
    "codeagent.offline",
    "codeagent.paths",
    "codeagent.display",
    "codeagent.cli",
    "codeagent.cli.main",
    "codeagent.cli.remote",
    "codeagent.cli.render",
    "codeagent.cli.terminal",
    "codeagent.server",
    "codeagent.server.address",
    "codeagent.server.client",
    "codeagent.wire",
    # whether a question asks for signatures (the printer cuts lines unless it does): re only
    "codeagent.tools",
    "codeagent.tools.structural",
}
# Parts of the standard library that cost a fresh process 15-40 ms each, and are not needed.
COSTLY_STDLIB = {
    "typing",
    "pathlib",
    "dataclasses",
    "inspect",
    "http",
    "email",
    "logging",
    "asyncio",
    "subprocess",
}


def probe(*args: str, home: Path, cwd: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "CODEAGENT_HOME": str(home)},
        timeout=300,
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("LOADED"))
    return proc, set(line.split()[1:])


@pytest.mark.parametrize(
    "args",
    [
        ("ask", "list the classes in geo/shapes.py"),
        ("ask", "--json", "-k", "2", "--llm", "none", "list the classes in geo/shapes.py"),
        ("list the classes in geo/shapes.py",),  # the bare command, in the repository
        ("--repo", ".", "where", "is", "Square", "defined?", "--embed=none"),
    ],
    ids=["ask", "ask-options", "bare", "bare-words"],
)
def test_asking_a_running_server_loads_the_standard_library_and_a_few_small_modules(
    served_repo: Any, args: tuple[str, ...]
) -> None:
    served, root = served_repo
    proc, loaded = probe(*args, home=served.home, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "class Square" in proc.stdout or '"Square"' in proc.stdout  # the server answered
    tops = {name.split(".")[0] for name in loaded}
    assert tops - set(sys.stdlib_module_names) - {"codeagent"} == set(), sorted(loaded)
    assert tops & COSTLY_STDLIB == set()
    assert {name for name in loaded if name.split(".")[0] == "codeagent"} <= LEAN


def test_without_a_server_the_same_command_line_answers_in_process(git_repo: Any) -> None:
    """The probe sees what a process loads: with no server, click and the agent."""
    from server_helpers import FILES

    root = git_repo(FILES)
    home = Path(os.environ["CODEAGENT_HOME"])
    args = ("ask", "--llm", "none", "--embed", "none", "list the classes in geo/shapes.py")
    proc, loaded = probe(*args, home=home, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "class Square" in proc.stdout
    assert {"click", "codeagent.agent.graph"} <= loaded


def test_k_max_is_the_one_the_options_declare() -> None:
    from codeagent.bounds import K_MAX as DECLARED

    assert K_MAX == DECLARED


# Command lines read here, each checked against click's own reading of it.
READ = [
    ["ask", "how are squares made"],
    ["ask", "--repo", "/tmp/x", "how are squares made"],
    ["ask", "--repo=/tmp/x", "--llm", "none", "--embed", "local", "q?"],
    ["ask", "-k", "3", "--json", "q"],
    ["ask", "-k7", "--dense", "faiss", "-y", "q"],
    ["ask", "q", "--yes", "--llm=ollama:qwen"],
    ["how are squares made?"],
    ["--repo", "/tmp/x", "how", "are", "squares", "made"],
    ["--json", "where is Square defined", "-k", "100"],
]
# Left to click: its own options, values it refuses, forms it reads otherwise.
NOT_READ = [
    [],
    ["ask"],
    ["ask", "q", "--no-server"],
    ["ask", "q", "--wait"],
    ["ask", "q", "-k", "0"],
    ["ask", "q", "-k", f"{K_MAX + 1}"],
    ["ask", "q", "-k", "x"],
    ["ask", "q", "-k"],
    ["ask", "q", "--repo"],
    ["ask", "two", "questions"],
    ["ask", "--help"],
    ["ask", "q", "--", "-x"],
    ["-v", "ask", "q"],
    ["--version"],
    ["index"],
    ["aks", "how are squares made"],  # a typo of `ask`: click names it
    ["serve", "--repo", "."],
    ["ask", "  "],
]


@pytest.mark.parametrize("args", READ, ids=[" ".join(a) for a in READ])
def test_the_command_line_is_read_as_click_reads_it(args: list[str]) -> None:
    from codeagent.cli.ask import command as ask_command
    from codeagent.cli.default import command as default_command

    read = read_question(args, COMMANDS)
    assert read is not None
    question, options = read
    command, rest = (ask_command, args[1:]) if args[0] == "ask" else (default_command, args)
    params = command.make_context(command.name, list(rest)).params
    words = params["question"]
    assert question == (" ".join(words) if isinstance(words, tuple) else words)
    assert options["repo"] == (params["repo"] or ".")
    for name in ("llm", "embed", "dense", "k"):
        assert options.get(name) == params[name], name
    for name in ("as_json", "yes"):
        assert bool(options.get(name)) == params[name], name


@pytest.mark.parametrize("args", NOT_READ, ids=[" ".join(a) or "nothing" for a in NOT_READ])
def test_anything_else_is_left_to_click(args: list[str]) -> None:
    assert read_question(args, COMMANDS) is None


def test_a_bare_question_outside_a_git_repository_is_left_to_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bare command asks before it indexes a folder that is no repository: click does."""
    monkeypatch.chdir(tmp_path)
    assert read_question(["how are squares made?"], COMMANDS) is None
    assert read_question(["how are squares made?", "--yes"], COMMANDS) is not None
    (tmp_path / ".git").mkdir()
    assert read_question(["how are squares made?"], COMMANDS) is not None
