"""File resolution stays inside the repository: exact path, then unique suffix or module."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codeagent.tools.ast_tool import (
    AmbiguousFileError,
    AstToolError,
    BinaryFileError,
    FileNotFoundInRepoError,
    NotAFileError,
    NotPythonError,
    OutsideRepoError,
    resolve_file,
    run_ast_query,
)
from codeagent.tools.ast_tool.resolve import relative_path, repo_files
from conftest import GitRepoFactory

FILES: dict[str, str | bytes] = {
    "src/app/models.py": "class Model:\n    pass\n",
    "src/app/__init__.py": "",
    "src/app/views/__init__.py": "def index():\n    pass\n",
    "lib/requests/models.py": "class Request:\n    pass\n",
    "lib/requests/sessions.py": "class Session:\n    pass\n",
    "tests/test_models.py": "def test_model():\n    pass\n",
    "docs/models.md": "# Models\n",
    "README.md": "# readme\n",
}


@pytest.fixture(params=["git", "plain"])
def repo(request: pytest.FixtureRequest, git_repo: GitRepoFactory, tmp_path: Path) -> Path:
    """The same tree as a git repository and as a plain folder (walked, .gitignore honoured)."""
    if request.param == "git":
        return git_repo(FILES)
    root = tmp_path / "plain"
    for rel, content in FILES.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content if isinstance(content, str) else "", encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("src/app/models.py", "src/app/models.py"),
        ("./src/app/models.py", "src/app/models.py"),
        ("src/app/../app/models.py", "src/app/models.py"),
        ("app/models.py", "src/app/models.py"),
        ("app/models", "src/app/models.py"),
        ("app.models", "src/app/models.py"),
        ("requests.models", "lib/requests/models.py"),
        ("requests/models", "lib/requests/models.py"),
        ("sessions.py", "lib/requests/sessions.py"),
        ("sessions", "lib/requests/sessions.py"),
        ("app.views", "src/app/views/__init__.py"),
        ("app/views", "src/app/views/__init__.py"),
        ("app", "src/app/__init__.py"),
        ("test_models.py", "tests/test_models.py"),
    ],
)
def test_names_resolve_to_one_file(repo: Path, name: str, expected: str) -> None:
    assert relative_path(repo, name) == expected
    assert resolve_file(repo, name) == repo.resolve() / expected


def test_an_absolute_path_inside_the_repo_is_accepted(repo: Path) -> None:
    target = repo / "src" / "app" / "models.py"
    assert relative_path(repo, str(target)) == "src/app/models.py"


def test_a_suffix_must_end_on_a_path_component(repo: Path) -> None:
    with pytest.raises(FileNotFoundInRepoError):
        relative_path(repo, "odels.py")


def test_an_ambiguous_name_lists_its_candidates(repo: Path) -> None:
    with pytest.raises(AmbiguousFileError) as caught:
        relative_path(repo, "models.py")
    error = caught.value
    assert error.reason == "ambiguous_file"
    assert error.candidates == ["lib/requests/models.py", "src/app/models.py"]
    assert "lib/requests/models.py, src/app/models.py" in str(error)


def test_a_missing_file_is_a_typed_error(repo: Path) -> None:
    with pytest.raises(FileNotFoundInRepoError) as caught:
        run_ast_query(repo, "nowhere.py", "functions")
    assert caught.value.reason == "file_not_found"
    assert str(caught.value) == "no file matching 'nowhere.py' in the repository"


@pytest.mark.parametrize("name", ["README.md", "docs/models.md"])
def test_a_file_that_is_not_python_is_refused(repo: Path, name: str) -> None:
    with pytest.raises(NotPythonError) as caught:
        run_ast_query(repo, name, "functions")
    assert caught.value.reason == "not_python"


def test_a_directory_is_not_a_file(repo: Path) -> None:
    with pytest.raises(NotAFileError) as caught:
        run_ast_query(repo, "docs", "functions")
    assert caught.value.reason == "not_a_file"
    assert str(caught.value) == "docs is a directory, not a file"


@pytest.mark.parametrize("name", ["../../etc/passwd", "..", "src/../../outside.py", "../x.py"])
def test_dot_dot_escapes_are_refused(repo: Path, name: str) -> None:
    with pytest.raises(OutsideRepoError) as caught:
        run_ast_query(repo, name, "functions")
    assert caught.value.reason == "outside_repo"


def test_an_absolute_path_outside_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.py"
    outside.write_text("TOKEN = 1\n", encoding="utf-8")
    for name in (str(outside), "/etc/passwd"):
        with pytest.raises(OutsideRepoError):
            run_ast_query(repo, name, "variables")


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_symlink_out_of_the_repo_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.py").write_text("TOKEN = 1\n", encoding="utf-8")
    (repo / "link.py").symlink_to(outside / "secret.py")
    (repo / "linkdir").symlink_to(outside, target_is_directory=True)
    for name in ("link.py", "linkdir/secret.py"):
        with pytest.raises(OutsideRepoError):
            run_ast_query(repo, name, "variables")


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_symlink_inside_the_repo_is_followed(repo: Path) -> None:
    (repo / "alias.py").symlink_to(repo / "src" / "app" / "models.py")
    assert run_ast_query(repo, "alias.py", "classes").names() == ["Model"]


def test_binary_and_empty_files(repo: Path) -> None:
    (repo / "blob.py").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(BinaryFileError) as caught:
        run_ast_query(repo, "blob.py", "outline")
    assert caught.value.reason == "binary_file"
    (repo / "empty.py").write_bytes(b"")
    assert run_ast_query(repo, "empty.py", "outline").items == []


def test_ignored_files_are_not_matched_by_suffix(git_repo: GitRepoFactory) -> None:
    root = git_repo({".gitignore": "build/\n", "pkg/mod.py": "x = 1\n"})
    (root / "build").mkdir()
    (root / "build" / "mod.py").write_text("y = 2\n", encoding="utf-8")
    assert relative_path(root, "mod.py") == "pkg/mod.py"
    assert relative_path(root, "build/mod.py") == "build/mod.py"  # an exact path still works


def test_a_plain_folder_walk_honours_gitignore(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    for rel in ("a/mod.py", "out/mod.py", "sub/gen/mod.py", ".venv/mod.py", "keep.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n", encoding="utf-8")
    (root / ".gitignore").write_text("out/\n", encoding="utf-8")
    (root / "sub" / ".gitignore").write_text("gen/\n", encoding="utf-8")
    files = repo_files(root, fresh=True)
    assert "a/mod.py" in files
    assert "keep.py" in files
    assert not any(f.startswith(("out/", "sub/gen/", ".venv/")) for f in files)
    assert relative_path(root, "mod.py") == "a/mod.py"


def test_a_new_file_is_found_despite_the_list_cache(repo: Path) -> None:
    relative_path(repo, "sessions")
    (repo / "src" / "app" / "fresh.py").write_text("x = 1\n", encoding="utf-8")
    assert relative_path(repo, "fresh.py") == "src/app/fresh.py"


def test_every_failure_is_an_ast_tool_error_with_one_line(repo: Path) -> None:
    for name in ("models.py", "nowhere.py", "README.md", "docs", "../x.py"):
        with pytest.raises(AstToolError) as caught:
            run_ast_query(repo, name, "functions")
        assert "\n" not in str(caught.value)
        assert caught.value.reason
