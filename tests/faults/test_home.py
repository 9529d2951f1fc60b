"""CODEAGENT_HOME: empty means unset (never the current directory); an unusable home is one
clear line naming it, while AST questions, which need no cache, keep working."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.clirun import run
from codeagent.config import Settings
from conftest import GitRepoFactory
from faults.run import codeagent, one_error_line, permissions_prefix

FILES = {"pkg/core.py": "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n"}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


def test_an_empty_home_is_the_default_home_not_the_current_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CODEAGENT_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert Settings.load().home == tmp_path / "user" / ".codeagent"
    monkeypatch.setenv("CODEAGENT_HOME", "   ")
    assert Settings.load().home == tmp_path / "user" / ".codeagent"


def test_an_empty_home_in_the_config_file_is_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env_setup: Path
) -> None:
    (env_setup / "config.toml").write_text('home = ""\n', encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert Settings.load().home == env_setup  # the variable still wins over the file
    monkeypatch.delenv("CODEAGENT_HOME")
    assert Settings.load().home == tmp_path / "user" / ".codeagent"


def test_empty_home_clear_and_ask_leave_the_project_alone(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    # A project with its own committed ./cache folder: the data-loss case.
    project = git_repo({**FILES, "cache/fixtures/data.txt": "precious\n"}, name="project")
    before = snapshot(project)
    env = {"CODEAGENT_HOME": "", "HOME": str(tmp_path / "user")}
    asked = codeagent(
        "ask", "where is beta", "--repo", ".", "--llm", "none", "--embed", "none",
        env=env, cwd=project,
    )  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    cleared = codeagent("cache", "clear", "--yes", env=env, cwd=project)
    assert cleared.returncode == 0, cleared.stderr
    assert "removed the indexes of 1 repository" in cleared.stdout  # the one in ~/.codeagent
    assert snapshot(project) == before
    assert (tmp_path / "user" / ".codeagent" / "cache").is_dir()


@pytest.mark.parametrize("kind", ["a file", "under a file"])
def test_a_home_that_is_not_a_directory_is_one_line(
    git_repo: GitRepoFactory, tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES)
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder\n", encoding="utf-8")
    home = blocker if kind == "a file" else blocker / "home"
    env = {"CODEAGENT_HOME": str(home)}
    result = codeagent("index", "--repo", str(root), "--embed", "none", env=env)
    one_error_line(result, "CODEAGENT_HOME", str(home), "is a file")
    # The questions run the same entry point in this process (the process above showed the
    # error is one line in a process of its own).
    monkeypatch.setenv("CODEAGENT_HOME", str(home))
    for extra in ([], ["--json"]):
        rag = run("ask", "how is beta computed", "--repo", str(root), "--llm", "none",
                  "--embed", "none", *extra)  # fmt: skip
        assert rag.code != 0
        # The error is the only line: not after "searching the repository (...)", which
        # would say the search was under way when it never started.
        lines = rag.err.splitlines()
        assert len(lines) == 1, rag.err
        assert lines[0].startswith("error: cannot write the index under CODEAGENT_HOME")
        assert rag.out == ""
    ast = run("ask", "list the functions in pkg/core.py", "--repo", str(root),
              "--llm", "none", "--embed", "none")  # fmt: skip
    assert ast.code == 0, ast.err
    assert "alpha" in ast.out
    assert "beta" in ast.out


def test_a_home_without_write_permission_is_one_line(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    prefix = permissions_prefix()
    if prefix is None:
        pytest.skip("cannot drop root's permission override here")
    root = git_repo(FILES)
    home = tmp_path / "locked_home"
    home.mkdir()
    home.chmod(0o555)
    env = {"CODEAGENT_HOME": str(home)}
    try:
        result = codeagent("index", "--repo", str(root), "--embed", "hash:8", env=env,
                           prefix=prefix)  # fmt: skip
        one_error_line(result, "CODEAGENT_HOME", "not writable")
        ast = codeagent("ask", "list the functions in pkg/core.py", "--repo", str(root),
                        "--llm", "none", env=env, prefix=prefix)  # fmt: skip
        assert ast.returncode == 0, ast.stderr
        assert "alpha" in ast.stdout
    finally:
        home.chmod(0o755)
    assert list(home.iterdir()) == []


def test_repl_history_in_an_unusable_home_never_breaks_the_session(tmp_path: Path) -> None:
    from codeagent.cli.repl_input import file_history

    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n", encoding="utf-8")
    history = file_history(str(blocker / "history"))
    history.store_string("list the functions in a.py")  # would raise NotADirectoryError
    assert list(history.load_history_strings()) == []


def test_cloning_into_a_home_that_is_a_file_is_one_line(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    source = git_repo(FILES)
    home = tmp_path / "blocker"
    home.write_text("not a folder\n", encoding="utf-8")
    result = codeagent("index", "--repo", f"file://{source}", "--embed", "none",
                       env={"CODEAGENT_HOME": str(home)})  # fmt: skip
    one_error_line(result, "cannot write a clone under CODEAGENT_HOME", str(home))


@pytest.mark.parametrize("kind", ["git", "plain"])
def test_a_home_inside_the_repository_is_not_indexed_with_it(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    import json

    from click.testing import CliRunner

    from codeagent.cli.main import cli

    if kind == "git":
        root = git_repo(FILES)
    else:
        root = tmp_path / "plain"
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "core.py").write_text(FILES["pkg/core.py"], encoding="utf-8")
    monkeypatch.setenv("CODEAGENT_HOME", str(root / ".codeagent"))
    runs = []
    for _ in range(2):
        result = CliRunner().invoke(
            cli, ["index", "--repo", str(root), "--embed", "hash:8", "--json"]
        )
        assert result.exit_code == 0, result.output
        runs.append(json.loads(result.stdout))
    assert [r["files_indexed"] for r in runs] == [1, 1]
    assert [r["cache_hit"] for r in runs] == [False, True]
    assert (root / ".codeagent" / "cache").is_dir()
