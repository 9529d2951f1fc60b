"""Indexing and AST name resolution see the same files (one lister), checked against a
hand-written expectation in a git repository and in a plain folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.errors import GitError
from codeagent.lang import PYTHON_AST, suffixes_read_by
from codeagent.repo.discover import discover
from codeagent.repo.git import git_text
from codeagent.repo.listing import list_files
from codeagent.tools.ast_tool.errors import FileNotFoundInRepoError
from codeagent.tools.ast_tool.resolve import relative_path, repo_files
from conftest import GitRepoFactory, git

TRACKED = {
    ".gitignore": "build/\n*.gen.py\n",
    "pkg/a.py": "x = 1\n",
    "pkg/sub/.gitignore": "local/\n",
    "pkg/sub/b.pyi": "y: int\n",
    "tools/run.pyw": "z = 3\n",
    "venv/committed.py": "w = 4\n",  # tracked files in a junk-named folder stay
}
UNTRACKED = {
    "pkg/new.py": "n = 1\n",  # untracked, not ignored: listed
    "build/out.py": "o = 1\n",  # ignored by the root .gitignore
    "pkg/x.gen.py": "g = 1\n",  # ignored by pattern
    "pkg/sub/local/l.py": "l = 1\n",  # ignored by the nested .gitignore
    ".venv/lib/site.py": "s = 1\n",  # untracked junk
    "node_modules/m/index.py": "m = 1\n",
}
EXPECTED_GIT = {"pkg/a.py", "pkg/sub/b.pyi", "tools/run.pyw", "venv/committed.py", "pkg/new.py"}
# Outside git nothing is "tracked": junk-named folders are skipped wholesale.
EXPECTED_PLAIN = EXPECTED_GIT - {"venv/committed.py"}


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def python_paths(paths: object) -> set[str]:
    return {p for p in paths if isinstance(p, str) and p.endswith(suffixes_read_by(PYTHON_AST))}


@pytest.mark.parametrize("kind", ["git", "plain"])
def test_indexing_and_name_resolution_agree(
    git_repo: GitRepoFactory, tmp_path: Path, kind: str
) -> None:
    if kind == "git":
        root = git_repo(TRACKED)
        expected = EXPECTED_GIT
    else:
        root = tmp_path / "plain"
        root.mkdir()
        write(root, TRACKED)
        expected = EXPECTED_PLAIN
    write(root, UNTRACKED)
    indexed = python_paths(f.path for f in discover(root).files)
    resolvable = python_paths(repo_files(root, fresh=True))
    assert indexed == resolvable == expected
    assert list_files(root).is_git == (kind == "git")
    for path in expected:  # each resolves by its bare file name
        assert relative_path(root, path.rsplit("/", 1)[1]) == path
    with pytest.raises(FileNotFoundInRepoError):
        relative_path(root, "site.py")  # in .venv: neither indexed nor found by name


def test_the_git_helper_reports_failures_as_git_errors(tmp_path: Path) -> None:
    with pytest.raises(GitError) as caught:
        git_text(tmp_path, "rev-parse", "--show-toplevel")
    assert caught.value.status not in (0, None)
    assert "\n" not in str(caught.value)


def test_a_missing_folder_never_runs_git_in_the_current_one(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(git_repo({"a.py": "x = 1\n"}))  # a repository git would find from here
    with pytest.raises(GitError) as caught:
        git_text(tmp_path / "missing", "rev-parse", "--show-toplevel")
    assert caught.value.status is None
    assert str(caught.value) == f"no such directory: {tmp_path / 'missing'}"


def test_importing_the_git_helper_leaves_gitpython_unloaded() -> None:
    import subprocess
    import sys

    code = "import sys, codeagent.repo.git; print('git' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_undecodable_names_are_left_out_and_counted(git_repo: GitRepoFactory) -> None:
    import os

    root = git_repo({"a.py": "x = 1\n", "pkg/mod.py": "y = 1\n"})
    os.mkdir(os.fsencode(root) + b"/d\xfe")
    for raw in (b"/b\xfe.py", b"/d\xfe/mod.py"):
        with open(os.fsencode(root) + raw, "wb") as handle:
            handle.write(b"y = 2\n")
    git(root, "add", "-A")
    listing = list_files(root)
    assert listing.paths == ("a.py", "pkg/mod.py")
    assert listing.bad_names == 2
    assert discover(root).skipped == {"bad_name": 2}
    assert relative_path(root, "mod.py") == "pkg/mod.py"  # not ambiguous with the bad one
