"""Exporting commits of a bare mirror into the checkout cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.errors import CloneError
from codeagent.eval.mirrors import export_commit, find_mirror, mirror_name, resolve_commit
from conftest import GitRepoFactory, git


@pytest.fixture
def mirror(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, str, str]:
    """A bare mirror at ``mirrors/acme+tool/repo`` with two commits: (mirrors dir, c1, c2)."""
    work = git_repo({"pkg/core.py": "A = 1\n", "README.md": "tool\n"}, name="work")
    first = git(work, "rev-parse", "HEAD").strip()
    (work / "pkg" / "core.py").write_text("A = 2\n", encoding="utf-8")
    (work / "pkg" / "extra.py").write_text("B = 1\n", encoding="utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "second")
    second = git(work, "rev-parse", "HEAD").strip()
    mirrors = tmp_path / "mirrors"
    (mirrors / "acme+tool").mkdir(parents=True)
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+tool" / "repo"))
    return mirrors, first, second


def test_find_mirror_layouts(mirror: tuple[Path, str, str], tmp_path: Path) -> None:
    mirrors, _, _ = mirror
    assert mirror_name("acme/tool") == "acme+tool"
    assert find_mirror(mirrors, "acme/tool") == mirrors / "acme+tool" / "repo"
    assert find_mirror(mirrors, "acme/other") is None
    # A bare repository directly at OWNER+NAME also counts.
    flat = tmp_path / "flat"
    flat.mkdir()
    git(tmp_path, "clone", "-q", "--bare", str(mirrors / "acme+tool" / "repo"), str(flat / "a+b"))
    assert find_mirror(flat, "a/b") == flat / "a+b"
    # GitHub names ignore case: a suite's pycqa/flake8 is the mirror PyCQA+flake8
    git(tmp_path, "clone", "-q", "--bare", str(flat / "a+b"), str(flat / "PyCQA+flake8"))
    assert find_mirror(flat, "pycqa/flake8") == flat / "PyCQA+flake8"


def test_export_each_commit(mirror: tuple[Path, str, str], tmp_path: Path) -> None:
    mirrors, first, second = mirror
    bare = mirrors / "acme+tool" / "repo"
    cache = tmp_path / "cache"
    one = export_commit(bare, first[:7], cache, "acme/tool")
    two = export_commit(bare, second, cache, "acme/tool")
    assert one == cache / "acme+tool" / first
    assert two == cache / "acme+tool" / second
    assert (one / "pkg" / "core.py").read_text(encoding="utf-8") == "A = 1\n"
    assert not (one / "pkg" / "extra.py").exists()
    assert (two / "pkg" / "core.py").read_text(encoding="utf-8") == "A = 2\n"
    assert sorted(p.relative_to(two).as_posix() for p in two.rglob("*") if p.is_file()) == [
        "README.md",
        "pkg/core.py",
        "pkg/extra.py",
    ]
    # Only the two exports: no temporary directory is left behind.
    assert sorted(p.name for p in (cache / "acme+tool").iterdir()) == sorted([first, second])


def test_export_reuses_a_finished_directory(mirror: tuple[Path, str, str], tmp_path: Path) -> None:
    mirrors, first, _ = mirror
    bare = mirrors / "acme+tool" / "repo"
    target = export_commit(bare, first, tmp_path / "cache", "acme/tool")
    (target / "marker").write_text("kept", encoding="utf-8")
    assert export_commit(bare, first, tmp_path / "cache", "acme/tool") == target
    assert (target / "marker").read_text(encoding="utf-8") == "kept"


def test_unknown_commit(mirror: tuple[Path, str, str], tmp_path: Path) -> None:
    mirrors, _, _ = mirror
    bare = mirrors / "acme+tool" / "repo"
    with pytest.raises(CloneError):
        resolve_commit(bare, "deadbeef")
    with pytest.raises(CloneError, match="not in the mirror"):
        export_commit(bare, "deadbeef", tmp_path / "cache", "acme/tool")
    assert not (tmp_path / "cache" / "acme+tool").exists()
