"""The per-question probe a served answer starts from (``index.freshness.SharedCheck``): a
question never gets a probe that began before it was asked.

Made deterministic with events, not sleeps: the first probe is held after it has read the
repository, the file is edited, and a second question is asked while the first probe is
still running. Truth: a probe made afterwards by a separate ``Prober`` (``git status`` and the
files' metadata as they are now).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from codeagent.index.freshness import SharedCheck
from codeagent.repo.probe import Probe, Prober

WAIT = 30  # seconds: a bound on a hang, never a pace


class _WatchedCondition(threading.Condition):
    """A condition that says when a thread starts waiting on it."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        self.waiting.set()
        return super().wait(timeout)


def test_a_question_asked_during_a_probe_gets_a_later_probe(
    git_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo({"a.py": "x = 1\n"})
    read, go = threading.Event(), threading.Event()
    real = Prober.probe
    calls = 0

    def held(self: Prober) -> Probe:
        nonlocal calls
        calls += 1
        probe = real(self)
        if calls == 1:  # the first probe has read the repository; it finishes when told
            read.set()
            assert go.wait(WAIT)
        return probe

    monkeypatch.setattr(Prober, "probe", held)
    check = SharedCheck(root)
    cond = _WatchedCondition()
    check._cond = cond
    got: dict[str, Probe | None] = {}
    first = threading.Thread(target=lambda: got.update(first=check.get()))
    first.start()
    assert read.wait(WAIT)
    (root / "a.py").write_text("x = 'edited after the first probe read the file'\n")
    second = threading.Thread(target=lambda: got.update(second=check.get()))
    second.start()
    assert cond.waiting.wait(WAIT)  # the second question waits for the running probe
    go.set()
    first.join(WAIT)
    second.join(WAIT)
    now = real(Prober(root))
    assert got["first"] is not None
    assert got["second"] is not None
    assert got["first"].key != now.key  # the first probe saw the file before the edit
    assert got["second"].key == now.key  # the second question's probe saw the edit
    assert check.probes == 2


def test_the_catching_up_notice_names_what_changed(git_repo: Any) -> None:
    """The notice names the files the test edited (sorted, the first three, then "…"), the
    served state's first 12 characters, and the update's error when there is one."""
    from types import SimpleNamespace

    from codeagent.index.freshness import Snapshot, catching_up_notice

    names = ["a.py", "b.py", "c.py", "d.py", "e.py"]
    root = git_repo({name: "x = 1\n" for name in names})
    state = "0123456789abcdef" * 4
    served = Snapshot(SimpleNamespace(state=state), Prober(root).probe(), 1)  # type: ignore[arg-type]
    (root / "c.py").write_text("x = 2\n")
    one = Prober(root).probe()
    assert catching_up_notice(root, served, one, None) == (
        "answering from the state before 1 changed file (c.py) (state 0123456789ab);"
        " the index is catching up"
    )
    for name in names:
        (root / name).write_text("x = 3\n")
    every = Prober(root).probe()
    assert catching_up_notice(root, served, every, "disk full") == (
        "answering from the state before 5 changed files (a.py, b.py, c.py, …)"
        " (state 0123456789ab): the index could not be updated: disk full"
    )
    (root / "e.py").write_text("x = 1\n")
    (root / "d.py").write_text("x = 1\n")
    three = Prober(root).probe()
    assert "3 changed files (a.py, b.py, c.py) " in catching_up_notice(root, served, three, None)
    unknown = Snapshot(SimpleNamespace(state=state), None, 1)  # type: ignore[arg-type]
    assert catching_up_notice(root, unknown, every, None) == (
        "answering from the state before the repository's last changes (state 0123456789ab);"
        " the index is catching up"
    )


def test_each_question_after_a_probe_gets_its_own(git_repo: Any) -> None:
    root = git_repo({"a.py": "x = 1\n"})
    check = SharedCheck(root)
    first = check.get()
    (root / "a.py").write_text("x = 2\n")
    second = check.get()
    assert first is not None
    assert second is not None
    assert second.key == Prober(root).probe().key  # the second saw the edit
    assert first.key != second.key
    assert check.probes == 2


def test_a_repository_that_cannot_be_looked_at_gives_none_and_is_tried_again(
    git_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A probe that fails (here: git cannot be run) gives None, not an error; the next
    question probes again and gets the state once it can."""
    root = git_repo({"a.py": "x = 1\n"})
    check = SharedCheck(root)
    real = Prober.probe

    def failing(self: Prober) -> Probe:
        raise OSError("git: No such file or directory")

    monkeypatch.setattr(Prober, "probe", failing)
    assert check.get() is None
    monkeypatch.setattr(Prober, "probe", real)
    got = check.get()
    assert got is not None
    assert got.key == Prober(root).probe().key
    assert check.probes == 2


def test_a_snapshot_of_an_index_without_a_state_says_an_empty_one() -> None:
    from types import SimpleNamespace

    from codeagent.index.freshness import Snapshot

    assert Snapshot(SimpleNamespace(state=None), None, 1).state == ""  # type: ignore[arg-type]
    assert Snapshot(SimpleNamespace(state="abc"), None, 2).state == "abc"  # type: ignore[arg-type]


def test_the_notice_names_files_changed_by_a_commit(git_repo: Any) -> None:
    """A commit since the served state: the files come from the diff between the two HEAD
    commits in the served repository (git's own answer)."""
    from types import SimpleNamespace

    from codeagent.index.freshness import Snapshot, catching_up_notice
    from conftest import git

    root = git_repo({"a.py": "x = 1\n", "b.py": "y = 1\n"})
    served = Snapshot(SimpleNamespace(state="f" * 64), Prober(root).probe(), 1)  # type: ignore[arg-type]
    (root / "b.py").write_text("y = 2\n")
    git(root, "commit", "-qam", "edit b")
    now = Prober(root).probe()
    assert catching_up_notice(root, served, now, None) == (
        "answering from the state before 1 changed file (b.py) (state ffffffffffff);"
        " the index is catching up"
    )
