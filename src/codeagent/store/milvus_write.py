"""Writing one entry's rows behind a repository's alias in Milvus, two ways:

- no collection behind the alias (or one of another dimension): a new collection is
  written in full and flushed, then the alias is switched to it in one call, then the old
  one is dropped. A writer killed before the switch leaves an unaliased collection that no
  entry names; the next writer drops it.
- otherwise, an edit: only the rows whose keys are missing are inserted, then the rows no
  key of the new state names are deleted. The cache entry is written after both (by
  :class:`~codeagent.store.milvus_index.MilvusIndex`), so an interrupted edit leaves the
  previous entry complete and the new one unwritten.

Either way, every state's record of being whole is dropped before a row goes or the alias
moves. ``unique`` maps each row key to its row; both return ``(inserted, deleted)``.
"""

from __future__ import annotations

import time
from typing import Any

from codeagent.store.milvus_client import (
    GENERATION,
    all_keys,
    clear_states,
    create_collection,
    delete_rows,
    insert_rows,
)


def edit_rows(client: Any, alias: str, current: str, unique: dict[str, Any]) -> tuple[int, int]:
    """Insert the rows that are missing, then delete the rows no key names."""
    client.load_collection(current)  # a reopened Milvus Lite file starts released
    stored = all_keys(client, current)
    missing = [key for key in unique if key not in stored]
    insert_rows(client, current, [(key, unique[key]) for key in missing])
    client.flush(current)  # the new rows are kept before any old one goes
    stale = sorted(stored.difference(unique))
    if stale:
        clear_states(client, alias)  # first: no state is said whole while rows go
        delete_rows(client, current, stale)
        client.flush(current)
    return len(missing), len(stale)


def replace_rows(
    client: Any, alias: str, current: str | None, unique: dict[str, Any], dim: int
) -> tuple[int, int]:
    """Write a new collection in full, switch the alias to it, drop the old one."""
    name = f"{alias}{GENERATION}{time.time_ns():x}"
    create_collection(client, name, dim)
    insert_rows(client, name, list(unique.items()))
    client.flush(name)
    client.load_collection(name)
    clear_states(client, alias)
    switch_alias(client, alias, name, exists=current is not None)
    if current is not None:
        client.drop_collection(current)
    return len(unique), 0


def switch_alias(client: Any, alias: str, name: str, *, exists: bool) -> None:
    """Point ``alias`` at ``name`` in one call (readers see the old or the new)."""
    if exists:
        client.alter_alias(collection_name=name, alias=alias)
    else:
        client.create_alias(collection_name=name, alias=alias)
