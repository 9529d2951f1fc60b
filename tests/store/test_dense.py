"""The dense-index seam: FAISS behind the protocol, a fake backend injected into the build."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.errors import ConfigError
from codeagent.index.build import fingerprint, load_or_build
from codeagent.store.dense import DEFAULT_BACKEND, backend_class
from conftest import GitRepoFactory


def test_faiss_backend_finds_exact_neighbours_and_round_trips(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((50, 16)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    index = backend_class(DEFAULT_BACKEND)(16)
    index.add(rows[:30])
    index.add(rows[30:])
    assert len(index) == 50
    query = rows[[7, 41]]
    scores, ids = index.search(query, 5)
    truth = np.argsort(-(query @ rows.T), axis=1)[:, :5]  # brute force, independent of FAISS
    np.testing.assert_array_equal(ids, truth)
    np.testing.assert_allclose(scores[:, 0], 1.0, rtol=1e-5)
    index.save(tmp_path / "d.index")
    again = backend_class(DEFAULT_BACKEND).load(tmp_path / "d.index")
    assert (len(again), again.dim) == (50, 16)
    np.testing.assert_array_equal(again.search(query, 5)[1], truth)


def test_unknown_backend_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown dense index backend 'nope'"):
        backend_class("nope")


class ListIndex:
    """A dense backend in plain numpy, kept in a class-level log so the test sees its calls."""

    backend = "list"
    file_name = "dense.list"
    calls: list[str] = []  # noqa: RUF012 - a shared log is the point

    def __init__(self, dim: int, rows: np.ndarray | None = None) -> None:
        self.dim = dim
        self.rows = rows if rows is not None else np.zeros((0, dim), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, vectors: np.ndarray) -> None:
        ListIndex.calls.append(f"add {len(vectors)}")
        self.rows = np.vstack([self.rows, vectors])

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        ListIndex.calls.append("search")
        scores = queries @ self.rows.T
        ids = np.argsort(-scores, axis=1)[:, :k]
        return np.take_along_axis(scores, ids, axis=1), ids

    def save(self, path: Path) -> None:
        ListIndex.calls.append("save")
        np.save(path.with_suffix(".npy"), self.rows)
        path.write_bytes(b"see .npy")

    @classmethod
    def load(cls, path: Path) -> ListIndex:
        ListIndex.calls.append("load")
        rows = np.load(path.with_suffix(".npy"))
        return cls(rows.shape[1], rows)


def test_build_uses_the_injected_embedder_and_dense_index(git_repo: GitRepoFactory) -> None:
    root = git_repo(
        {
            "a.py": "def parse_header(value):\n    return value.split('=')\n",
            "b.py": "def send_request(url):\n    return url\n",
        }
    )
    settings = Settings.load(embed="none")  # the injected embedder wins over the setting
    ListIndex.calls.clear()
    store, stats = load_or_build(root, settings, embedder=HashEmbedder(32), dense=ListIndex)
    assert (stats.embedder, stats.chunks) == ("hash:32", 2)
    assert ListIndex.calls == ["add 2", "save"]
    assert store.manifest["dense_backend"] == "list"
    again, hit = load_or_build(root, settings, embedder=HashEmbedder(32), dense=ListIndex)
    assert hit.cache_hit
    hits = again.search("send_request url", k=1)
    assert hits[0].path == "b.py"
    assert ListIndex.calls[-2:] == ["load", "search"]


def test_the_backend_is_part_of_the_fingerprint() -> None:
    embedder = HashEmbedder(8)
    assert fingerprint(embedder, "faiss-flat") != fingerprint(embedder, "list")
    assert "dense=faiss-flat" in fingerprint(embedder)


def _faiss_truth(rows: np.ndarray, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    import faiss

    flat = faiss.IndexFlatIP(rows.shape[1])
    flat.add(rows)
    scores, ids = flat.search(query, k)
    return scores, ids


@pytest.mark.parametrize("k", [1, 7, 60, 61, 80])
def test_one_query_is_answered_as_faiss_answers_it(k: int) -> None:
    """One query is scored in place by a matrix product: the ids FAISS's own flat index gives,
    its scores, and past the last row its padding (id -1)."""
    rng = np.random.default_rng(3)
    rows = rng.standard_normal((61, 24)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    index = backend_class(DEFAULT_BACKEND)(24)
    index.add(rows[:20])
    index.add(rows[20:])  # the second add moves the rows the search reads
    query = rng.standard_normal((1, 24)).astype(np.float32)
    scores, ids = index.search(query, k)
    truth_scores, truth_ids = _faiss_truth(rows, query, k)
    assert ids.shape == scores.shape == (1, k)
    np.testing.assert_array_equal(ids, truth_ids)
    np.testing.assert_allclose(scores, truth_scores, rtol=1e-5, atol=1e-6)
