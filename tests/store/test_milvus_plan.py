"""The calls ``store/milvus_client.py`` makes, recorded by a client that answers as a Milvus
server does where Milvus Lite is lenient: a server refuses an output field its schema lacks
("field ... not exist"), refuses to drop an alias that does not exist (the Milvus API
reference for drop_alias: "ensure that the alias exists. Otherwise, exceptions will occur"),
refuses to drop a collection an alias still points at, and a query returns at most ``limit``
rows. Milvus Lite accepts all four, so only a recorded client shows them. Truth: the calls
made (how many, which keys in each), and the keys the server holds."""

from __future__ import annotations

import hashlib
import itertools
import sys
import types
from typing import Any

import pytest

from codeagent.store import milvus_client as mc

FIELDS = {"key", "vector"}  # the schema create_collection makes


class ServerRefused(Exception):
    pass


class Server:
    """One collection's keys, the aliases, the collections; every call kept in ``calls``."""

    def __init__(self, keys: list[str] = [], collections: list[str] = []) -> None:  # noqa: B006
        self.keys = list(keys)
        self.collections = set(collections)
        self.aliases: dict[str, str] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def _fields(self, output_fields: list[str] | None) -> None:
        for field in output_fields or []:
            if field not in FIELDS:
                raise ServerRefused(f"field {field} not exist")

    def get_collection_stats(self, name: str) -> dict[str, Any]:
        return {"row_count": len(self.keys)}

    def query(
        self,
        name: str,
        *,
        filter: str,
        output_fields: list[str] | None = None,
        limit: int | None = None,
    ) -> Any:
        self.calls.append(("query", {"filter": filter, "limit": limit}))
        self._fields(output_fields)
        if filter == 'key != ""':
            found = [k for k in self.keys if k != ""]
        else:
            prefix = filter.removeprefix('key like "').removesuffix('%"')
            found = [k for k in self.keys if k.startswith(prefix)]
        return [{"key": k} for k in found[:limit]]

    def insert(self, name: str, data: list[dict[str, Any]]) -> None:
        self.calls.append(("insert", {"keys": [row["key"] for row in data]}))

    def delete(self, name: str, ids: list[str]) -> None:
        self.calls.append(("delete", {"keys": list(ids)}))

    def get(self, name: str, ids: list[str], output_fields: list[str] | None = None) -> Any:
        self._fields(output_fields)
        return [{"key": k} for k in ids if k in self.keys]

    def has_collection(self, name: str) -> bool:
        return name in self.collections

    def load_collection(self, name: str) -> None:
        pass

    def list_aliases(self) -> dict[str, Any]:
        return {"aliases": list(self.aliases)}

    def describe_alias(self, alias: str) -> dict[str, Any]:
        return {"alias": alias, "collection_name": self.aliases[alias]}

    def drop_alias(self, alias: str) -> None:
        if alias not in self.aliases:
            raise ServerRefused(f"alias {alias} does not exist")
        del self.aliases[alias]

    def list_collections(self) -> list[str]:
        return sorted(self.collections)

    def drop_collection(self, name: str) -> None:
        if name in self.aliases.values():
            raise ServerRefused(f"collection {name} has aliases: drop them first")
        self.collections.discard(name)


def keys(n: int) -> list[str]:
    return [hashlib.sha256(str(i).encode()).hexdigest() for i in range(n)]


def hex_prefixes(width: int) -> set[str]:
    return {"".join(p) for p in itertools.product("0123456789abcdef", repeat=width)}


@pytest.mark.parametrize(
    ("rows", "cap", "width"),
    [
        (300, 16384, 0),  # the real cap: one query
        (32, 64, 0),  # exactly half the cap: still one query
        (33, 64, 1),  # past half: one query per first hex digit
        (300, 64, 1),
        (400, 64, 1),  # 25 a prefix: under half the cap
        (520, 64, 2),  # 32.5 a prefix: over half the cap, so two digits
        (130, 16, 2),  # 8.1 a prefix: over half of 16
    ],
)
def test_every_key_is_read_by_the_fewest_prefixes_under_half_the_cap(
    monkeypatch: pytest.MonkeyPatch, rows: int, cap: int, width: int
) -> None:
    """Keys are hex digests, so each prefix of ``width`` hex digits holds about rows/16**width
    of them; the prefixes are the shortest that keep that at most half the cap (room for an
    uneven split), and every query asks for at most the cap."""
    monkeypatch.setattr(mc, "QUERY_ROWS", cap)
    server = Server(keys(rows))
    assert mc.all_keys(server, "c") == set(server.keys)
    filters = [call["filter"] for _, call in server.calls]
    assert {call["limit"] for _, call in server.calls} == {cap}
    if width == 0:
        assert filters == ['key != ""']
    else:
        assert sorted(filters) == sorted(f'key like "{p}%"' for p in hex_prefixes(width))


def test_rows_are_inserted_and_deleted_once_each_in_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Milvus server keeps a row inserted twice twice (it does not deduplicate primary keys
    on insert), so each key must go in exactly one batch."""
    monkeypatch.setattr(mc, "BATCH", 7)
    server = Server()
    names = keys(30)
    mc.insert_rows(server, "c", [(k, FakeRow()) for k in names])
    mc.delete_rows(server, "c", names)
    for kind in ("insert", "delete"):
        batches = [call["keys"] for made, call in server.calls if made == kind]
        assert [len(b) for b in batches] == [7, 7, 7, 7, 2]
        assert [k for b in batches for k in b] == names


class FakeRow:
    def tolist(self) -> list[float]:
        return [1.0, 0.0]


def test_a_state_is_read_by_its_key_field() -> None:
    alias = "codeagent_s"
    server = Server(keys(2), collections=[f"{alias}{mc.STATES}"])
    assert mc.has_state(server, alias, keys(2)[1]) is True
    assert mc.has_state(server, alias, keys(3)[2]) is False


def test_an_alias_is_dropped_before_its_collections() -> None:
    alias, other = "codeagent_a", "codeagent_b"
    live, leftover = f"{alias}{mc.GENERATION}2", f"{alias}{mc.GENERATION}1"
    kept = f"{other}{mc.GENERATION}1"
    server = Server(collections=[live, leftover, f"{alias}{mc.STATES}", kept])
    server.aliases = {alias: live, other: kept}
    assert mc.drop_alias(server, alias) == 3
    assert server.aliases == {other: kept}
    assert server.collections == {kept}


def test_a_leftover_without_an_alias_is_dropped_without_dropping_an_alias() -> None:
    alias = "codeagent_a"
    server = Server(collections=[f"{alias}{mc.GENERATION}1"])  # a writer killed mid-write
    assert mc.drop_alias(server, alias) == 1
    assert server.collections == set()


def test_closing_releases_the_milvus_lite_engines_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Milvus Lite file's engine is released (the file is then free for another process);
    a server's connection is only closed: there is no engine of ours behind it."""
    released: list[str] = []
    closed: list[str] = []

    class Client:
        def __init__(self, uri: str) -> None:
            self.uri = uri

        def close(self) -> None:
            closed.append(self.uri)

    manager = types.ModuleType("milvus_lite.server_manager")
    manager.server_manager_instance = types.SimpleNamespace(  # type: ignore[attr-defined]
        release_server=released.append
    )
    monkeypatch.setitem(sys.modules, "milvus_lite", types.ModuleType("milvus_lite"))
    monkeypatch.setitem(sys.modules, "milvus_lite.server_manager", manager)
    uris = ["/data/vectors.db", "http://milvus.internal:19530", "https://milvus.example.com"]
    monkeypatch.setattr(mc, "_clients", {uri: Client(uri) for uri in uris})
    mc.close_clients()
    assert closed == uris
    assert released == ["/data/vectors.db"]
    assert mc._clients == {}
