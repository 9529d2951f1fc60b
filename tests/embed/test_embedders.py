"""Embedders: the spec parser, the hash embedder, Ollama (through the stub), local (slow)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed import embedders
from codeagent.embed.embedders import HashEmbedder, LocalEmbedder, make_embedder
from codeagent.errors import BackendUnavailableError, ConfigError, ModelMissingError
from ollama_stub import OllamaStub


def test_none_means_bm25_only() -> None:
    assert make_embedder("none", Settings.load()) is None


@pytest.mark.parametrize("spec", ["bogus", "hash:", "hash:0", "hash:x", "ollama:", "local:x"])
def test_bad_spec_is_a_config_error(spec: str) -> None:
    with pytest.raises(ConfigError, match="unknown embedder"):
        make_embedder(spec, Settings.load())


def test_hash_embedder_is_normalised_deterministic_and_lexical() -> None:
    embedder = make_embedder("hash:128", Settings.load())
    assert isinstance(embedder, HashEmbedder)
    assert (embedder.id, embedder.dim) == ("hash:128", 128)
    texts = ["def parse_header(value)", "parse the header value", "class Spaceship: warp"]
    vectors = embedder.embed_documents(texts)
    assert vectors.shape == (3, 128)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(vectors, embedder.embed_documents(texts))
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    np.testing.assert_allclose(embedder.embed_query(texts[0]), vectors[0])


def test_hash_embedder_handles_empty_text() -> None:
    vector = HashEmbedder(8).embed_query("")
    assert np.linalg.norm(vector) == pytest.approx(1.0)


def test_auto_without_local_packages_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedders, "local_available", lambda: False)
    assert make_embedder("auto", Settings.load()) is None


def test_local_without_packages_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedders, "local_available", lambda: False)
    with pytest.raises(BackendUnavailableError, match=r"codeagent\[local\]"):
        make_embedder("local", Settings.load())


needs_local = pytest.mark.skipif(
    not embedders.local_available(), reason="needs the local extra: pip install codeagent[local]"
)


@needs_local
def test_making_the_local_embedder_does_not_import_torch() -> None:
    code = (
        "import sys\n"
        "from codeagent.config import Settings\n"
        "from codeagent.embed.embedders import make_embedder\n"
        "e = make_embedder('local:base', Settings.load())\n"
        "print(e.id, e.dim, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    name, dim, *imports = out.stdout.split()
    assert name.startswith("local:all-MiniLM-L6-v2:")
    assert dim == "384"
    assert imports == ["False", "False"]


def test_ollama_down_names_ollama_host() -> None:
    settings = Settings.load()  # conftest points OLLAMA_HOST at a closed port
    with pytest.raises(BackendUnavailableError, match="OLLAMA_HOST") as info:
        make_embedder("ollama:nomic-embed-text", settings)
    assert "127.0.0.1:9" in str(info.value)
    assert "\n" not in str(info.value)


def test_ollama_embeds_through_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    with OllamaStub(models=["nomic-embed-text"]) as stub:
        monkeypatch.setenv("OLLAMA_HOST", stub.url)
        embedder = make_embedder("ollama:nomic-embed-text", Settings.load())
        assert embedder is not None
        assert (embedder.id, embedder.dim) == ("ollama:nomic-embed-text", stub.embed_dim)
        vectors = embedder.embed_documents(["def a(): pass", "class B: pass"])
        query = embedder.embed_query("where is a defined?")
        requests = [r for r in stub.requests if r.path == "/api/embed"]
    assert vectors.shape == (2, stub.embed_dim)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert query.shape == (stub.embed_dim,)
    assert len(requests) == 3  # the dimension probe, one batch, one query
    assert {r.model for r in requests} == {"nomic-embed-text"}
    assert requests[1].body is not None
    assert requests[1].body["input"] == ["def a(): pass", "class B: pass"]


def test_ollama_model_missing_says_pull(monkeypatch: pytest.MonkeyPatch) -> None:
    with OllamaStub(models=["qwen2.5-coder:7b"]) as stub:
        monkeypatch.setenv("OLLAMA_HOST", stub.url)
        with pytest.raises(ModelMissingError, match="ollama pull nomic-embed-text"):
            make_embedder("ollama:nomic-embed-text", Settings.load())


@pytest.mark.slow
@needs_local
def test_local_minilm_embeds_offline() -> None:
    embedder = LocalEmbedder()
    vectors = embedder.embed_documents(
        ["def add(a, b): return a + b", "sum two numbers", "the weather in Paris is rainy"]
    )
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
