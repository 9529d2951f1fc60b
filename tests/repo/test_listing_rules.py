"""The listing's rules one by one: junk folders (outside git, and untracked inside it),
``.gitignore`` at every depth with negation, links listed but never entered, unsafe and
undecodable names. Truth for git repositories: ``git ls-files`` run by the test itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codeagent.repo.listing import is_listed, list_files, untracked_files
from conftest import GitRepoFactory, git

# The junk folders the design names, written out here (not read from the code under test).
JUNK = [
    ".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints", ".eggs",
]  # fmt: skip


def write(root: Path, *rels: str) -> None:
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n", encoding="utf-8")


@pytest.mark.parametrize("junk", JUNK)
def test_a_junk_folder_is_skipped_outside_git(tmp_path: Path, junk: str) -> None:
    write(tmp_path, "keep.py", f"{junk}/x.py", f"sub/{junk}/y.py", f"{junk}x/z.py")
    listing = list_files(tmp_path)
    assert listing.paths == tuple(sorted(["keep.py", f"{junk}x/z.py"]))  # a look-alike stays
    assert not listing.is_git


@pytest.mark.parametrize("junk", [j for j in JUNK if j != ".git"])
def test_an_untracked_junk_folder_is_skipped_in_git_a_tracked_one_kept(
    git_repo: GitRepoFactory, junk: str
) -> None:
    root = git_repo({"keep.py": "x = 1\n", f"tracked/{junk}/t.py": "t = 1\n"})
    write(root, f"{junk}/x.py", f"sub/{junk}/y.py", "new.py")
    listing = list_files(root)
    assert listing.is_git
    assert listing.paths == ("keep.py", "new.py", f"tracked/{junk}/t.py")
    assert untracked_files(root) == {"new.py"}
    # git itself, without the junk rules, would list the junk too
    everything = git(root, "ls-files", "-co", "--exclude-standard").split()
    assert f"{junk}/x.py" in everything


def test_gitignore_rules_at_every_depth_with_negation(tmp_path: Path) -> None:
    write(tmp_path, "a.py", "a.log", "keep.log", "sub/b.py", "sub/b.tmp", "sub/deep/c.tmp",
          "sub/deep/d.py", "build/out.py", "sub/build/out.py")  # fmt: skip
    (tmp_path / ".gitignore").write_text("*.log\n!keep.log\n/build/\n", encoding="utf-8")
    (tmp_path / "sub" / ".gitignore").write_text("*.tmp\n", encoding="utf-8")
    (tmp_path / "sub" / "deep" / ".gitignore").write_text("!c.tmp\n", encoding="utf-8")
    expected = {
        ".gitignore", "a.py", "keep.log", "sub/.gitignore", "sub/b.py", "sub/deep/.gitignore",
        "sub/deep/c.tmp", "sub/deep/d.py", "sub/build/out.py",
    }  # fmt: skip
    assert set(list_files(tmp_path).paths) == expected
    # the same tree in git: git's own answer agrees
    git(tmp_path, "init", "-q")
    assert set(git(tmp_path, "ls-files", "-co", "--exclude-standard").split()) == expected
    assert set(list_files(tmp_path).paths) == expected


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_linked_folder_is_listed_never_entered(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "a.py")
    write(tmp_path, "elsewhere/secret.py")
    (root / "link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (root / ".gitignore").symlink_to(tmp_path / "elsewhere" / "secret.py")  # a link: not read
    assert list_files(root).paths == (".gitignore", "a.py", "link")


def test_a_gitignore_that_is_a_folder_is_no_rule(tmp_path: Path) -> None:
    write(tmp_path, "a.py", ".gitignore/inside.py")
    assert list_files(tmp_path).paths == (".gitignore/inside.py", "a.py")


def test_paths_are_sorted_and_relative_to_the_resolved_root(tmp_path: Path) -> None:
    write(tmp_path, "b.py", "a/z.py", "a/b.py", "C.py")
    (tmp_path / "alias").symlink_to(tmp_path, target_is_directory=True)
    listing = list_files(tmp_path / "alias" / ".")
    assert listing.root == tmp_path.resolve()
    assert listing.paths == ("C.py", "a/b.py", "a/z.py", "alias", "b.py")
    assert listing.bad_names == 0


def test_folder_rules_and_negation_as_git_reads_them(tmp_path: Path) -> None:
    """A folder rule (``name/``) matches folders only; a file under an excluded folder cannot
    be re-included (git-scm gitignore docs); a rule with a slash inside is anchored."""
    write(tmp_path, "build/keep.py", "build/other.py", "sub/out", "sub/gen/g.py", "sub/x.py",
          "other/sub/gen/h.py")  # fmt: skip
    (tmp_path / ".gitignore").write_text(
        "/build/\n!/build/keep.py\nout/\nsub/gen/\n", encoding="utf-8"
    )
    expected = {".gitignore", "other/sub/gen/h.py", "sub/out", "sub/x.py"}
    assert set(list_files(tmp_path).paths) == expected
    git(tmp_path, "init", "-q")
    assert set(git(tmp_path, "ls-files", "-co", "--exclude-standard").split()) == expected


def test_a_gitignore_that_is_not_utf8_still_applies(tmp_path: Path) -> None:
    write(tmp_path, "a.py", "a.log")
    (tmp_path / ".gitignore").write_bytes(b"# caf\xe9\n*.log\n")
    assert list_files(tmp_path).paths == (".gitignore", "a.py")


def test_no_listed_path_leaves_the_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the file source yields, a path that is empty, absolute or climbs with ``..``
    never reaches the list (nothing outside the repository is ever read)."""
    hostile = ["", "/etc/passwd", "../x.py", "a/../../y.py", "a/..", "..", "ok.py", "a/b.py",
               "a/..b.py", "..c.py"]  # fmt: skip
    monkeypatch.setattr("codeagent.repo.listing._git_files", lambda _base: hostile)
    assert list_files(tmp_path).paths == ("..c.py", "a/..b.py", "a/b.py", "ok.py")


def test_untracked_files_leave_out_the_ignored(git_repo: GitRepoFactory) -> None:
    root = git_repo({".gitignore": "*.log\n", "a.py": "a = 1\n"})
    write(root, "new.py", "debug.log", "sub/more.py")
    expected = set(git(root, "ls-files", "-o", "--exclude-standard").split())
    assert expected == {"new.py", "sub/more.py"}
    assert untracked_files(root) == expected


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_folders_after_a_link_are_still_walked(tmp_path: Path) -> None:
    write(tmp_path, "elsewhere/x.py", "root/b/y.py", "root/c.py")
    (tmp_path / "root" / "a_link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert list_files(tmp_path / "root").paths == ("a_link", "b/y.py", "c.py")


# The tree of the depth-and-negation test, a folder rule, a junk folder and a file that is
# tracked although a rule matches it: every path's one-path check against git's listing.
ONE_PATH_TREE = [
    "a.py", "a.log", "keep.log", "sub/b.py", "sub/b.tmp", "sub/deep/c.tmp", "sub/deep/d.py",
    "build/out.py", "build/keep.py", "sub/build/out.py", "node_modules/m.js", "tracked.log",
]  # fmt: skip


def one_path_tree(root: Path) -> list[str]:
    write(root, *ONE_PATH_TREE)
    (root / ".gitignore").write_text("*.log\n!keep.log\n/build/\n!/build/keep.py\n")
    (root / "sub" / ".gitignore").write_text("*.tmp\n")
    (root / "sub" / "deep" / ".gitignore").write_text("!c.tmp\n")
    return [*ONE_PATH_TREE, ".gitignore", "sub/.gitignore", "sub/deep/.gitignore", "none.py"]


@pytest.mark.parametrize("in_git", [False, True])
def test_one_path_check_agrees_with_gits_listing(tmp_path: Path, in_git: bool) -> None:
    paths = one_path_tree(tmp_path)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-f", "tracked.log")  # tracked: listed although `*.log` matches it
    listed = set(
        git(tmp_path, "ls-files", "-co", "--exclude-standard", "--exclude=node_modules/").split()
    )
    assert {"a.log", "sub/b.tmp", "build/out.py", "node_modules/m.js"}.isdisjoint(listed)
    if not in_git:  # the same tree outside git (a tracked file is no longer special)
        import shutil

        shutil.rmtree(tmp_path / ".git")
        listed.discard("tracked.log")
    assert {p for p in paths if is_listed(tmp_path, p)} == listed


@pytest.mark.parametrize("in_git", [False, True])
def test_a_rule_written_after_the_listing_hides_the_file_at_once(
    tmp_path: Path, in_git: bool
) -> None:
    write(tmp_path, "a.py", "notes.env")
    if in_git:
        git(tmp_path, "init", "-q")
    assert "notes.env" in list_files(tmp_path).paths
    assert is_listed(tmp_path, "notes.env")
    (tmp_path / ".gitignore").write_text("*.env\n")
    assert not is_listed(tmp_path, "notes.env")
    assert is_listed(tmp_path, "a.py")
