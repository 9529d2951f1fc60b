"""The per-chunk embedding cache: only unseen texts reach the embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codeagent.embed.cache import EmbedCache, text_key
from codeagent.embed.embedders import HashEmbedder


class CountingEmbedder(HashEmbedder):
    def __init__(self, dim: int = 16) -> None:
        super().__init__(dim)
        self.batches: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return super().embed_documents(texts)


def test_second_call_embeds_nothing(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    texts = [f"def f{i}(): return {i}" for i in range(10)]
    with EmbedCache(tmp_path / "emb") as cache:
        first = cache.embed(embedder, texts, batch_size=4)
        assert (first.embedded, first.reused) == (10, 0)
        assert [len(b) for b in embedder.batches] == [4, 4, 2]
        second = cache.embed(embedder, texts, batch_size=4)
    assert (second.embedded, second.reused) == (0, 10)
    assert len(embedder.batches) == 3
    np.testing.assert_array_equal(first.vectors, second.vectors)
    np.testing.assert_allclose(first.vectors, HashEmbedder(16).embed_documents(texts), rtol=1e-6)


def test_only_new_texts_are_embedded_and_rows_keep_input_order(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    with EmbedCache(tmp_path / "emb") as cache:
        cache.embed(embedder, ["alpha beta", "gamma"])
        embedder.batches.clear()
        result = cache.embed(embedder, ["gamma", "delta delta", "alpha beta", "gamma"])
    assert embedder.batches == [["delta delta"]]
    assert (result.embedded, result.reused) == (1, 3)
    expected = HashEmbedder(16).embed_documents(["gamma", "delta delta", "alpha beta", "gamma"])
    np.testing.assert_allclose(result.vectors, expected, rtol=1e-6)


def test_batches_are_sorted_longest_first(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    texts = ["a", "a b c d e", "a b c", "a b"]
    with EmbedCache(tmp_path / "emb") as cache:
        cache.embed(embedder, texts, batch_size=2)
    assert embedder.batches == [["a b c d e", "a b c"], ["a b", "a"]]


def test_keys_separate_embedders(tmp_path: Path) -> None:
    assert text_key("hash:16", "x") != text_key("hash:32", "x")
    with EmbedCache(tmp_path / "emb") as cache:
        cache.embed(HashEmbedder(16), ["same text"])
        other = CountingEmbedder(32)
        other.id = "hash:32"
        result = cache.embed(other, ["same text"])
    assert result.embedded == 1


def test_wrong_sized_cached_vector_is_re_embedded(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    with EmbedCache(tmp_path / "emb") as cache:
        cache.set_many({text_key(embedder.id, "x"): np.zeros(3, np.float32).tobytes()})
        result = cache.embed(embedder, ["x"])
    assert result.embedded == 1
    assert result.vectors.shape == (1, 16)


def test_a_finished_batch_survives_an_interruption(tmp_path: Path) -> None:
    class Interrupting(CountingEmbedder):
        def embed_documents(self, texts: list[str]) -> np.ndarray:
            if len(self.batches) == 2:
                raise KeyboardInterrupt
            return super().embed_documents(texts)

    texts = [f"text number {i}" for i in range(10)]
    with EmbedCache(tmp_path / "emb") as cache, pytest.raises(KeyboardInterrupt):
        cache.embed(Interrupting(), texts, batch_size=3)
    with EmbedCache(tmp_path / "emb") as cache:
        assert len(cache) == 6
        result = cache.embed(CountingEmbedder(), texts, batch_size=3)
    assert (result.embedded, result.reused) == (4, 6)
