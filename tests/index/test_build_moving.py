"""A repository that changes while it is indexed: the entry cached under a state holds that
state's content. The change is made at the one moment a race would make it (after discovery
took the files' stamps, before git looks), in a real git repository; the truth is the files
on disk and git's own state hash of them, read after the build."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index import build as build_module
from codeagent.index.build import fingerprint, load_or_build
from codeagent.repo import stamps
from codeagent.repo.discover import discover
from codeagent.repo.state import state_hash
from codeagent.store.store import IndexStore
from conftest import GitRepoFactory

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
}
ADDED = "\n\ndef remove_from_cart(cart, item):\n    cart.remove(item)\n"


def names(store: IndexStore) -> set[str]:
    """The functions the index's symbol graph defines in ``shop/``."""
    graph = store.symbols
    return {d.name for path in FILES for d in graph.definitions_in(path)}


def change_when_git_looks(monkeypatch: pytest.MonkeyPatch, change: object) -> list[int]:
    """``change()`` once, when the build first asks git for the state; how many times it was."""
    real = build_module.git_state
    calls: list[int] = []

    def looking(*args: object, **kwargs: object) -> object:
        if not calls:
            change()  # type: ignore[operator]
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "git_state", looking)
    return calls


@pytest.mark.parametrize("how", ["append", "delete"])
def test_a_file_changed_while_git_is_asked_is_not_cached_under_the_new_state(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(stamps, "RACY_NS", 0)  # files written just now keep their stamps
    root = git_repo(FILES)
    settings = Settings.load(embed="none")
    time.sleep(0.05)  # past the files' change times: their stamps are taken
    first, _ = load_or_build(root, settings)
    assert "remove_from_cart" not in names(first)
    cart = root / "shop/cart.py"

    def change() -> None:
        if how == "append":
            with cart.open("a", encoding="utf-8") as handle:
                handle.write(ADDED)
        else:
            cart.unlink()

    change_when_git_looks(monkeypatch, change)
    during, built = load_or_build(root, settings)
    monkeypatch.undo()  # git looks as it does; stamps judged as they are
    after, opened = load_or_build(root, settings)

    truth = state_hash(discover(root), fingerprint(None), settings.git_index_dir)
    assert opened.state_hash == truth
    for store in (during, after):  # the build answers from what is there now, and caches it
        assert ("remove_from_cart" in names(store)) == (how == "append")
        assert ("add_to_cart" in names(store)) == (how == "append")
    assert built.state_hash == truth


def test_a_repository_that_never_keeps_still_is_indexed_and_said(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    root = git_repo(FILES)
    settings = Settings.load(embed="none")
    time.sleep(0.05)
    load_or_build(root, settings)
    models = root / "shop/models.py"
    real = build_module.git_state
    looks: list[int] = []

    def looking(*args: object, **kwargs: object) -> object:
        looks.append(1)
        with models.open("a", encoding="utf-8") as handle:  # a change at every look
            handle.write(f"\n\ndef step_{len(looks)}():\n    return {len(looks)}\n")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "git_state", looking)
    store, stats = load_or_build(root, settings)
    assert len(looks) == build_module.TRIES  # tried again, not for ever
    assert "step_1" in names(store)  # answered from the files read at the last try
    assert any("changed while it was indexed" in n for n in stats.notices), stats.notices
    monkeypatch.undo()
    entries = [p for p in Path(stats.cache_path).parent.iterdir() if p.name == stats.state_hash]
    assert not entries, "an index whose files moved under it was cached under a state"
    again, opened = load_or_build(root, settings)
    assert f"step_{len(looks)}" in names(again)  # every change made is in it
    assert opened.state_hash == state_hash(discover(root), fingerprint(None))
