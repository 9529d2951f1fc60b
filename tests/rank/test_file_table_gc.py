"""A store's per-index tables are built with the cyclic garbage collector paused (a full
collection in the middle of the build cost 0.3 s of the first question at 50,000 chunks), and
the collector is as it was afterwards, whether the build ends or raises."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from codeagent.collector import gc_paused
from codeagent.rank import file_table as file_table_module
from codeagent.rank.file_table import file_table
from codeagent.records import Chunk
from codeagent.store.store import IndexStore


@pytest.fixture
def collecting() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def _store() -> IndexStore:
    chunks = [
        Chunk("pkg/a.py", 1, 3, "def parse(text):\n    return text.split()\n", "parse", "function"),
        Chunk("pkg/b.py", 1, 2, "class Reader:\n    pass\n", "Reader", "class"),
    ]
    return IndexStore.build(chunks, None, None)


def test_the_tables_are_built_with_the_collector_paused(
    collecting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    build = file_table_module._build_table

    def watched(store: IndexStore) -> file_table_module.FileTable:
        seen.append(gc.isenabled())
        return build(store)

    monkeypatch.setattr(file_table_module, "_build_table", watched)
    table = file_table(_store())
    assert seen == [False]
    assert gc.isenabled()
    assert table.paths == ["pkg/a.py", "pkg/b.py"]


def _fail_paused(inside: list[bool]) -> None:
    with gc_paused():
        inside.append(gc.isenabled())
        raise RuntimeError("the build failed")


def test_the_collector_comes_back_when_the_block_raises(collecting: None) -> None:
    inside: list[bool] = []
    with pytest.raises(RuntimeError):
        _fail_paused(inside)
    assert inside == [False]
    assert gc.isenabled()


def test_a_collector_paused_before_stays_paused(collecting: None) -> None:
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
