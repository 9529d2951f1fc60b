"""`codeagent watch` and a workspace that answers first (`codeagent ask`, the REPL) keep their
index by one keeper's rules: a file added during the build is in the next answer, or that
answer says it is answered from the state before (naming the file).

Each is driven on a real git repository: the watched index's build embeds the chunks and the
test's embedder adds the file while it does; the answering-first workspace's full index is
built by a detached `codeagent index` (a real process, held at a gate) and the file is added
while that process runs. Truth: the file the test wrote, and a fresh discovery's state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from background_builds import SlowHash, gate_builds, wait_until_ended
from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.events import NoticeEvent, ResultEvent
from codeagent.index import background
from codeagent.index.build import fingerprint
from codeagent.index.follow import Follower
from codeagent.repo.discover import discover
from codeagent.repo.state import repo_id, state_hash
from codeagent.repo.watch import RepoWatch
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
}
ADDED = "shop/refunds.py"
QUESTION = "where is refund_order defined?"


def add_the_file(root: Path) -> None:
    (root / ADDED).write_text("def refund_order(order):\n    return order.total\n")


class Editing(HashEmbedder):
    """``hash:16``; its first batch of chunks adds the file (an edit during the build)."""

    def __init__(self, dim: int, root: Path) -> None:
        super().__init__(dim)
        self.root = root

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not (self.root / ADDED).exists():
            add_the_file(self.root)
        return super().embed_documents(texts)


def answer(workspace: Workspace, **kw: object) -> tuple[list[str], dict[str, object]]:
    notices: list[str] = []
    for event in workspace.ask_stream(QUESTION, **kw):  # type: ignore[arg-type]
        if isinstance(event, NoticeEvent):
            notices.append(event.text)
        if isinstance(event, ResultEvent):
            return notices, event.result.to_json()
    raise AssertionError("no result")


def fresh_or_said(root: Path, embedder: HashEmbedder, notices: list[str], result: dict) -> bool:
    """The keeper's rule for an answer after the edit; whether the answer was fresh."""
    paths = {s["path"] for s in result["sources"]}
    if ADDED in paths:
        assert result["state"] == state_hash(discover(root), fingerprint(embedder))
        return True
    [said] = [n for n in notices if n.startswith("answering from the state before")]
    assert ADDED in said, said
    return False


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The file whose creation lets the background builds run (created at the end in any case)."""
    gate = gate_builds(tmp_path, monkeypatch)
    yield gate
    gate.touch()


def test_watch_a_file_added_during_the_build_is_answered_or_said(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(llm="none", embed="hash:16")
    embedder = Editing(16, root)
    follower = Follower(root, settings, RepoWatch(root, ignore=[settings.home]), embedder)
    first = follower.first()
    assert (root / ADDED).exists()  # added while the chunks were embedded
    assert first.state_hash != state_hash(discover(root), fingerprint(embedder))
    pinned = follower.keeper.pin()  # what a question asked now answers from
    workspace = Workspace(root, settings, chat_model=None)
    notices, result = answer(workspace, index=pinned.index, notices=pinned.notices)
    fresh_or_said(root, embedder, notices, result)


def test_watch_an_answer_not_waiting_for_the_update_names_the_file_added_during_the_build(
    git_repo: GitRepoFactory,
) -> None:
    """The first index was read while the file was added (its probe cannot vouch for it); an
    answer that does not wait for the update says so and names the file."""
    root = git_repo(FILES)
    settings = Settings.load(llm="none", embed="hash:16", update_wait=0.0)
    embedder = Editing(16, root)
    follower = Follower(root, settings, RepoWatch(root, ignore=[settings.home]), embedder)
    follower.first()
    pinned = follower.keeper.pin()
    workspace = Workspace(root, settings, chat_model=None)
    notices, result = answer(workspace, index=pinned.index, notices=pinned.notices)
    assert not fresh_or_said(root, embedder, notices, result)


def test_answering_first_a_file_added_during_the_build_is_answered_or_said(
    git_repo: GitRepoFactory, gate: Path
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(llm="none", embed="hash:16")
    workspace = Workspace(root, settings, chat_model=None, background=True)
    before, result = answer(workspace)
    assert ADDED not in {s["path"] for s in result["sources"]}  # type: ignore[attr-defined]
    assert [n for n in before if n.startswith("dense search: 0 % of chunks")], before
    [building] = background.running(settings, repo_id(root))
    assert building.state == result["state"]  # the full index of that state, being built
    add_the_file(root)
    notices, result = answer(workspace)
    if fresh_or_said(root, SlowHash(16), notices, result):  # a new state, answered first
        assert result["state"] in {b.state for b in background.running(settings, repo_id(root))}
    gate.touch()
    wait_until_ended(settings, repo_id(root))
