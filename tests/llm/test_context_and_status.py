"""num_ctx sizing, OLLAMA_HOST normalisation, model-name matching, the quick probe."""

from __future__ import annotations

import pytest

from codeagent.llm import normalize_host, num_ctx_for, probe_ollama
from codeagent.llm.status import looks_like_embedding_model, model_matches
from ollama_stub import OllamaStub


@pytest.mark.parametrize(
    ("chars", "reserve", "expected"),
    [
        (0, 1024, 2048),  # floor
        (3072, 1024, 2048),  # 1024 + 1024 tokens fit exactly
        (3075, 1024, 4096),  # one token more
        (9000, 1024, 4096),  # 3000 + 1024
        (12_000, 1024, 8192),  # 4000 + 1024
        (60_000, 2048, 32768),  # 20000 + 2048
        (10_000_000, 1024, 32768),  # ceiling
        (3000, 0, 2048),
    ],
)
def test_num_ctx_for(chars: int, reserve: int, expected: int) -> None:
    assert num_ctx_for(chars, reserve=reserve) == expected


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", "http://127.0.0.1:11434"),
        ("127.0.0.1:9999", "http://127.0.0.1:9999"),
        (":9999", "http://127.0.0.1:9999"),
        ("", "http://127.0.0.1:11434"),
        ("http://gpu-box:11434/", "http://gpu-box:11434"),
        ("https://ollama.example.com", "https://ollama.example.com"),
        ("example.com/ollama", "http://example.com:11434/ollama"),
    ],
)
def test_normalize_host(host: str, expected: str) -> None:
    assert normalize_host(host) == expected


def test_model_matches_latest_tag() -> None:
    assert model_matches("nomic-embed-text", "nomic-embed-text:latest")
    assert model_matches("llama3:latest", "llama3")
    assert not model_matches("llama3", "llama3:8b")
    assert not model_matches("qwen2.5-coder:7b", "qwen2.5-coder:14b")


def test_embedding_model_guess() -> None:
    assert looks_like_embedding_model("nomic-embed-text:latest")
    assert looks_like_embedding_model("all-minilm:l6-v2")
    assert not looks_like_embedding_model("qwen2.5-coder:7b")


def test_probe_down_is_not_an_error() -> None:
    status = probe_ollama("http://127.0.0.1:9", timeout=0.5)
    assert not status.reachable
    assert status.models == []
    assert status.error


def test_probe_up_lists_models_and_version() -> None:
    with OllamaStub(models=["b:7b", "a:latest"], version="9.9.9") as stub:
        status = probe_ollama(stub.url, with_version=True)
    assert status.reachable
    assert status.models == ["a:latest", "b:7b"]
    assert status.version == "9.9.9"
    assert status.has("a")
    assert not status.has("b")


def test_probe_server_error() -> None:
    with OllamaStub() as stub:
        stub.fail(500, "boom", path="/api/tags")
        status = probe_ollama(stub.url)
    assert not status.reachable
    assert "500" in (status.error or "")


def test_probe_gives_up_quickly_on_a_silent_server() -> None:
    with OllamaStub() as stub:
        stub.delay(5.0, path="/api/tags")
        status = probe_ollama(stub.url, timeout=0.3)
    assert not status.reachable
    assert "Timeout" in (status.error or "")
