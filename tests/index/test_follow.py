"""What one batch of file-system events does to the followed index (``codeagent watch``),
driven batch by batch on a real git repository: nothing when nothing indexed changed (an
ignored file, a save of the same bytes), one update naming the changed files otherwise, a
failure said and survived.

Truth: the state hash of a fresh discovery, and the files the test wrote."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from codeagent import cancel
from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index.follow import Follower
from codeagent.repo.state import repo_id
from codeagent.repo.watch import RepoWatch
from conftest import git
from server_helpers import state_of

FILES = {"a.py": "def a():\n    return 1\n", "b.py": "B = 2\n", ".gitignore": "out/\n"}


def follower(root: Path) -> Follower:
    settings = Settings.load(embed="none")
    return Follower(root, settings, RepoWatch(root, ignore=[settings.home]), embedder=None)


def test_a_batch_updates_only_when_an_indexed_file_changed(git_repo: Any) -> None:
    root = git_repo(FILES)
    follow = follower(root)
    first = follow.first()
    assert first.state_hash == state_of(root)
    assert follow.on_batch(set()) is None  # nothing happened

    (root / "out").mkdir()
    (root / "out/gen.py").write_text("G = 1\n")  # .gitignore'd
    assert follow.on_batch({"out/gen.py"}) is None

    (root / "a.py").write_text("def a():\n    return 2\n")
    (root / "c.py").write_text("C = 3\n")
    update = follow.on_batch({"a.py", "c.py"})
    assert update is not None
    assert update.error is None
    assert update.changed == ["a.py", "c.py"]
    assert update.stats is not None
    assert update.stats.state_hash == state_of(root) != first.state_hash
    assert (Path(update.stats.cache_path) / "manifest.json").is_file()
    assert Path(update.stats.cache_path).parent.name == repo_id(root)
    assert follow.updates == 1

    # The same bytes written again, with a new modification time: no update.
    before = os.stat(root / "b.py").st_mtime_ns
    (root / "b.py").write_text("B = 2\n")
    os.utime(root / "b.py", ns=(before + 10**9, before + 10**9))
    assert follow.on_batch({"b.py"}) is None
    assert follow.updates == 1


def test_a_commit_is_an_update_and_a_failure_is_said_and_survived(git_repo: Any) -> None:
    root = git_repo(FILES)
    follow = follower(root)
    follow.first()
    (root / "a.py").write_text("def a():\n    return 5\n")
    git(root, "commit", "-qam", "five")
    update = follow.on_batch({".git/index", ".git/refs/heads/main", "a.py"})
    assert update is not None
    assert update.stats is not None
    assert update.stats.state_hash == state_of(root)
    assert update.changed == ["a.py"]  # git's files are not named: the state's are

    for name in ("a.py", "b.py"):
        (root / name).unlink()
    (root / ".gitignore").unlink()
    failed = follow.on_batch({"a.py", "b.py", ".gitignore"})
    assert failed is not None
    assert failed.stats is None
    assert failed.error is not None
    assert failed.error.startswith("no indexable files")

    (root / "a.py").write_text("def a():\n    return 6\n")
    back = follow.on_batch({"a.py"})
    assert back is not None
    assert back.stats is not None
    assert back.stats.state_hash == state_of(root)


class Held(HashEmbedder):
    """``hash:16`` that, once ``held`` is set, waits in its next batch until the update's
    cancel token is cancelled (then the batch raises, as a real embedder's check does)."""

    def __init__(self) -> None:
        super().__init__(16)
        self.held = False
        self.started = threading.Event()
        self.saw_cancel = False

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if self.held:
            self.started.set()
            deadline = time.monotonic() + 30
            while not cancel.current().cancelled and time.monotonic() < deadline:
                time.sleep(0.01)
            self.saw_cancel = cancel.current().cancelled
            cancel.check()
        return super().embed_documents(texts)


def test_stopping_cancels_the_update_under_way(git_repo: Any) -> None:
    """Ctrl-C in `codeagent watch` stops the follower: the update running in the keeper's
    thread is cancelled at its next check, and the loop returns without a report."""
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    embedder = Held()
    follow = Follower(root, settings, RepoWatch(root, ignore=[settings.home]), embedder)
    follow.first()
    embedder.held = True
    (root / "a.py").write_text("def a():\n    return 3\n")
    got: list[object] = []
    thread = threading.Thread(target=lambda: got.append(follow.on_batch({"a.py"})))
    thread.start()
    assert embedder.started.wait(30), "the update never reached the embedder"
    follow.stop()
    thread.join(30)
    assert not thread.is_alive()
    assert got == [None]
    assert embedder.saw_cancel
    updater = follow.keeper.updater
    deadline = time.monotonic() + 30
    while updater.error is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert updater.error == "interrupted"
    assert follow.updates == 0
