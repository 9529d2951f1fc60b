"""CODEAGENT_HOME: empty means unset (never the current directory); an unusable home is one
clear line naming it, while AST questions, which need no cache, keep working."""

from __future__ import annotations

from pathlib import Path

import pytest
from faults.run import codeagent, one_error_line, permissions_prefix

from codeagent.config import Settings
from conftest import GitRepoFactory

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
    git_repo: GitRepoFactory, tmp_path: Path, kind: str
) -> None:
    root = git_repo(FILES)
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder\n", encoding="utf-8")
    home = blocker if kind == "a file" else blocker / "home"
    env = {"CODEAGENT_HOME": str(home)}
    result = codeagent("index", "--repo", str(root), "--embed", "none", env=env)
    one_error_line(result, "CODEAGENT_HOME", str(home), "is a file")
    rag = codeagent("ask", "how is beta computed", "--repo", str(root), "--llm", "none",
                    "--embed", "none", env=env)  # fmt: skip
    assert "Traceback" not in rag.stderr
    assert rag.returncode != 0
    ast = codeagent("ask", "list the functions in pkg/core.py", "--repo", str(root),
                    "--llm", "none", "--embed", "none", env=env)  # fmt: skip
    assert ast.returncode == 0, ast.stderr
    assert "alpha" in ast.stdout
    assert "beta" in ast.stdout


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
