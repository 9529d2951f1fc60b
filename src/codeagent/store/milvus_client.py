"""The Milvus client side of the milvus dense index (store/milvus_index.py): one client per
URI and process, the collection's schema, and the calls it makes, each in one place.

Errors from pymilvus are turned into one line by :func:`reason`; its own logger is quietened,
since every failure it logs is raised to codeagent as well.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from pathlib import Path
from typing import Any

from codeagent.errors import BackendUnavailableError, ConfigError

TOKEN_ENV = "CODEAGENT_MILVUS_TOKEN"  # the token sent to an https:// (or http://) server
BATCH = 2000  # rows per insert / keys per get or delete call
QUERY_ROWS = 16384  # the most rows one query returns
TIMEOUT = 10.0  # seconds to wait for a server
GENERATION = "__g"  # a collection is named alias + GENERATION + a hex time stamp
STATES = "__states"  # alias + STATES: one row per key set known to be whole behind the alias

# pymilvus, the Milvus Lite engine and the gRPC server it runs in a thread log tracebacks
# (a locked file, a call the engine does not implement) that the calls also raise or survive.
QUIET_LOGGERS = ("pymilvus", "milvus_lite", "grpc")

_clients: dict[str, Any] = {}  # uri -> MilvusClient (Milvus Lite opens a file once per process)
_clients_lock = threading.Lock()


def close_clients() -> None:
    """Close every open client and stop the Milvus Lite engines this process started (their
    files are then free for another process)."""
    with _clients_lock:
        for uri, client in _clients.items():
            client.close()
            if not _is_server(uri):
                from milvus_lite.server_manager import server_manager_instance

                server_manager_instance.release_server(uri)
        _clients.clear()


def _is_server(uri: str) -> bool:
    return uri.startswith(("http://", "https://"))


def client_for(uri: str) -> Any:
    """The process's client for ``uri``; BackendUnavailableError when it cannot be opened."""
    with _clients_lock:
        if uri in _clients:
            return _clients[uri]
        # gRPC's C core writes its own log lines (keepalive "too_many_pings") to stderr.
        os.environ.setdefault("GRPC_VERBOSITY", "NONE")
        try:
            from pymilvus import MilvusClient
        except ImportError as exc:
            raise BackendUnavailableError(
                "the milvus dense index needs pymilvus and milvus-lite:"
                " pip install 'codeagent[milvus]'"
            ) from exc
        for name in QUIET_LOGGERS:  # every error they log is raised to us: said once, by us
            logging.getLogger(name).setLevel(logging.CRITICAL)
        remote = _is_server(uri)
        if not remote:
            Path(uri).parent.mkdir(parents=True, exist_ok=True)
        try:
            client = MilvusClient(
                uri=uri, token=os.environ.get(TOKEN_ENV, "") if remote else "", timeout=TIMEOUT
            )
        except Exception as exc:
            raise BackendUnavailableError(f"Milvus at {uri} cannot be used: {reason(exc)}") from exc
        _clients[uri] = client
        return client


def reason(exc: Exception) -> str:
    """A pymilvus error's message on one line."""
    lines = str(getattr(exc, "message", "") or exc).strip().splitlines()
    line = lines[0] if lines else type(exc).__name__
    if line == "Open local milvus failed":
        line += " (Milvus Lite opens a file from one process at a time: is another using it?)"
    return line


def parse_uri(arg: str) -> str:
    arg = arg.strip()
    if arg.startswith(("http://", "https://")):
        if not re.fullmatch(r"https?://[^/\s]+/?", arg):
            raise ConfigError(f"milvus server {arg!r}: use http(s)://HOST:PORT")
        return arg.rstrip("/")
    if not arg.endswith(".db"):
        raise ConfigError(
            f"dense index milvus:{arg}: name a Milvus Lite file (PATH.db)"
            " or a server (http://HOST:19530)"
        )
    return str(Path(arg).expanduser().absolute())


def key_of(hit: Any) -> str:
    entity = hit.get("entity") or {}
    return str(entity.get("key", hit.get("key", hit.get("id"))))


def aliased(client: Any, alias: str) -> str | None:
    """The collection ``alias`` points at, or None."""
    if alias not in client.list_aliases().get("aliases", []):
        return None
    return str(client.describe_alias(alias=alias)["collection_name"])


def dim_of(client: Any, collection: str) -> int | None:
    for field in client.describe_collection(collection)["fields"]:
        if field["name"] == "vector":
            return int(field["params"]["dim"])
    return None


def create_collection(client: Any, name: str, dim: int) -> None:
    from pymilvus import DataType, MilvusClient

    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("key", DataType.VARCHAR, is_primary=True, max_length=64)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
    index = client.prepare_index_params()
    index.add_index(field_name="vector", index_type="FLAT", metric_type="IP")  # exact
    client.create_collection(name, schema=schema, index_params=index)


def insert_rows(client: Any, name: str, rows: list[tuple[str, Any]]) -> None:
    for start in range(0, len(rows), BATCH):
        batch = rows[start : start + BATCH]
        client.insert(name, [{"key": key, "vector": row.tolist()} for key, row in batch])


def all_keys(client: Any, name: str) -> set[str]:
    """Every key in collection ``name``: one query per key prefix, each under Milvus' cap of
    16,384 rows a query (keys are hex digests, so prefixes split them evenly)."""
    rows = int(client.get_collection_stats(name).get("row_count", 0))
    width = 0
    while rows / 16**width > QUERY_ROWS // 2:
        width += 1
    prefixes = [f"{n:0{width}x}" for n in range(16**width)] if width else [""]
    keys: set[str] = set()
    for prefix in prefixes:
        where = f'key like "{prefix}%"' if prefix else 'key != ""'
        found = client.query(name, filter=where, output_fields=["key"], limit=QUERY_ROWS)
        keys.update(str(row["key"]) for row in found)
    return keys


def delete_rows(client: Any, name: str, keys: list[str]) -> None:
    for start in range(0, len(keys), BATCH):
        client.delete(name, ids=keys[start : start + BATCH])


def count_present(client: Any, name: str, keys: list[str]) -> int:
    found = 0
    for start in range(0, len(keys), BATCH):
        found += len(client.get(name, ids=keys[start : start + BATCH], output_fields=["key"]))
    return found


def drop_leftovers(client: Any, alias: str) -> None:
    """Drop collections of this alias it does not point at (writers killed mid-write)."""
    live = aliased(client, alias)
    for name in client.list_collections():
        if name.startswith(f"{alias}{GENERATION}") and name != live:
            client.drop_collection(name)


def drop_alias(client: Any, alias: str) -> int:
    """Drop ``alias`` with every collection written behind it and its state records; returns
    the number of collections dropped."""
    if aliased(client, alias) is not None:
        client.drop_alias(alias=alias)
    dropped = 0
    for name in client.list_collections():
        if name.startswith(f"{alias}{GENERATION}") or name == f"{alias}{STATES}":
            client.drop_collection(name)
            dropped += 1
    return dropped


def clear_states(client: Any, alias: str) -> None:
    """Forget which key sets are whole (before any row of the alias is deleted or replaced)."""
    name = f"{alias}{STATES}"
    if client.has_collection(name):
        client.load_collection(name)
        client.delete(name, filter='key != ""')
        client.flush(name)


def mark_state(client: Any, alias: str, digest: str) -> None:
    """Record that the key set ``digest`` is whole behind ``alias``."""
    name = f"{alias}{STATES}"
    if not client.has_collection(name):
        create_collection(client, name, 2)  # Milvus wants a vector field: a constant one
    client.upsert(name, [{"key": digest, "vector": [1.0, 0.0]}])
    client.flush(name)


def has_state(client: Any, alias: str, digest: str) -> bool:
    """Whether the key set ``digest`` was recorded whole (and no row went since)."""
    name = f"{alias}{STATES}"
    if not client.has_collection(name):
        return False
    client.load_collection(name)
    return bool(client.get(name, ids=[digest], output_fields=["key"]))


def drop_repository(repo_dir: Path, entry_file: str) -> list[str]:
    """Drop, in each Milvus they were written to, the aliases (and their collections) that
    the entries (their ``entry_file``) of one repository's cache folder name; called before
    the folder is deleted. Returns one line per Milvus that could not be reached (its
    collections are left)."""
    targets: dict[str, set[str]] = {}
    for found in sorted(repo_dir.glob(f"*/{entry_file}")):
        try:
            fields = json.loads(found.read_text(encoding="utf-8"))
            uri, alias = str(fields["uri"]), str(fields["alias"])
        except (OSError, ValueError, TypeError, KeyError):
            continue  # damaged, or written before entries named their Milvus
        targets.setdefault(uri, set()).add(alias)
    problems = []
    for uri, aliases in sorted(targets.items()):
        try:
            client = client_for(uri)
            for alias in sorted(aliases):
                drop_alias(client, alias)
        except Exception as exc:
            problems.append(
                f"left {len(aliases)} Milvus alias(es) of {repo_dir.name} at {uri}:"
                f" {exc if isinstance(exc, BackendUnavailableError) else reason(exc)}"
            )
    return problems
