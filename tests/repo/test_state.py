"""repo_id() and state_hash() against real git repositories and plain directories."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from codeagent.repo.discover import discover
from codeagent.repo.state import GitState, git_state, repo_id, state_hash, state_hash_of
from conftest import GitRepoFactory, git

FP = "chunker=1;embed=hash:64"


def current(root: Path, fingerprint: str = FP) -> str:
    return state_hash(discover(root), fingerprint)


@pytest.fixture
def repo(git_repo: GitRepoFactory) -> Path:
    return git_repo(
        {".gitignore": "*.log\n", "app.py": "def f():\n    return 1\n", "lib/util.py": "X = 1\n"}
    )


def test_repo_id_is_dirname_and_path_digest(tmp_path: Path) -> None:
    root = tmp_path / "my project"
    root.mkdir()
    expected_hex = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
    assert repo_id(root) == f"my_project-{expected_hex}"
    assert repo_id(root / "." / "..") != repo_id(root)
    assert re.fullmatch(r"[A-Za-z0-9._-]+-[0-9a-f]{12}", repo_id(root))


def test_repo_id_same_for_equivalent_paths(tmp_path: Path) -> None:
    (tmp_path / "r" / "sub").mkdir(parents=True)
    assert repo_id(tmp_path / "r") == repo_id(tmp_path / "r" / "sub" / "..")


def test_unchanged_repo_gives_same_hash(repo: Path) -> None:
    first = current(repo)
    assert re.fullmatch(r"[0-9a-f]{64}", first)
    (repo / "app.py").touch()  # mtime only
    assert current(repo) == first


def test_unstaged_edit_changes_hash(repo: Path) -> None:
    before = current(repo)
    (repo / "app.py").write_text("def f():\n    return 2\n")
    assert current(repo) != before


def test_staged_edit_changes_hash(repo: Path) -> None:
    before = current(repo)
    (repo / "app.py").write_text("def f():\n    return 2\n")
    unstaged = current(repo)
    git(repo, "add", "app.py")
    staged = current(repo)
    assert staged != before
    # Staging does not change what is on disk, so the state (what gets indexed) is the same.
    assert staged == unstaged


def test_untracked_file_changes_hash_and_its_content_counts(repo: Path) -> None:
    before = current(repo)
    (repo / "new.py").write_text("N = 1\n")
    with_new = current(repo)
    assert with_new != before
    (repo / "new.py").write_text("N = 2\n")
    assert current(repo) not in (before, with_new)


def test_ignored_file_does_not_change_hash(repo: Path) -> None:
    before = current(repo)
    (repo / "debug.log").write_text("noise\n")
    assert current(repo) == before


def test_fingerprint_is_part_of_the_hash(repo: Path) -> None:
    assert current(repo, "a") != current(repo, "b")


def test_committing_an_edit_changes_hash(repo: Path) -> None:
    before = current(repo)
    (repo / "app.py").write_text("def f():\n    return 3\n")
    git(repo, "commit", "-qam", "edit")
    assert current(repo) != before


def test_deleting_a_tracked_file_changes_hash(repo: Path) -> None:
    before = current(repo)
    (repo / "lib" / "util.py").unlink()
    assert current(repo) != before


def test_repo_without_commits_hashes_contents(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.py": "a = 1\n"}, commit=False)
    git(root, "add", "a.py")
    before = current(root)
    assert current(root) == before
    (root / "a.py").write_text("a = 2\n")
    assert current(root) != before


def test_plain_directory_tracks_contents(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    (tmp_path / ".gitignore").write_text("*.log\n")
    before = current(tmp_path)
    assert current(tmp_path) == before
    (tmp_path / "x.log").write_text("ignored\n")
    assert current(tmp_path) == before
    (tmp_path / "a.py").write_text("a = 2\n")
    edited = current(tmp_path)
    assert edited != before
    (tmp_path / "b.py").write_text("b = 1\n")
    assert current(tmp_path) not in (before, edited)
    assert current(tmp_path, "other") != current(tmp_path)


def test_size_cap_change_changes_hash(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n" * 100)
    fp = "same"
    assert state_hash(discover(tmp_path), fp) != state_hash(discover(tmp_path, max_bytes=10), fp)


def test_git_state_read_ahead_is_what_git_says_and_hashes_the_same(repo: Path) -> None:
    """A build asks git in a thread (git_state) and hands the answer to state_hash_of: the head,
    the diff and the untracked paths are git's own, and the hash equals the one asked inline."""
    (repo / "app.py").write_text("def f():\n    return 2\n")
    (repo / "new.py").write_text("Y = 2\n")
    found = discover(repo)
    ahead = git_state(found)
    assert isinstance(ahead, GitState)
    assert ahead.head == git(repo, "rev-parse", "HEAD").strip()
    args = ["git", "diff", "HEAD", "--binary", "--no-renames", "--full-index"]
    raw = subprocess.run(args, cwd=repo, capture_output=True, check=True)
    assert ahead.diff == hashlib.sha256(raw.stdout).hexdigest()
    assert ahead.untracked == set(git(repo, "ls-files", "-o", "--exclude-standard").split())
    assert state_hash_of(found, FP, ahead) == state_hash(found, FP)
    stale = GitState(ahead.head, ahead.diff, frozenset())  # the new file's content left out
    assert state_hash_of(found, FP, stale) != state_hash(found, FP)
    assert state_hash_of(found, FP, None) != state_hash(found, FP)  # None: the files themselves


def test_an_index_build_keys_its_entry_by_the_state_git_reports_after_an_edit(
    repo: Path, tmp_path: Path
) -> None:
    from codeagent.config import Settings
    from codeagent.index.build import fingerprint, load_or_build

    settings = Settings(home=tmp_path / "home", embed="none")
    fp = fingerprint(None)
    _, before = load_or_build(repo, settings, embedder=None)
    assert before.state_hash == state_hash(discover(repo), fp)
    (repo / "lib" / "util.py").write_text("X = 2\n")
    (repo / "extra.py").write_text("Z = 3\n")
    _, after = load_or_build(repo, settings, embedder=None)
    assert after.state_hash != before.state_hash
    assert after.state_hash == state_hash(discover(repo), fp)
    (repo / "extra.py").write_text("Z = 4\n")  # an untracked file's content alone
    _, again = load_or_build(repo, settings, embedder=None)
    assert again.state_hash not in {before.state_hash, after.state_hash}
