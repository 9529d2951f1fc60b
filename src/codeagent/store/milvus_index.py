"""A dense index in Milvus: Milvus Lite embedded (``milvus:PATH.db``) or a Milvus server,
cluster or managed service (``milvus:http://HOST:19530``; ``https://`` with the token in
``CODEAGENT_MILVUS_TOKEN``), through one code path (pymilvus' ``MilvusClient``).

One repository's vectors from one embedder live behind one alias,
``codeagent_s<schema>_d<dim>_<embedder>_<repo>`` (the repository's cache folder name). Its
rows are keyed by their content (a digest of the row, which the embedding cache makes a
function of the embedder and the embedded text), so identical chunks share a row and a cache
entry records only which keys, in chunk order, it reads (``dense.milvus.json``). How an
entry's rows are written (a new collection behind the alias, or an edit in place) is
:mod:`codeagent.store.milvus_write`'s; the cache entry is written after them.

Opening an entry checks that every key it reads is behind the alias (else
:class:`CorruptIndexError`: the entry is rebuilt, re-inserting only what is missing): one
lookup in ``<alias>__states``, where each writer records its key set's digest once its rows
are all in, and every record is dropped before any row is deleted or the alias switched;
without a record, every key is looked up (and the record made). A search over the alias
drops rows this entry does not read. A Milvus that cannot be reached
is one :class:`BackendUnavailableError` line; the store then answers from BM25 + symbols.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.errors import BackendUnavailableError
from codeagent.paths import default_home
from codeagent.store.entry_files import CorruptIndexError
from codeagent.store.milvus_client import (
    aliased,
    client_for,
    count_present,
    dim_of,
    drop_leftovers,
    drop_repository,
    has_state,
    key_of,
    mark_state,
    parse_uri,
    reason,
)
from codeagent.store.milvus_write import edit_rows, replace_rows

if TYPE_CHECKING:
    import numpy as np

SCHEMA = 1  # the collection's fields and index; part of the backend id (the fingerprint)
LITE_FILE = "milvus.db"  # bare ``milvus``: Milvus Lite in $CODEAGENT_HOME
MAX_LIMIT = 16384  # Milvus' largest top-k


def row_keys(vectors: np.ndarray) -> list[str]:
    """Each row's content key: 32 hex digits of the sha256 of its float32 bytes."""
    import numpy as np

    rows = np.ascontiguousarray(vectors, dtype=np.float32)
    return [hashlib.sha256(row.tobytes()).hexdigest()[:32] for row in rows]


def key_set_digest(keys: Any) -> str:
    """The digest of a set of row keys (what a state's marker in Milvus is keyed by)."""
    return hashlib.sha256("\n".join(sorted(keys)).encode()).hexdigest()[:32]


def alias_for(entry_file: Path, dim: int, embedder_id: str) -> str:
    """The alias of one repository (the cache folder holding ``entry_file``'s entry) and one
    embedder: ``codeagent_s<schema>_d<dim>_<embedder>_<repository>``."""
    repo = re.sub(r"[^A-Za-z0-9_]", "_", entry_file.parent.parent.name)[-120:]
    readable = re.sub(r"[^A-Za-z0-9]+", "_", embedder_id)[:24]
    embedder = f"{readable}_{hashlib.sha256(embedder_id.encode()).hexdigest()[:8]}"
    return f"codeagent_s{SCHEMA}_d{dim}_{embedder}_{repo}"


class MilvusIndex:
    """A :class:`~codeagent.store.dense.DenseIndex` whose rows live in Milvus."""

    backend = f"milvus-s{SCHEMA}"
    file_name = "dense.milvus.json"  # the entry's list of its rows, and its Milvus
    requires = ("pymilvus",)  # the module it imports (`codeagent doctor`)
    external = True  # rows live outside the entry: check them when the entry is opened
    uri = ""  # set by configured(); empty: Milvus Lite in $CODEAGENT_HOME

    def __init__(self, dim: int, keys: list[str] | None = None, alias: str = "") -> None:
        self.dim = dim
        self.embedder_id = ""  # set by the store before the first add (it names the alias)
        self.keys: list[str] = keys or []  # row i's key
        self.alias = alias  # set once saved or loaded: searches go to Milvus
        self.inserted = 0  # rows the last save wrote (an edit writes only the changed ones)
        self.deleted = 0
        self._pending: list[np.ndarray] = []  # rows added, not yet written
        self._rows: dict[str, list[int]] = {}
        self._client: Any = None  # the client that loaded the collection for searching

    @classmethod
    def drop_repository(cls, repo_dir: Path) -> list[str]:
        """Drop the Milvus rows of a repository's entries before its cache folder goes."""
        return drop_repository(repo_dir, cls.file_name)

    @classmethod
    def configured(cls, arg: str) -> type[MilvusIndex]:
        """``PATH.db`` (Milvus Lite) or ``http(s)://HOST:PORT`` -> the class using it."""
        return type(cls.__name__, (cls,), {"uri": parse_uri(arg)})

    @classmethod
    def target(cls) -> str:
        return cls.uri or str(default_home() / LITE_FILE)

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, vectors: np.ndarray) -> None:
        import numpy as np

        rows = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        self.keys.extend(row_keys(rows))
        self._pending.append(rows)
        self._rows = {}

    def _row_map(self) -> dict[str, list[int]]:
        if not self._rows:
            for i, key in enumerate(self.keys):
                self._rows.setdefault(key, []).append(i)
        return self._rows

    # -- search ---------------------------------------------------------------------------

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        scores = np.full((len(queries), k), np.finfo(np.float32).min, dtype=np.float32)
        ids = np.full((len(queries), k), -1, dtype=np.int64)
        if not self.alias:  # not written yet: exact search over the rows in memory
            rows = np.vstack(self._pending) if self._pending else np.zeros((0, self.dim))
            product = np.asarray(queries, dtype=np.float32) @ rows.T.astype(np.float32)
            best = np.argsort(-product, axis=1, kind="stable")[:, :k]
            found = np.take_along_axis(product, best, axis=1)
            scores[:, : best.shape[1]], ids[:, : best.shape[1]] = found, best
            return scores, ids
        rows_of = self._row_map()
        for q, query in enumerate(np.asarray(queries, dtype=np.float32)):
            try:
                hits = self._search_one(query, k, rows_of)
            except BackendUnavailableError:
                raise
            except Exception as exc:
                raise BackendUnavailableError(
                    f"Milvus at {self.target()} failed searching {self.alias}: {reason(exc)}"
                ) from exc
            for j, (row, score) in enumerate(hits[:k]):
                ids[q, j], scores[q, j] = row, score
        return scores, ids

    def _search_one(
        self, query: np.ndarray, k: int, rows_of: dict[str, list[int]]
    ) -> list[tuple[int, float]]:
        """This entry's best ``k`` rows; rows of other states behind the alias are skipped
        (asked for more until ``k`` are found or Milvus has no more)."""
        client = client_for(self.target())
        if self._client is not client:  # a Milvus Lite engine started again loads it again
            client.load_collection(self.alias)
            self._client = client
        limit = min(max(k, 16), MAX_LIMIT)
        while True:
            answer = client.search(
                self.alias, data=[query.tolist()], limit=limit, output_fields=["key"],
                search_params={"metric_type": "IP"}, anns_field="vector",
            )  # fmt: skip
            found = list(answer[0])
            hits = [
                (row, float(hit["distance"]))
                for hit in found
                for row in rows_of.get(key_of(hit), [])
            ]
            if len(hits) >= k or len(found) < limit or limit == MAX_LIMIT:
                return hits
            limit = min(limit * 4, MAX_LIMIT)

    # -- writing --------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the rows to Milvus (see the module's docstring), then the entry's file."""
        import numpy as np

        alias = alias_for(path, self.dim, self.embedder_id)
        client = client_for(self.target())
        try:
            rows = np.vstack(self._pending) if self._pending else np.zeros((0, self.dim))
            unique = dict(zip(self.keys, rows, strict=True))  # key -> its row (first of equals)
            current = aliased(client, alias)
            if current is not None and dim_of(client, current) == self.dim:
                self.inserted, self.deleted = edit_rows(client, alias, current, unique)
            else:
                self.inserted, self.deleted = replace_rows(client, alias, current, unique, self.dim)
            drop_leftovers(client, alias)
            mark_state(client, alias, key_set_digest(unique))
        except (BackendUnavailableError, CorruptIndexError):
            raise
        except Exception as exc:
            raise BackendUnavailableError(
                f"Milvus at {self.target()} failed writing {alias}: {reason(exc)}"
            ) from exc
        self.alias = alias
        self._pending = []
        fields = {
            "schema": SCHEMA,
            "dim": self.dim,
            "alias": alias,
            "uri": self.target(),  # where the rows are: `cache clear` drops them there
            "keys": self.keys,
        }
        path.write_text(json.dumps(fields), encoding="utf-8")

    # -- opening --------------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path) -> MilvusIndex:
        """The entry's index; CorruptIndexError unless every row it reads is in Milvus."""
        try:
            fields = json.loads(path.read_text(encoding="utf-8"))
            dim, alias, keys = int(fields["dim"]), str(fields["alias"]), list(fields["keys"])
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise CorruptIndexError(f"unreadable dense index file {path.name}: {exc}") from exc
        client = client_for(cls.target())
        try:
            current = aliased(client, alias)
            wanted = sorted(set(keys))
            present = 0
            if current is not None:
                client.load_collection(current)
                digest = key_set_digest(wanted)
                if has_state(client, alias, digest):  # recorded whole: one lookup
                    present = len(wanted)
                else:  # not recorded (or forgotten by an edit since): every key looked up
                    present = count_present(client, alias, wanted)
                    if present == len(wanted):
                        mark_state(client, alias, digest)
        except Exception as exc:
            raise BackendUnavailableError(
                f"Milvus at {cls.target()} failed reading {alias}: {reason(exc)}"
            ) from exc
        if present != len(wanted):
            raise CorruptIndexError(
                f"index at {path.parent}: {len(wanted) - present} of its {len(wanted)} rows"
                f" are not in Milvus ({alias})"
            )
        return cls(dim, keys, alias)
