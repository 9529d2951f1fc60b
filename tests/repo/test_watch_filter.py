"""Which file-system events the repository watch lets through, on a real git repository:
work-tree files yes; junk folders, git's objects and lock files, and an ignored folder (the
codeagent home inside the repository) no; git's HEAD, index and refs yes. And the watch
itself: a write shows up as its path, relative to the root."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from codeagent.errors import RepoNotFoundError
from codeagent.repo.watch import RepoWatch
from conftest import git


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("a.py", True),
        ("src/deep/b.txt", True),
        (".gitignore", True),
        ("node_modules/x/index.js", False),
        ("pkg/__pycache__/a.cpython-312.pyc", False),
        (".venv/lib/site.py", False),
        (".git/HEAD", True),
        (".git/index", True),
        (".git/packed-refs", True),
        (".git/refs/heads/main", True),
        (".git/index.lock", False),
        (".git/refs/heads/main.lock", False),
        (".git/objects/ab/cdef", False),
        (".git/logs/HEAD", False),
        (".git/COMMIT_EDITMSG", False),
        ("home/cache/x/manifest.json", False),
    ],
)
def test_what_passes_the_filter(git_repo: Any, rel: str, expected: bool) -> None:
    root = git_repo({"a.py": "x = 1\n"}).resolve()
    watch = RepoWatch(root, ignore=[root / "home"])
    assert watch.relevant(str(root / rel)) is expected


def test_a_repository_inside_an_ignored_folder_is_still_watched(git_repo: Any) -> None:
    root = git_repo({"a.py": "x = 1\n"}).resolve()
    watch = RepoWatch(root, ignore=[root.parent])  # a clone under CODEAGENT_HOME
    assert watch.relevant(str(root / "a.py"))


def test_outside_the_root_nothing_passes(git_repo: Any, tmp_path: Path) -> None:
    root = git_repo({"a.py": "x = 1\n"})
    assert RepoWatch(root).relevant(str(tmp_path / "elsewhere.py")) is False


def test_a_folder_below_the_top_also_watches_git_s_folder(git_repo: Any) -> None:
    top = git_repo({"sub/a.py": "x = 1\n"}).resolve()
    watch = RepoWatch(top / "sub")
    assert watch.paths() == [top / "sub", top / ".git"]
    assert watch.relevant(str(top / ".git/HEAD"))
    assert not watch.relevant(str(top / "other.py"))  # outside the folder watched


def test_outside_git_there_are_no_git_internals(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    watch = RepoWatch(tmp_path)
    assert watch.git_dir is None
    assert watch.paths() == [tmp_path.resolve()]


def test_a_missing_root_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RepoNotFoundError):
        RepoWatch(tmp_path / "nowhere")


def test_a_write_and_a_commit_arrive_as_batches(git_repo: Any) -> None:
    root = git_repo({"a.py": "x = 1\n"}).resolve()
    watch = RepoWatch(root, step_ms=50)
    batches: list[set[str]] = []

    def collect() -> None:
        for batch in watch.batches():
            batches.append(batch)

    thread = threading.Thread(target=collect)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not batches:  # the first (empty) batch: the watch is on
            assert time.monotonic() < deadline
            time.sleep(0.02)
        (root / "a.py").write_text("x = 2\n")
        (root / "node_modules").mkdir()
        (root / "node_modules/junk.js").write_text("1\n")
        git(root, "commit", "-qam", "two")
        while not any(".git/index" in b for b in batches):
            assert time.monotonic() < deadline, batches
            time.sleep(0.02)
    finally:
        watch.stop()
        thread.join(5)
    assert not thread.is_alive()
    seen = set().union(*batches)
    assert "a.py" in seen
    assert not any(p.startswith("node_modules") for p in seen)
    assert not any(p.startswith(".git/objects") or p.endswith(".lock") for p in seen)
    assert ".git/logs/HEAD" not in seen  # written by the commit, filtered out
