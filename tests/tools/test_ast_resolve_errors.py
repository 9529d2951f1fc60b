"""Every way a file name fails to resolve: the error's type, its one line, and the path it
names (what the fallback to search and the eval read)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codeagent.tools.ast_tool import (
    AmbiguousFileError,
    AstToolError,
    FileNotFoundInRepoError,
    NotAFileError,
    NotPythonError,
    OutsideRepoError,
)
from codeagent.tools.ast_tool.resolve import relative_path, repo_files
from conftest import GitRepoFactory

pytestmark = pytest.mark.skipif(os.name == "nt", reason="symlinks and FIFOs")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel in ("a/mod.py", "b/mod.py", "pkg/only.py", "README.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "outside.py").write_text("secret = 1\n", encoding="utf-8")
    (root / "loop.py").symlink_to(root / "loop.py")
    (root / "out.py").symlink_to(tmp_path / "outside.py")
    (root / "pkgdir").symlink_to(root / "pkg", target_is_directory=True)
    os.mkfifo(root / "pipe.py")
    return root


def failure(repo: Path, name: str) -> AstToolError:
    with pytest.raises(AstToolError) as caught:
        relative_path(repo, name)
    return caught.value


def test_a_symlink_loop(repo: Path) -> None:
    error = failure(repo, "loop.py")
    assert type(error) is NotAFileError
    assert str(error).startswith("loop.py is a symlink that cannot be resolved: ")
    assert error.path == "loop.py"
    absolute = str(repo / "loop.py")
    error = failure(repo, absolute)
    assert type(error) is NotAFileError
    assert str(error).startswith(f"{absolute!r} cannot be resolved: ")
    assert error.path == absolute


@pytest.mark.parametrize(
    ("name", "kind", "message", "path"),
    [
        ("out.py", OutsideRepoError, "refusing out.py: a symlink leading outside the repository",
         "out.py"),
        ("pkgdir", NotAFileError, "pkgdir is a directory, not a file", "pkgdir"),
        ("pipe.py", NotAFileError, "pipe.py is not a regular file", "pipe.py"),
        ("pkg", NotAFileError, "pkg is a directory, not a file", "pkg"),
        ("nowhere.py", FileNotFoundInRepoError, "no file matching 'nowhere.py' in the repository",
         "nowhere.py"),
        ("  ", FileNotFoundInRepoError, "no file name given", None),
        ("../x.py", OutsideRepoError, "refusing '../x.py': it leads outside the repository",
         None),
    ],
)  # fmt: skip
def test_each_failure_names_its_path(
    repo: Path, name: str, kind: type[AstToolError], message: str, path: str | None
) -> None:
    error = failure(repo, name)
    assert type(error) is kind
    assert str(error) == message
    assert error.path == path


def test_not_python(repo: Path) -> None:
    error = failure(repo, "README.md")
    assert type(error) is NotPythonError
    assert str(error) == "README.md is not a Python file (.py, .pyi, .pyw)"
    assert error.path == "README.md"


def test_an_absolute_path_that_does_not_exist(repo: Path) -> None:
    absolute = str(repo / "pkg" / "gone.py")
    error = failure(repo, absolute)
    assert type(error) is FileNotFoundInRepoError
    assert str(error) == f"file {absolute!r} does not exist"
    assert error.path == absolute


def test_ambiguity_lists_every_candidate(repo: Path) -> None:
    error = failure(repo, "mod.py")
    assert isinstance(error, AmbiguousFileError)
    assert error.candidates == ["a/mod.py", "b/mod.py"]
    assert str(error) == (
        "file name 'mod.py' is ambiguous: 2 files match (a/mod.py, b/mod.py); give more of the path"
    )


def test_more_than_ten_candidates_are_cut_in_the_message(tmp_path: Path) -> None:
    for n in range(12):
        (tmp_path / f"d{n:02}").mkdir()
        (tmp_path / f"d{n:02}" / "m.py").write_text("x = 1\n", encoding="utf-8")
    error = failure(tmp_path, "m.py")
    assert isinstance(error, AmbiguousFileError)
    assert len(error.candidates) == 12
    shown = ", ".join(f"d{n:02}/m.py" for n in range(10))
    assert str(error) == (
        f"file name 'm.py' is ambiguous: 12 files match ({shown}, ...); give more of the path"
    )


def test_a_windows_style_name_resolves_by_suffix(repo: Path) -> None:
    assert relative_path(repo, "pkg\\only.py") == "pkg/only.py"
    assert relative_path(repo, "pkg\\only") == "pkg/only.py"


def test_a_name_with_a_slash_is_a_path_never_a_dotted_module(repo: Path) -> None:
    """``pkg.only`` is the module pkg/only.py; ``x/pkg.only`` is a path and names nothing."""
    assert relative_path(repo, "pkg.only") == "pkg/only.py"
    error = failure(repo, "a/pkg.only")
    assert type(error) is FileNotFoundInRepoError


@pytest.mark.parametrize(("count", "tail"), [(10, ""), (11, ", ...")])
def test_ten_candidates_are_shown_in_full_eleven_are_cut(
    tmp_path: Path, count: int, tail: str
) -> None:
    for n in range(count):
        (tmp_path / f"d{n:02}").mkdir()
        (tmp_path / f"d{n:02}" / "m.py").write_text("x = 1\n", encoding="utf-8")
    error = failure(tmp_path, "m.py")
    shown = ", ".join(f"d{n:02}/m.py" for n in range(10))
    assert str(error) == (
        f"file name 'm.py' is ambiguous: {count} files match ({shown}{tail}); give more of the path"
    )


def test_a_dangling_link_found_by_suffix_is_not_a_file(repo: Path) -> None:
    (repo / "pkg" / "dangle.py").symlink_to(repo / "pkg" / "missing.py")
    error = failure(repo, "dangle")
    assert type(error) is NotAFileError
    assert str(error) == "pkg/dangle.py is not a regular file"


def test_a_root_that_is_gone_lists_nothing(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    assert repo_files(gone) == ()
    error = failure(gone, "x.py")
    assert type(error) is FileNotFoundInRepoError


def test_the_file_list_is_reused_until_the_root_changes_or_ages(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list is read once per root and reused (it is what makes a lookup cheap); a change
    of the root folder, an explicit fresh read or 30 s make it read again."""
    from codeagent.tools.ast_tool import resolve

    listed: list[Path] = []
    real = resolve.list_files

    def counting(root: Path) -> object:
        listed.append(root)
        return real(root)

    clock = [1000.0]
    monkeypatch.setattr(resolve, "list_files", counting)
    monkeypatch.setattr(resolve.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(resolve, "_listings", {})
    assert relative_path(repo, "only") == "pkg/only.py"
    assert relative_path(repo, "only") == "pkg/only.py"
    assert repo_files(repo) == repo_files(repo)
    assert len(listed) == 1
    repo_files(repo, fresh=True)
    assert len(listed) == 2
    clock[0] += 29.0
    repo_files(repo)
    assert len(listed) == 2
    clock[0] += 1.0  # 30 s after the last read
    repo_files(repo)
    assert len(listed) == 3
    (repo / "new.py").write_text("x = 1\n", encoding="utf-8")  # the root folder changes
    os.utime(repo, (clock[0] + 5, clock[0] + 5))
    assert "new.py" in repo_files(repo)
    assert len(listed) == 4
    assert listed == [repo.resolve()] * 4


def test_a_package_folder_given_as_its_exact_path_names_its_init(tmp_path: Path) -> None:
    write_tree(tmp_path, "app/views/__init__.py", "app/views/list.py", "a/b/c.py")
    assert relative_path(tmp_path, "app/views") == "app/views/__init__.py"
    assert relative_path(tmp_path, "a.b.c") == "a/b/c.py"  # a dotted module name
    error = failure(tmp_path, "a/b.c")  # a path with a dot is not a module name
    assert type(error) is FileNotFoundInRepoError


def test_a_windows_style_exact_path_to_an_ignored_file(git_repo: GitRepoFactory) -> None:
    """The exact path is tried first, backslashes and all: an ignored file (which the suffix
    search never sees) is still found by its exact path."""
    root = git_repo({".gitignore": "build/\n", "pkg/mod.py": "x = 1\n"})
    write_tree(root, "build/gen.py")
    assert relative_path(root, "build\\gen.py") == "build/gen.py"
    assert relative_path(root, "build/gen.py") == "build/gen.py"


def test_an_absolute_path_outside_says_so(repo: Path) -> None:
    outside = str(repo.parent / "outside.py")
    error = failure(repo, outside)
    assert type(error) is OutsideRepoError
    assert str(error) == f"refusing {outside!r}: it is outside the repository"


def write_tree(root: Path, *rels: str) -> None:
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n", encoding="utf-8")
