"""repo_id() and state_hash() at their edges: odd folder names, the discovered path list, git
configuration that would change or hide what ``git diff`` prints, a folder inside a larger
repository, and a repository without commits (hashed from its files, without a warning)."""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from codeagent.repo.discover import discover
from codeagent.repo.state import repo_id, state_hash
from conftest import GitRepoFactory, git

FP = "chunker=1;embed=none"


def current(root: Path) -> str:
    return state_hash(discover(root), FP)


def digest_of(path: Path) -> str:
    """The documented suffix: 12 hex digits of the sha256 of the resolved path's bytes."""
    return hashlib.sha256(os.fsencode(path.resolve())).hexdigest()[:12]


@pytest.mark.parametrize(
    ("folder", "name"),
    [
        (".hidden_", "hidden"),  # dots and underscores are trimmed from both ends
        ("Xylo.", "Xylo"),
        ("...", "root"),  # nothing left: a fixed name
        ("__", "root"),
        ("a" * 60, "a" * 48),  # at most 48 characters of the name
        ("my project!", "my_project"),
    ],
)
def test_repo_id_names(tmp_path: Path, folder: str, name: str) -> None:
    root = tmp_path / folder
    root.mkdir()
    assert repo_id(root) == f"{name}-{digest_of(root)}"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses undecodable file names")
def test_repo_id_of_a_folder_whose_name_is_not_utf8(tmp_path: Path) -> None:
    root = tmp_path / os.fsdecode(b"caf\xe9")
    root.mkdir()
    assert repo_id(root) == f"caf-{digest_of(root)}"  # the odd byte became "_", then trimmed


def test_the_discovered_path_list_is_part_of_the_state(git_repo: GitRepoFactory) -> None:
    """Same commit, same work tree: a file left out of discovery (here: over the size cap) is
    another state, since the index then holds other files."""
    root = git_repo({"a.py": "a = 1\n", "big.py": "b = 2\n" * 100})
    full, capped = discover(root), discover(root, max_bytes=100)
    assert [f.path for f in capped.files] == ["a.py"]
    assert state_hash(full, FP) != state_hash(capped, FP)


def test_path_lists_that_join_alike_are_other_states(git_repo: GitRepoFactory) -> None:
    """Each part of the state is framed: the files ``a`` and ``b`` are not the file ``ab``,
    though their names run together alike (discovery of one commit here: the same head,
    diff and untracked files; only which files it kept differs)."""
    root = git_repo({"a": "1\n", "b": "2\n", "ab": "3\n"})
    full = discover(root)
    by_path = {f.path: f for f in full.files}
    two = replace(full, files=[by_path["a"], by_path["b"]])
    one = replace(full, files=[by_path["ab"]])
    assert "".join(f.path for f in two.files) == "".join(f.path for f in one.files)
    assert state_hash(two, FP) != state_hash(one, FP)


def edits_change_the_state(root: Path, rel: str, contents: list[bytes]) -> None:
    seen = []
    for content in contents:
        (root / rel).write_bytes(content)
        seen.append(current(root))
    assert len(set(seen)) == len(contents), seen


def test_binary_edits_change_the_state(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.py": "a = 1\n"})
    (root / "blob.dat").write_bytes(b"\0one")
    git(root, "add", "blob.dat")
    git(root, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "blob")
    edits_change_the_state(root, "blob.dat", [b"\0two", b"\0three", b"\0four"])


def test_an_external_diff_or_textconv_hides_nothing(git_repo: GitRepoFactory) -> None:
    """A user's ``diff.external`` or a textconv driver prints what it likes; the state is
    hashed from git's own diff all the same."""
    root = git_repo({"a.py": "a = 1\n", ".gitattributes": "*.py diff=flat\n"})
    quiet = root.parent / f"{root.name}-quiet.sh"
    quiet.write_text("#!/bin/sh\necho same\n")
    quiet.chmod(quiet.stat().st_mode | stat.S_IXUSR)
    git(root, "config", "diff.external", str(quiet))
    git(root, "config", "diff.flat.textconv", str(quiet))
    edits_change_the_state(root, "a.py", [b"a = 2\n", b"a = 3\n", b"a = 4\n"])


def test_a_folder_inside_a_repository_has_its_own_state(git_repo: GitRepoFactory) -> None:
    """Indexing ``pkg/`` of a larger repository: an edit outside ``pkg/`` is not its change."""
    root = git_repo({"pkg/a.py": "a = 1\n", "other/b.py": "b = 1\n"})
    before = current(root / "pkg")
    (root / "other" / "b.py").write_text("b = 2\n")
    assert current(root / "pkg") == before
    (root / "pkg" / "a.py").write_text("a = 2\n")
    assert current(root / "pkg") != before


def test_a_repository_without_commits_is_hashed_without_a_warning(
    git_repo: GitRepoFactory, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo({"a.py": "a = 1\n"}, commit=False)
    with caplog.at_level(logging.INFO, logger="codeagent.repo"):
        before = current(root)
        (root / "a.py").write_text("a = 2\n")
        assert current(root) != before
    assert caplog.records == []


def test_a_plain_folder_is_hashed_without_asking_git(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    with caplog.at_level(logging.INFO, logger="codeagent.repo"):
        current(tmp_path)
    assert caplog.records == []


def test_hashing_runs_no_filter_command_of_the_repository(git_repo: GitRepoFactory) -> None:
    """A clean filter in the repository's config is a command: hashing the work tree must not
    run it (the hash comes from git's diff with every filter emptied)."""
    root = git_repo({"a.py": "a = 1\n", ".gitattributes": "*.py filter=spy\n"})
    ran = root.parent / f"{root.name}-filter-ran"
    git(root, "config", "filter.spy.clean", f"touch {ran}; cat")
    (root / "a.py").write_text("a = 2\n")
    before = current(root)
    (root / "a.py").write_text("a = 3\n")
    assert current(root) != before
    assert not ran.exists()


def test_a_repository_git_cannot_diff_is_hashed_from_its_files(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.py": "a = 1\n"})
    discovery = discover(root)
    (root / ".git" / "index").write_bytes(b"not an index")  # rev-parse works, diff fails
    before = state_hash(discovery, FP)
    assert state_hash(discovery, FP) == before
    (root / "a.py").write_text("a = 2\n")
    assert state_hash(discovery, FP) != before
