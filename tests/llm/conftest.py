"""Fixtures for the LLM backend tests: a running Ollama stand-in and Settings pointing at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from codeagent.config import Settings
from ollama_stub import OllamaStub

CHAT_MODEL = "qwen2.5-coder:7b"
EMBED_MODEL = "nomic-embed-text:latest"


@pytest.fixture
def ollama_stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[OllamaStub]:
    """A stand-in Ollama server with a chat and an embedding model; OLLAMA_HOST points at it."""
    with OllamaStub(models=[CHAT_MODEL, EMBED_MODEL]) as stub:
        monkeypatch.setenv("OLLAMA_HOST", stub.url)
        yield stub


@pytest.fixture
def stub_settings(ollama_stub: OllamaStub) -> Settings:
    return Settings(ollama_host=ollama_stub.url, llm_timeout=5.0)
