"""The Milvus calls of ``store/milvus_client.py`` one by one, on a real Milvus Lite file: the
schema it creates (read back with ``describe_collection`` and ``describe_index``), rows
written and counted in batches, every key read back under a per-query cap by key prefix, the
aliases and state records dropped, and pymilvus' errors as one line. Truth: what the test
wrote and what Milvus itself reports. The batch size and the query cap are lowered for the
test (their real values need tens of thousands of rows), so a few hundred rows span many
batches and prefixes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("milvus_lite")
pymilvus = pytest.importorskip("pymilvus")

from codeagent.store import milvus_client as mc  # noqa: E402

ROWS = 300


def digest(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()[:32]


KEYS = [digest(n) for n in range(ROWS)]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Milvus Lite file for the module (opening one costs about a second)."""
    mc.close_clients()
    yield mc.client_for(str(tmp_path_factory.mktemp("milvus") / "calls.db"))
    mc.close_clients()


@pytest.fixture
def filled(client: Any, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> str:
    """A fresh collection of ``ROWS`` rows written in batches of 7."""
    name = f"t_{request.node.name.split('[')[0][-40:]}"
    if client.has_collection(name):
        client.drop_collection(name)
    mc.create_collection(client, name, 2)
    monkeypatch.setattr(mc, "BATCH", 7)
    rows = [(key, np.array([1.0, n / ROWS], dtype=np.float32)) for n, key in enumerate(KEYS)]
    mc.insert_rows(client, name, rows)
    client.flush(name)
    client.load_collection(name)
    return name


def test_the_schema_is_a_key_and_an_exact_inner_product_index(client: Any) -> None:
    mc.create_collection(client, "schema_check", 5)
    described = client.describe_collection("schema_check")
    fields = {f["name"]: f for f in described["fields"]}
    assert fields["key"]["is_primary"] is True
    assert fields["key"]["params"]["max_length"] == 64  # a sha256 hex digest fits
    assert described["enable_dynamic_field"] is False
    assert described["auto_id"] is False
    assert mc.dim_of(client, "schema_check") == 5
    (index,) = client.list_indexes("schema_check")
    found = client.describe_index("schema_check", index)
    assert (found["field_name"], found["index_type"], found["metric_type"]) == (
        "vector", "FLAT", "IP"
    )  # fmt: skip


def test_rows_are_written_and_counted_in_batches(client: Any, filled: str) -> None:
    assert int(client.get_collection_stats(filled)["row_count"]) == ROWS
    absent = [digest(n) for n in range(ROWS, ROWS + 5)]
    assert mc.count_present(client, filled, KEYS[:100] + absent) == 100
    mc.delete_rows(client, filled, KEYS[:60])
    client.flush(filled)
    assert mc.count_present(client, filled, KEYS) == ROWS - 60


@pytest.mark.parametrize("cap", [64, 16])  # one hex digit of prefix, then two
def test_every_key_is_read_back_under_the_query_cap(
    client: Any, filled: str, monkeypatch: pytest.MonkeyPatch, cap: int
) -> None:
    """300 rows under a cap of 64 rows a query: one query would return 64 of them; split by
    the keys' first hex digit (about 19 a prefix), or by two digits under a cap of 16."""
    monkeypatch.setattr(mc, "QUERY_ROWS", cap)
    assert mc.all_keys(client, filled) == set(KEYS)


def test_aliases_leftovers_and_their_collections_are_dropped(client: Any) -> None:
    alias, other = "codeagent_a", "codeagent_b"
    for name in (
        f"{alias}{mc.GENERATION}1",
        f"{alias}{mc.GENERATION}2",
        f"{other}{mc.GENERATION}1",
    ):
        mc.create_collection(client, name, 2)
    client.create_alias(f"{alias}{mc.GENERATION}2", alias)
    client.create_alias(f"{other}{mc.GENERATION}1", other)
    assert mc.aliased(client, alias) == f"{alias}{mc.GENERATION}2"
    assert mc.aliased(client, "codeagent_none") is None
    mc.drop_leftovers(client, alias)  # generation 1: left by a writer killed mid-write
    names = set(client.list_collections())
    assert f"{alias}{mc.GENERATION}1" not in names
    assert f"{alias}{mc.GENERATION}2" in names
    mc.mark_state(client, alias, digest(1))
    assert mc.drop_alias(client, alias) == 2  # generation 2 and the state records
    assert alias not in client.list_aliases()["aliases"]
    assert not [n for n in client.list_collections() if n.startswith(alias)]
    assert mc.aliased(client, other) == f"{other}{mc.GENERATION}1"  # the other one is kept
    assert mc.drop_alias(client, other) == 1


def test_state_records_say_which_key_sets_are_whole(client: Any) -> None:
    alias = "codeagent_states"
    assert mc.has_state(client, alias, digest(1)) is False  # no records yet
    mc.mark_state(client, alias, digest(1))
    assert mc.has_state(client, alias, digest(1)) is True
    assert mc.has_state(client, alias, digest(2)) is False
    mc.clear_states(client, alias)
    assert mc.has_state(client, alias, digest(1)) is False


def test_a_pymilvus_error_is_one_line(client: Any) -> None:
    with pytest.raises(pymilvus.MilvusException) as raised:
        client.describe_collection("no_such_collection")
    line = mc.reason(raised.value)
    assert line == raised.value.message.strip().splitlines()[0]
    assert "no_such_collection" in line
    assert "\n" not in line
    assert mc.reason(ValueError("first\nsecond")) == "first"
    assert mc.reason(ValueError()) == "ValueError"  # no words: the error's kind
    locked = pymilvus.MilvusException(message="Open local milvus failed")
    assert mc.reason(locked) == (
        "Open local milvus failed"
        " (Milvus Lite opens a file from one process at a time: is another using it?)"
    )
    assert mc.reason(ValueError("Open local milvus failed")).endswith("is another using it?)")


def test_a_damaged_entry_file_does_not_stop_the_others_being_dropped(
    client: Any, tmp_path: Path
) -> None:
    uri = next(iter(mc._clients))
    alias = "codeagent_repo"
    mc.create_collection(client, f"{alias}{mc.GENERATION}1", 2)
    client.create_alias(f"{alias}{mc.GENERATION}1", alias)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "milvus.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "milvus.json").write_text(
        json.dumps({"uri": uri, "alias": alias}), encoding="utf-8"
    )
    assert mc.drop_repository(tmp_path, "milvus.json") == []
    assert alias not in client.list_aliases()["aliases"]


def test_a_milvus_that_fails_to_drop_is_one_line_per_milvus(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uri = next(iter(mc._clients))
    for n, alias in enumerate(("codeagent_x", "codeagent_y")):
        (tmp_path / str(n)).mkdir()
        entry = json.dumps({"uri": uri, "alias": alias})
        (tmp_path / str(n) / "milvus.json").write_text(entry, encoding="utf-8")

    def refused(_client: Any, alias: str) -> int:
        raise pymilvus.MilvusException(message=f"cannot drop {alias}\nat line 2")

    monkeypatch.setattr(mc, "drop_alias", refused)
    assert mc.drop_repository(tmp_path, "milvus.json") == [
        f"left 2 Milvus alias(es) of {tmp_path.name} at {uri}: cannot drop codeagent_x"
    ]
