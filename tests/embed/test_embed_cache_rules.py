"""The embedding cache's edges, in this process: a database sqlite cannot read set aside (its
-wal and -shm with it) and said once, a home it cannot write as one CacheWriteError naming the
home, ``clear`` counting what it removed, an embedder answering the wrong shape, and what an
embedding run tells its embedder and its progress (a first use prepared only when something is
embedded, the estimate asked of exactly the texts to embed, longest first), and a cancelled run
stopping before its first batch. Truth: the files the test writes and what sqlite, numpy and
the recording embedder saw."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from codeagent.cancel import CancelToken, cancellable
from codeagent.embed.cache import EmbedCache, clear_embeddings, text_key
from codeagent.embed.embedders import HashEmbedder
from codeagent.errors import BackendError, CacheWriteError, Cancelled

NOISE = b"this is not a sqlite database, just noise " * 50


def garbled(directory: Path) -> Path:
    directory.mkdir(parents=True)
    (directory / "cache.db").write_bytes(NOISE)
    (directory / "cache.db-wal").write_bytes(b"wal")
    (directory / "cache.db-shm").write_bytes(b"shm")
    return directory


def test_a_garbled_database_is_set_aside_and_a_new_one_started(tmp_path: Path) -> None:
    directory = garbled(tmp_path / "emb")
    with pytest.raises(sqlite3.DatabaseError):  # what sqlite itself says of the file
        sqlite3.connect(directory / "cache.db").execute("select 1 from sqlite_master")
    with EmbedCache(directory) as cache:
        for suffix, old in (("-wal", b"wal"), ("-shm", b"shm")):  # the old ones went too
            kept = directory / f"cache.db{suffix}"
            assert not (kept.exists() and kept.read_bytes() == old), suffix
        (notice,) = cache.notices
        assert notice.startswith(f"the embedding cache {directory / 'cache.db'} was damaged (")
        assert notice.endswith(
            "moved it to cache.db.corrupt and started a new one (vectors are embedded again)"
        )
        assert len(cache) == 0
        cache.set_many({"k": b"v"})
        assert cache.get_many(["k", "absent"]) == {"k": b"v"}
    assert (directory / "cache.db.corrupt").read_bytes() == NOISE


def test_a_readable_database_says_nothing(tmp_path: Path) -> None:
    with EmbedCache(tmp_path / "emb") as cache:
        cache.set_many({"k": b"v"})
    with EmbedCache(tmp_path / "emb") as cache:
        assert cache.notices == []
        assert cache.get_many(["k"]) == {"k": b"v"}
    assert not (tmp_path / "emb" / "cache.db.corrupt").exists()


def test_a_cache_that_cannot_be_opened_is_one_error_naming_the_home(tmp_path: Path) -> None:
    directory = tmp_path / "emb"
    (directory / "cache.db").mkdir(parents=True)  # sqlite cannot open a folder
    with pytest.raises(CacheWriteError) as raised:
        EmbedCache(directory, home=tmp_path)
    message = str(raised.value)
    assert message.startswith(f"cannot write the embedding cache under CODEAGENT_HOME ({tmp_path})")
    assert "\n" not in message
    assert not (directory / "cache.db.corrupt").exists()  # not damaged: not set aside


def test_clear_counts_the_vectors_and_drops_a_set_aside_database(tmp_path: Path) -> None:
    directory = garbled(tmp_path / "emb")
    with EmbedCache(directory) as cache:
        cache.set_many({text_key("e", str(n)): b"v" for n in range(3)})
        assert cache.clear() == 3
        assert len(cache) == 0
    assert not (directory / "cache.db.corrupt").exists()
    assert clear_embeddings(garbled(tmp_path / "again")) == 0
    assert not (tmp_path / "again" / "cache.db.corrupt").exists()
    with EmbedCache(tmp_path / "third") as cache:
        cache.set_many({"a": b"1", "b": b"2"})
    assert clear_embeddings(tmp_path / "third", home=tmp_path) == 2


class Recording(HashEmbedder):
    """A hash embedder that records what the cache asks of it."""

    def __init__(self, dim: int = 8) -> None:
        super().__init__(dim)
        self.calls: list[tuple[str, Any]] = []

    def prepare(self, progress: Any) -> None:
        self.calls.append(("prepare", progress))

    def estimate_seconds(self, texts: list[str]) -> float:
        self.calls.append(("estimate", list(texts)))
        return 12.5

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.calls.append(("embed", list(texts)))
        return super().embed_documents(texts)


class Progress:
    def __init__(self) -> None:
        self.tasks: list[tuple[str, int | None, float | None]] = []
        self.advanced: list[int] = []

    @contextmanager
    def task(
        self, description: str, total: int | None, *, expect: float | None = None
    ) -> Iterator[Any]:
        self.tasks.append((description, total, expect))
        yield self.advanced.append


def test_an_embedding_run_tells_its_embedder_and_progress(tmp_path: Path) -> None:
    embedder, progress = Recording(), Progress()
    texts = ["bb", "a", "ccc", "a"]
    with EmbedCache(tmp_path / "emb") as cache:
        result = cache.embed(embedder, texts, batch_size=2, progress=progress)
        assert embedder.calls == [
            ("prepare", progress),
            ("estimate", ["ccc", "bb", "a"]),  # each distinct text once, longest first
            ("embed", ["ccc", "bb"]),
            ("embed", ["a"]),
        ]
        assert progress.tasks == [("embedding", 3, 12.5)]
        assert progress.advanced == [2, 1]
        assert (result.embedded, result.reused) == (3, 0)
        np.testing.assert_allclose(
            result.vectors, HashEmbedder(8).embed_documents(texts), rtol=1e-6
        )
        embedder.calls.clear()
        again = cache.embed(embedder, texts, progress=Progress())
    assert embedder.calls == []  # nothing to embed: the model is not even made ready
    assert (again.embedded, again.reused) == (0, 4)


def test_an_embedder_answering_the_wrong_shape_is_a_backend_error(tmp_path: Path) -> None:
    class Short(HashEmbedder):
        def embed_documents(self, texts: list[str]) -> np.ndarray:
            return np.zeros((len(texts), self.dim - 1), dtype=np.float32)

    with EmbedCache(tmp_path / "emb") as cache, pytest.raises(BackendError) as raised:
        cache.embed(Short(8), ["x", "y"])
    assert str(raised.value) == (
        "embedder hash:8 returned shape (2, 7) for 2 texts (expected dimension 8)"
    )


def test_a_cancelled_run_embeds_nothing(tmp_path: Path) -> None:
    token = CancelToken()
    token.cancel()
    embedder = Recording()
    with EmbedCache(tmp_path / "emb") as cache, cancellable(token):
        with pytest.raises(Cancelled):
            cache.embed(embedder, ["x"])
        assert len(cache) == 0
    assert [name for name, _ in embedder.calls] == ["prepare", "estimate"]


class Wide(Recording):
    """An embedder answering float64 rows (numpy's default), as some models do."""

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return super().embed_documents(texts).astype(np.float64)


def test_vectors_are_stored_and_given_as_float32_whatever_the_embedder_answers(
    tmp_path: Path,
) -> None:
    texts = [f"text {n}" for n in range(65)]
    embedder = Wide()
    with EmbedCache(tmp_path / "emb") as cache:
        first = cache.embed(embedder, texts)  # the default batch: 64
        assert [len(call[1]) for call in embedder.calls if call[0] == "embed"] == [64, 1]
        again = cache.embed(embedder, texts)
    assert first.vectors.dtype == np.float32
    assert again.vectors.dtype == np.float32
    assert (again.embedded, again.reused) == (0, 65)  # stored as 4-byte floats, read back
    np.testing.assert_array_equal(first.vectors, again.vectors)


def test_two_embedders_of_one_dimension_do_not_share_vectors(tmp_path: Path) -> None:
    one, other = Recording(8), Recording(8)
    other.id = "other:8"
    with EmbedCache(tmp_path / "emb") as cache:
        cache.embed(one, ["same text"])
        result = cache.embed(other, ["same text"])
    assert (result.embedded, result.reused) == (1, 0)


def test_a_set_aside_database_without_sidecars_and_the_new_one_persists(tmp_path: Path) -> None:
    directory = tmp_path / "emb"
    directory.mkdir()
    (directory / "cache.db").write_bytes(NOISE)  # no -wal, no -shm beside it
    with EmbedCache(directory) as cache:
        assert "was damaged (file is not a database)" in cache.notices[0]
        cache.set_many({"k": b"v"})
    with EmbedCache(directory) as cache:  # the new database is in the folder, not elsewhere
        assert cache.get_many(["k"]) == {"k": b"v"}


def test_a_failing_write_or_clear_is_one_error_naming_the_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import diskcache

    def full(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    expected = (
        f"cannot write the embedding cache under CODEAGENT_HOME ({tmp_path}):"
        " its disk is full; free some space"
    )
    with EmbedCache(tmp_path / "emb", home=tmp_path) as cache:
        monkeypatch.setattr(diskcache.Cache, "set", full)
        with pytest.raises(CacheWriteError) as raised:
            cache.set_many({"k": b"v"})
        assert str(raised.value) == expected
        monkeypatch.setattr(diskcache.Cache, "clear", full)
        with pytest.raises(CacheWriteError) as raised:
            cache.clear()
        assert str(raised.value) == expected
    with pytest.raises(CacheWriteError) as raised:
        clear_embeddings(tmp_path / "emb", home=tmp_path)
    assert str(raised.value) == expected
