"""``--llm`` specs -> models, and the one-line errors for servers and models that are missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.errors import BackendUnavailableError, ConfigError, ModelMissingError
from codeagent.llm import make_chat_model, parse_spec, resolve_chat_model
from ollama_stub import OllamaStub


def test_parse_spec() -> None:
    assert parse_spec("none") == ("none", "")
    assert parse_spec(" AUTO ") == ("auto", "")
    assert parse_spec("ollama:qwen2.5-coder:7b") == ("ollama", "qwen2.5-coder:7b")
    assert parse_spec("llamacpp:models/m.gguf") == ("llamacpp", "models/m.gguf")


@pytest.mark.parametrize("spec", ["", "ollama", "ollama:", "gpt-4", "none:x", "llamacpp:"])
def test_parse_spec_rejects(spec: str) -> None:
    with pytest.raises(ConfigError, match="invalid --llm value"):
        parse_spec(spec)


def test_none() -> None:
    assert make_chat_model("none", Settings()) is None
    assert resolve_chat_model("none", Settings())[1] == "--llm none"


def test_auto_without_server_gives_none_and_says_why() -> None:
    model, reason = resolve_chat_model("auto", Settings())
    assert model is None
    assert "no Ollama server at OLLAMA_HOST=http://127.0.0.1:9" in reason
    assert "--llm ollama:MODEL" in reason


def test_auto_without_the_model_gives_none(stub_settings: Settings) -> None:
    settings = stub_settings.model_copy(update=dict(ollama_chat_model="llama3.1:8b"))
    model, reason = resolve_chat_model("auto", settings)
    assert model is None
    assert "ollama pull llama3.1:8b" in reason


def test_auto_with_server_and_model(ollama_stub: OllamaStub, stub_settings: Settings) -> None:
    model, reason = resolve_chat_model("auto", stub_settings)
    assert type(model).__name__ == "ChatOllama"
    assert reason == f"ollama:qwen2.5-coder:7b at {ollama_stub.url}"
    assert ollama_stub.paths() == ["/api/tags"]  # one probe, nothing generated


def test_explicit_ollama_server_down() -> None:
    with pytest.raises(BackendUnavailableError) as info:
        make_chat_model("ollama:qwen2.5-coder:7b", Settings())
    message = str(info.value)
    assert message == (
        "cannot reach Ollama at http://127.0.0.1:9 — is `ollama serve` running? (set OLLAMA_HOST)"
    )


def test_explicit_ollama_model_missing(ollama_stub: OllamaStub, stub_settings: Settings) -> None:
    with pytest.raises(ModelMissingError) as info:
        make_chat_model("ollama:mistral", stub_settings)
    where = ollama_stub.url
    assert str(info.value) == (
        f"model 'mistral' is not on the Ollama server at {where} — run `ollama pull mistral`"
    )


def test_explicit_ollama_settings(stub_settings: Settings) -> None:
    model = make_chat_model("ollama:qwen2.5-coder:7b", stub_settings)
    assert model is not None
    assert model.model == "qwen2.5-coder:7b"  # type: ignore[attr-defined]
    assert model.temperature == 0.0  # type: ignore[attr-defined]
    assert model.num_ctx == 4096  # type: ignore[attr-defined]
    assert model.client_kwargs == {"timeout": 5.0}  # type: ignore[attr-defined]


def test_llamacpp_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.gguf"
    with pytest.raises(ConfigError, match=f"no such model file: {path}"):
        make_chat_model(f"llamacpp:{path}", Settings())


def test_llamacpp_not_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model_file = tmp_path / "m.gguf"
    model_file.write_bytes(b"GGUF")
    monkeypatch.setattr("codeagent.llm.llamacpp.llamacpp_installed", lambda: False)
    with pytest.raises(BackendUnavailableError) as info:
        make_chat_model(f"llamacpp:{model_file}", Settings())
    assert str(info.value) == "llama-cpp-python is not installed — run `make install-llamacpp`"


def test_importing_codeagent_llm_stays_light() -> None:
    code = (
        "import sys, codeagent.llm; "
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('langchain_ollama', 'langchain_core', 'llama_cpp', 'ollama', 'httpx')]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
