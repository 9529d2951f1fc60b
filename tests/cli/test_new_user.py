"""Small things a new user meets: a mistyped command, `ask` in a folder that is no git
repository (asked first, as the bare form does), and a question about a file that does not
exist (the AST tool's fallback says so in --json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import run, run_in_terminal

QUESTION = "how are redirects followed?"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("aks", "ask"), ("sak", "ask"), ("asks", "ask"), ("indx", "index"), ("docter", "doctor")],
)
def test_a_mistyped_command_before_a_question_is_an_error(
    typed: str, meant: str, tmp_path: Path
) -> None:
    result = run(typed, QUESTION, "--repo", str(tmp_path))
    assert result.code == 2
    assert result.err == f"error: no such command: {typed} (did you mean {meant}?)\n"
    assert result.out == ""


@pytest.mark.parametrize("first", ["what", "explain", "ask"])
def test_a_question_whose_first_word_is_no_near_command_is_asked(
    first: str, git_repo, shapes: str
) -> None:  # type: ignore[no-untyped-def]
    root = git_repo({"geo/shapes.py": shapes})
    args = [first, "is", "Circle?"] if first != "ask" else ["ask", "what is Circle?"]
    result = run(*args, "--repo", str(root), "--llm", "none", "--embed", "none")
    assert result.code == 0, result.err
    assert "geo/shapes.py" in result.out


@pytest.fixture
def plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "notes.py").write_text("def follow_redirects():\n    return 1\n")
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize("command", [["ask"], []], ids=["ask", "bare"])
def test_ask_in_a_folder_that_is_no_repository_asks_as_the_bare_form(
    command: list[str], plain: Path, env_setup: Path
) -> None:
    refused = run(*command, QUESTION, "--llm", "none", "--embed", "none")
    assert refused.code == 2
    assert not (env_setup / "cache").exists()  # nothing indexed
    assert refused.err.strip() == (
        f"error: {plain} is not a git repository; pass --repo PATH, or --yes to index it anyway"
    )
    agreed = run(*command, QUESTION, "--llm", "none", "--embed", "none", "--yes")
    assert agreed.code == 0, agreed.err
    assert "notes.py" in agreed.out
    named = run(*command, QUESTION, "--llm", "none", "--embed", "none", "--repo", ".")
    assert named.code == 0, named.err  # a folder named on purpose is not questioned


def test_ask_on_a_terminal_asks_before_indexing_a_plain_folder(plain: Path) -> None:
    code, output = run_in_terminal(
        "ask", QUESTION, "--llm", "none", "--embed", "none", cwd=plain, answers=("n\r",)
    )
    assert "is not a git repository. Index everything under it? [y/N]" in output
    assert code == 1
    assert "aborted" in output


def test_a_missing_file_is_the_ast_tools_fallback_in_json(git_repo, shapes: str) -> None:  # type: ignore[no-untyped-def]
    root = git_repo({"geo/shapes.py": shapes})
    result = run(
        "ask", "list the functions in geo/nothere.py", "--repo", str(root),
        "--llm", "none", "--embed", "none", "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["route"]["tool"] == "rag"
    assert data["fallback"] == {
        "from": "ast",
        "to": "rag",
        "reason": "geo/nothere.py does not exist in the repository",
    }
    # a file that exists: no fallback
    found = json.loads(
        run(
            "ask", "list the functions in geo/shapes.py", "--repo", str(root),
            "--llm", "none", "--embed", "none", "--json",
        ).out
    )  # fmt: skip
    assert found["fallback"] is None
    assert found["route"]["tool"] == "ast"


def test_repl_in_a_folder_that_is_no_repository_asks_as_the_bare_form(
    plain: Path, env_setup: Path
) -> None:
    refused = run("repl", "--llm", "none", "--embed", "none", input=f"{QUESTION}\n/exit\n")
    assert refused.code == 2
    assert not (env_setup / "cache").exists()  # nothing indexed
    assert refused.err.strip() == (
        f"error: {plain} is not a git repository; pass --repo PATH, or --yes to index it anyway"
    )
    agreed = run("repl", "--llm", "none", "--embed", "none", "--yes", input=f"{QUESTION}\n/exit\n")
    assert agreed.code == 0, agreed.err
    assert "notes.py" in agreed.out
    named = run("repl", "--llm", "none", "--embed", "none", "--repo", ".", input="/exit\n")
    assert named.code == 0, named.err  # a folder named on purpose is not questioned
    code, output = run_in_terminal(
        "repl", "--llm", "none", "--embed", "none", cwd=plain, answers=("n\r",)
    )
    assert "is not a git repository. Index everything under it? [y/N]" in output
    assert code == 1
    assert "aborted" in output


def test_a_missing_file_of_another_language_is_said_as_missing(git_repo) -> None:  # type: ignore[no-untyped-def]
    """Not "the question names no Python file": the Go file it names is not there."""
    root = git_repo({"geo/shapes.go": "package geo\n\nfunc Area() int { return 1 }\n"})
    result = run(
        "ask", "list the functions in geo/nothere.go", "--repo", str(root),
        "--llm", "none", "--embed", "none", "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert json.loads(result.out)["fallback"] == {
        "from": "ast",
        "to": "rag",
        "reason": "geo/nothere.go does not exist in the repository",
    }
    found = run(
        "ask", "list the functions in geo/shapes.go", "--repo", str(root),
        "--llm", "none", "--embed", "none", "--json",
    )  # fmt: skip
    assert json.loads(found.out)["fallback"] is None
