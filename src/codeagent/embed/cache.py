"""A persistent cache of chunk vectors: (embedder id, sha256 of the embedded text) -> vector.

Shared by every repository and every state of it, so re-indexing after an edit, or at another
commit, embeds only texts never seen before. Each batch is written as soon as it is embedded:
an interrupted build (Ctrl-C, or its :mod:`codeagent.cancel` token cancelled, checked between
batches) keeps its finished batches and the next run reuses them.

A database that sqlite cannot read (garbled, truncated) is moved aside to
``cache.db.corrupt`` and a new one started; :attr:`EmbedCache.notices` says so. A write that
fails (full disk, read-only home) is a :class:`~codeagent.errors.CacheWriteError`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.home import make_private_dir, writing
from codeagent.progress import NullProgress, ProgressReporter

if TYPE_CHECKING:
    import numpy as np

    from codeagent.embed.embedders import Embedder

log = logging.getLogger(__name__)

SIZE_LIMIT = 8 * 2**30  # diskcache evicts least-recently-stored entries past this
DB_NAME = "cache.db"  # diskcache's database file
CORRUPT_NAME = DB_NAME + ".corrupt"


def text_key(embedder_id: str, text: str) -> str:
    return f"{embedder_id}:{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


@dataclass
class EmbedResult:
    vectors: np.ndarray  # (n, dim) float32, row i for texts[i]
    embedded: int  # texts sent to the embedder (distinct)
    reused: int  # texts whose vector came from the cache (duplicates counted)


class EmbedCache:
    """A diskcache directory of float32 vectors."""

    def __init__(self, directory: Path, *, home: Path | None = None) -> None:
        import diskcache

        self.directory = directory
        self.home = home or directory
        self.notices: list[str] = []
        with writing(self.home, "the embedding cache"):
            make_private_dir(directory)
            try:
                self._cache = diskcache.Cache(str(directory), size_limit=SIZE_LIMIT)
            except sqlite3.OperationalError:
                raise  # cannot open or write: the home's problem, reported as such
            except sqlite3.DatabaseError as exc:
                self._move_aside(exc)
                self._cache = diskcache.Cache(str(directory), size_limit=SIZE_LIMIT)

    def _move_aside(self, exc: Exception) -> None:
        """Set a database sqlite cannot read aside (one copy kept) so a new one can start."""
        db = self.directory / DB_NAME
        aside = self.directory / CORRUPT_NAME
        os.replace(db, aside)
        for suffix in ("-wal", "-shm"):
            (self.directory / (DB_NAME + suffix)).unlink(missing_ok=True)
        message = (
            f"the embedding cache {db} was damaged ({exc}); moved it to {aside.name} and"
            " started a new one (vectors are embedded again)"
        )
        log.info("%s", message)  # the caller shows the notice
        self.notices.append(message)

    def close(self) -> None:
        self._cache.close()

    def __enter__(self) -> EmbedCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self._cache)

    def get_many(self, keys: list[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for key in keys:
            value = self._cache.get(key)
            if isinstance(value, bytes):
                found[key] = value
        return found

    def set_many(self, items: dict[str, bytes]) -> None:
        with writing(self.home, "the embedding cache"), self._cache.transact():
            for key, value in items.items():
                self._cache.set(key, value)

    def clear(self) -> int:
        """Remove every vector (and a database set aside as damaged); returns how many."""
        with writing(self.home, "the embedding cache"):
            removed = int(self._cache.clear())
            (self.directory / CORRUPT_NAME).unlink(missing_ok=True)
        return removed

    def embed(
        self,
        embedder: Embedder,
        texts: list[str],
        *,
        batch_size: int = 64,
        progress: ProgressReporter | None = None,
    ) -> EmbedResult:
        """Vectors for ``texts``: cached ones read, the rest embedded in batches and stored."""
        import numpy as np

        from codeagent.cancel import current

        progress = progress or NullProgress()
        token = current()  # checked between batches: Ctrl-C stops within one batch
        keys = [text_key(embedder.id, text) for text in texts]
        found = self.get_many(list(dict.fromkeys(keys)))
        vectors: dict[str, np.ndarray] = {}
        for key, raw in found.items():
            vector = np.frombuffer(raw, dtype=np.float32)
            if vector.shape == (embedder.dim,):
                vectors[key] = vector
            else:
                log.warning("ignoring a cached vector of the wrong size for %s", key)
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in vectors:
                missing.setdefault(key, text)
        # Longest first, as sentence-transformers does inside one encode() call: batches of
        # similar lengths waste little on padding.
        order = sorted(missing, key=lambda k: len(missing[k]), reverse=True)
        prepare = getattr(embedder, "prepare", None)
        if prepare is not None and order:
            prepare(progress)  # a first use: the model made ready, saying so
        estimate = getattr(embedder, "estimate_seconds", None)
        expect = estimate([missing[k] for k in order]) if estimate and order else None
        with progress.task("embedding", total=len(order), expect=expect) as advance:
            for start in range(0, len(order), batch_size):
                token.check()
                batch = order[start : start + batch_size]
                embedded = embedder.embed_documents([missing[k] for k in batch])
                if embedded.shape != (len(batch), embedder.dim):
                    from codeagent.errors import BackendError

                    raise BackendError(
                        f"embedder {embedder.id} returned shape {embedded.shape} for"
                        f" {len(batch)} texts (expected dimension {embedder.dim})"
                    )
                rows = np.asarray(embedded, dtype=np.float32)
                self.set_many({k: rows[i].tobytes() for i, k in enumerate(batch)})
                vectors.update({k: rows[i] for i, k in enumerate(batch)})
                advance(len(batch))
        matrix = np.zeros((len(texts), embedder.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            matrix[row] = vectors[key]
        reused = sum(1 for key in keys if key not in missing)
        return EmbedResult(matrix, embedded=len(missing), reused=reused)


def clear_embeddings(directory: Path, *, home: Path | None = None) -> int:
    """Empty the embedding cache at ``directory``, damaged or not; returns the vectors removed."""
    with EmbedCache(directory, home=home) as cache:
        return cache.clear()
