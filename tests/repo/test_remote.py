"""resolve_repo(): local paths, file:// clones fetched on later calls, commits, failures."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.errors import CloneError, RepoNotFoundError
from codeagent.repo.remote import is_remote, resolve_repo
from conftest import GitRepoFactory, git


@pytest.fixture
def settings() -> Settings:
    return Settings()  # home is the test's own CODEAGENT_HOME


@pytest.fixture
def upstream(git_repo: GitRepoFactory) -> Path:
    return git_repo({"a.py": "A = 1\n", "README.md": "one\n"}, name="upstream")


def commit_file(repo: Path, rel: str, content: str, message: str) -> str:
    (repo / rel).write_text(content)
    git(repo, "add", rel)
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


def head(path: Path) -> str:
    return git(path, "rev-parse", "HEAD").strip()


def clone_dirs(settings: Settings) -> list[Path]:
    return [p for p in settings.repos_dir.iterdir() if not p.name.startswith(".")]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("https://github.com/psf/requests", True),
        ("http://example.com/r.git", True),
        ("git@github.com:psf/requests.git", True),
        ("ssh://git@host/r.git", True),
        ("file:///tmp/r", True),
        ("./src", False),
        ("/abs/path", False),
        ("~/code/project", False),
        ("C:/code", False),
        ("relative/dir@2", False),
    ],
)
def test_is_remote(spec: str, expected: bool) -> None:
    assert is_remote(spec) is expected


def test_local_directory_is_returned_resolved(tmp_path: Path, settings: Settings) -> None:
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    assert resolve_repo(str(tmp_path / "proj" / "sub" / ".."), settings) == tmp_path / "proj"


def test_local_path_expands_user(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "code").mkdir()
    assert resolve_repo("~/code", settings) == (tmp_path / "code").resolve()


def test_missing_path(tmp_path: Path, settings: Settings) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(RepoNotFoundError, match=r"^no such directory: ") as info:
        resolve_repo(str(missing), settings)
    assert str(missing) in str(info.value)


def test_file_path(tmp_path: Path, settings: Settings) -> None:
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(RepoNotFoundError, match=r"^not a directory: "):
        resolve_repo(str(tmp_path / "f.txt"), settings)


def test_url_is_cloned_shallow_then_fetched(upstream: Path, settings: Settings) -> None:
    first = commit_file(upstream, "b.py", "B = 1\n", "second")
    url = upstream.as_uri()
    clone = resolve_repo(url, settings)
    assert clone.is_relative_to(settings.repos_dir)
    assert head(clone) == first
    assert (clone / "b.py").read_text() == "B = 1\n"
    assert git(clone, "rev-parse", "--is-shallow-repository").strip() == "true"
    assert git(clone, "rev-list", "--count", "HEAD").strip() == "1"
    marker = clone / ".git" / "marker"  # survives only if the clone is reused, not redone
    marker.write_text("x")

    second = commit_file(upstream, "a.py", "A = 2\n", "third")
    again = resolve_repo(url, settings)
    assert again == clone
    assert marker.exists()
    assert head(again) == second
    assert (again / "a.py").read_text() == "A = 2\n"
    assert clone_dirs(settings) == [clone]


def test_commit_is_checked_out_detached(upstream: Path, settings: Settings) -> None:
    old = head(upstream)
    commit_file(upstream, "a.py", "A = 2\n", "newer")
    clone = resolve_repo(upstream.as_uri(), settings, commit=old)
    assert head(clone) == old
    assert (clone / "a.py").read_text() == "A = 1\n"
    detached = subprocess.run(["git", "symbolic-ref", "-q", "HEAD"], cwd=clone, check=False)
    assert detached.returncode == 1


def test_abbreviated_commit_falls_back_to_full_fetch(upstream: Path, settings: Settings) -> None:
    old = head(upstream)
    commit_file(upstream, "a.py", "A = 2\n", "newer")
    clone = resolve_repo(upstream.as_uri(), settings, commit=old[:8])
    assert head(clone) == old


def test_switching_commits_reuses_the_clone(upstream: Path, settings: Settings) -> None:
    old = head(upstream)
    new = commit_file(upstream, "a.py", "A = 2\n", "newer")
    url = upstream.as_uri()
    first = resolve_repo(url, settings, commit=new)
    (first / "stray.txt").write_text("left behind\n")
    second = resolve_repo(url, settings, commit=old)
    assert first == second
    assert head(second) == old
    assert (second / "a.py").read_text() == "A = 1\n"
    assert not (second / "stray.txt").exists()


def test_unknown_commit_is_a_clone_error(upstream: Path, settings: Settings) -> None:
    with pytest.raises(CloneError, match="not found") as info:
        resolve_repo(upstream.as_uri(), settings, commit="0" * 40)
    assert "\n" not in str(info.value)
    assert clone_dirs(settings) == []


def test_bad_url_is_a_clone_error_with_git_message(tmp_path: Path, settings: Settings) -> None:
    url = (tmp_path / "does-not-exist").as_uri()
    with pytest.raises(CloneError) as info:
        resolve_repo(url, settings)
    message = str(info.value)
    assert "\n" not in message
    assert url in message
    assert "does not appear to be a git repository" in message
    assert clone_dirs(settings) == []
    assert not list(settings.repos_dir.glob(".tmp-*"))


def test_bare_mirror_with_commit_is_cloned_not_touched(
    upstream: Path, tmp_path: Path, settings: Settings
) -> None:
    old = head(upstream)
    new = commit_file(upstream, "a.py", "A = 2\n", "newer")
    mirror = tmp_path / "mirror.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(upstream), str(mirror)], check=True)
    refs_before = git(mirror, "show-ref")
    checkout = resolve_repo(str(mirror), settings, commit=old)
    assert checkout.is_relative_to(settings.repos_dir)
    assert head(checkout) == old
    assert (checkout / "a.py").read_text() == "A = 1\n"
    assert git(mirror, "show-ref") == refs_before
    assert head(resolve_repo(str(mirror), settings)) == new


def test_local_checkout_at_the_commit_is_used_in_place(upstream: Path, settings: Settings) -> None:
    assert resolve_repo(str(upstream), settings, commit=head(upstream)) == upstream.resolve()


def test_local_checkout_at_another_commit_is_cloned(upstream: Path, settings: Settings) -> None:
    old = head(upstream)
    new = commit_file(upstream, "a.py", "A = 2\n", "newer")
    checkout = resolve_repo(str(upstream), settings, commit=old)
    assert checkout != upstream.resolve()
    assert head(checkout) == old
    assert head(upstream) == new  # the user's checkout is left alone
    assert (upstream / "a.py").read_text() == "A = 2\n"


def test_commit_for_a_non_git_directory(tmp_path: Path, settings: Settings) -> None:
    with pytest.raises(CloneError, match="not the top of a git repository"):
        resolve_repo(str(tmp_path), settings, commit="abc123")


def test_stale_temporary_clone_is_cleaned(upstream: Path, settings: Settings) -> None:
    url = upstream.as_uri()
    clone = resolve_repo(url, settings)
    stale = settings.repos_dir / f".tmp-{clone.name}-deadbeef"
    stale.mkdir()
    resolve_repo(url, settings)
    assert not stale.exists()


def test_killed_git_lock_in_a_clone_is_removed(upstream: Path, settings: Settings) -> None:
    url = upstream.as_uri()
    clone = resolve_repo(url, settings)
    (clone / ".git" / "index.lock").write_text("")
    new = commit_file(upstream, "a.py", "A = 3\n", "later")
    assert head(resolve_repo(url, settings)) == new
