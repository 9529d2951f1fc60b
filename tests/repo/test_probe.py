"""The cheap state probe: a change that alters the repository's state hash alters its key, an
undone change gives the old key back, and the changed paths are named. Truth: the state hash
(which reads every byte) and the files the test writes."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from codeagent.index.build import fingerprint
from codeagent.index.freshness import SharedCheck
from codeagent.repo.discover import discover
from codeagent.repo.probe import Prober, changed_paths
from codeagent.repo.state import state_hash
from conftest import git


def full_state(root: Path) -> str:
    return state_hash(discover(root), fingerprint(None))


def test_probe_follows_the_state_hash(git_repo: Any) -> None:
    root = git_repo({"a.py": "x = 1\n", "pkg/b.py": "y = 2\n", ".gitignore": "*.log\n"})
    prober = Prober(root)
    first = prober.probe()
    assert prober.probe().key == first.key  # nothing changed
    seen = {first.key: full_state(root)}

    def step(change: Any, expect: set[str]) -> None:
        before = prober.probe()
        change()
        after = prober.probe()
        assert after.key != before.key
        assert set(changed_paths(root, before, after)) == expect
        assert full_state(root) != seen.get(before.key)
        seen[after.key] = full_state(root)

    step(lambda: (root / "a.py").write_text("x = 10\n"), {"a.py"})
    step(lambda: (root / "a.py").write_text("x = 11\n"), {"a.py"})  # dirty, dirty again
    step(lambda: (root / "pkg/c.py").write_text("z = 3\n"), {"pkg/c.py"})
    step(lambda: (root / "pkg/b.py").unlink(), {"pkg/b.py"})
    step(lambda: git(root, "commit", "-qam", "two"), {"a.py", "pkg/b.py"})
    step(lambda: git(root, "checkout", "-q", "HEAD~1"), {"a.py", "pkg/b.py"})

    # Ignored files and a rewrite with the same bytes change nothing the index sees.
    key = prober.probe().key
    (root / "debug.log").write_text("noise\n")
    assert prober.probe().key == key
    # An undone edit gives the old key back (git compares the content).
    (root / "a.py").write_text("changed\n")
    assert prober.probe().key != key
    git(root, "checkout", "-q", "--", "a.py")
    assert prober.probe().key == key


def test_probe_outside_git(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    prober = Prober(tmp_path)
    first = prober.probe()
    assert first.head is None
    (tmp_path / "b.py").write_text("y = 1\n")
    second = prober.probe()
    assert second.key != first.key
    assert changed_paths(tmp_path, first, second) == ["b.py"]


def test_questions_that_arrive_together_share_one_probe(git_repo: Any) -> None:
    root = git_repo({"a.py": "x = 1\n"})
    check = SharedCheck(root)
    check.get()
    before = check.probes
    probe_now = check._probe

    def slow_probe() -> Any:  # long enough for all eight to arrive on a loaded machine
        time.sleep(0.3)
        return probe_now()

    check._probe = slow_probe  # type: ignore[method-assign]
    barrier = threading.Barrier(8)
    keys: list[str] = []

    def ask() -> None:
        barrier.wait()
        probe = check.get()
        assert probe is not None
        keys.append(probe.key)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(keys) == 8
    assert len(set(keys)) == 1
    assert 1 <= check.probes - before <= 2  # one running when they came, one shared after


def test_a_probe_never_predates_the_question(git_repo: Any) -> None:
    """A change made before get() is called is always seen, even when another thread's probe
    was already running."""
    root = git_repo({"a.py": "x = 1\n"})
    check = SharedCheck(root)
    stop = threading.Event()

    def hammer() -> None:
        while not stop.is_set():
            check.get()

    other = threading.Thread(target=hammer)
    other.start()
    try:
        for n in range(30):
            (root / "a.py").write_text(f"x = {n + 2}\n")
            probe = check.get()
            assert probe is not None
            assert probe.key == Prober(root).probe().key  # what a probe made now sees
    finally:
        stop.set()
        other.join(30)


def test_an_edit_inside_an_untracked_folder_changes_the_key(git_repo: Any) -> None:
    """A file of a folder git does not track yet, edited in place: the state hash reads it, so
    the probe must tell the states apart (git's ``--untracked-files=normal`` would list only
    ``pkg/``, whose metadata an edit of a file inside does not change), and the notice names
    the file."""
    root = git_repo({"a.py": "x = 1\n"})
    (root / "pkg").mkdir()
    (root / "pkg/m.py").write_text("def f():\n    return 1\n")
    prober = Prober(root)
    before, state_before = prober.probe(), full_state(root)
    (root / "pkg/m.py").write_text("def f():\n    return 'a longer body'\n")
    after = prober.probe()
    assert full_state(root) != state_before  # the index would differ ...
    assert after.key != before.key  # ... so the served answer must not pass as fresh
    assert changed_paths(root, before, after) == ["pkg/m.py"]
    check = SharedCheck(root)
    probe = check.get()
    assert probe is not None
    assert probe.key == after.key


def test_a_git_probe_names_head_and_each_changed_path_as_git_does(git_repo: Any) -> None:
    """HEAD is the commit ``git rev-parse`` names; paths with spaces (inner and leading) are
    read whole from the porcelain records; a staged rename is both of its paths."""
    names = ["a b.py", " lead.py", "old.py", "keep.py"]
    root = git_repo({name: f"x = {i}\n" for i, name in enumerate(names)})
    before = Prober(root).probe()
    assert before.head == git(root, "rev-parse", "HEAD").strip()
    (root / "a b.py").write_text("x = 'edited'\n")
    (root / " lead.py").write_text("x = 'edited'\n")
    git(root, "mv", "old.py", "new.py")
    after = Prober(root).probe()
    assert sorted(after.entries) == sorted(["a b.py", " lead.py", "old.py", "new.py"])
    assert changed_paths(root, before, after) == sorted([" lead.py", "a b.py", "new.py", "old.py"])


def test_a_committed_rename_names_both_paths(git_repo: Any) -> None:
    root = git_repo({"old.py": "x = 1\n", "keep.py": "y = 2\n"})
    before = Prober(root).probe()
    git(root, "mv", "old.py", "new.py")
    git(root, "commit", "-q", "-m", "rename")
    after = Prober(root).probe()
    assert after.entries == {}  # nothing left uncommitted: only HEAD's diff names them
    assert changed_paths(root, before, after) == ["new.py", "old.py"]


def test_the_first_commit_of_a_repository(git_repo: Any) -> None:
    """Before its first commit a repository has no HEAD; after it, the committed file is named
    as changed (no diff against a commit that does not exist)."""
    root = git_repo({"a.py": "x = 1\n"}, commit=False)
    before = Prober(root).probe()
    assert before.head is None
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    after = Prober(root).probe()
    assert after.head == git(root, "rev-parse", "HEAD").strip()
    assert changed_paths(root, before, after) == ["a.py"]


def test_junk_folders_at_any_depth_are_not_probed(git_repo: Any) -> None:
    root = git_repo({"a.py": "x = 1\n"})
    for rel in ["node_modules/x.js", "pkg/__pycache__/m.pyc", "pkg/deep/.venv/lib.py"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("junk\n")
    (root / "pkg/kept.js").write_text("kept\n")
    assert sorted(Prober(root).probe().entries) == ["pkg/kept.js"]


def test_a_name_that_is_not_utf8_is_probed(git_repo: Any) -> None:
    """A file name with a byte that is not UTF-8 (possible on Linux) does not fail the probe,
    and an edit of that file changes the key."""
    root = git_repo({"a.py": "x = 1\n"})
    odd = os.path.join(os.fsencode(root), b"bad\xff.py")
    with open(odd, "wb") as handle:
        handle.write(b"x = 1\n")
    prober = Prober(root)
    before = prober.probe()
    assert sorted(before.entries) == [os.fsdecode(b"bad\xff.py")]
    with open(odd, "ab") as handle:
        handle.write(b"y = 2\n")
    assert prober.probe().key != before.key


def test_a_merge_conflict_is_probed(git_repo: Any) -> None:
    """A file git left unmerged (truth: ``git diff --diff-filter=U``) is among the entries."""
    root = git_repo({"a.py": "x = 1\n", "b.py": "y = 1\n"})
    git(root, "checkout", "-q", "-b", "other")
    (root / "a.py").write_text("x = 'other'\n")
    git(root, "commit", "-q", "-am", "other")
    git(root, "checkout", "-q", "main")
    (root / "a.py").write_text("x = 'main'\n")
    git(root, "commit", "-q", "-am", "main")
    merged = subprocess.run(["git", "merge", "-q", "other"], cwd=root, capture_output=True)
    assert merged.returncode != 0
    unmerged = git(root, "diff", "--name-only", "--diff-filter=U").split()
    assert unmerged == ["a.py"]
    assert sorted(Prober(root).probe().entries) == unmerged
