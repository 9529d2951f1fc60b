"""`codeagent doctor`: a report that exits 0 unless the install is broken."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from codeagent import __version__
from codeagent.cli import doctor
from ollama_stub import OllamaStub


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[OllamaStub]:
    with OllamaStub(
        models=["qwen2.5-coder:7b", "nomic-embed-text:latest"], version="0.9.1"
    ) as stub:
        monkeypatch.setenv("OLLAMA_HOST", stub.url)
        yield stub


def run_doctor(*args: str, code: int = 0) -> dict[str, Any]:
    result = CliRunner().invoke(doctor.command, ["--json", *args])
    assert result.exit_code == code, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_server_up(server: OllamaStub, env_setup: Path) -> None:
    report = run_doctor()
    assert report["python"] == platform.python_version()
    assert report["codeagent"] == __version__
    assert report["home"] == str(env_setup)
    ollama = report["ollama"]
    assert ollama["reachable"] is True
    assert ollama["host"] == server.url
    assert ollama["version"] == "0.9.1"
    assert ollama["models"] == ["nomic-embed-text:latest", "qwen2.5-coder:7b"]
    assert ollama["chat_model"] == {"name": "qwen2.5-coder:7b", "present": True}
    assert ollama["embedding_models"] == ["nomic-embed-text:latest"]
    assert report["defaults"]["llm"]["resolves_to"] == "ollama:qwen2.5-coder:7b"
    assert report["problems"] == []
    assert [r.path for r in server.requests] == ["/api/tags", "/api/version"]  # nothing loaded


def test_server_down() -> None:
    report = run_doctor()
    ollama = report["ollama"]
    assert ollama["reachable"] is False
    assert ollama["host"] == "http://127.0.0.1:9"
    assert ollama["models"] == []
    assert ollama["chat_model"]["present"] is False
    llm = report["defaults"]["llm"]
    assert llm["resolves_to"] == "none"
    assert (
        "answers without an LLM: no Ollama server at OLLAMA_HOST=http://127.0.0.1:9"
        in llm["reason"]
    )
    assert report["problems"] == []


def test_explicit_model_missing_is_reported_not_fatal(server: OllamaStub) -> None:
    report = run_doctor("--llm", "ollama:mistral", "--embed", "ollama:mxbai-embed-large")
    assert report["defaults"]["llm"]["ok"] is False
    assert report["problems"] == [
        f"--llm ollama:mistral: model 'mistral' is not on the Ollama server at {server.url} "
        "— run `ollama pull mistral`",
        f"--embed ollama:mxbai-embed-large: model 'mxbai-embed-large' is not on the Ollama"
        f" server at {server.url} — run `ollama pull mxbai-embed-large`",
    ]


def test_embed_on_ollama(server: OllamaStub) -> None:
    report = run_doctor("--embed", "ollama:nomic-embed-text")
    assert report["defaults"]["embed"]["resolves_to"] == "ollama:nomic-embed-text"
    assert report["defaults"]["embed"]["ok"] is True


def test_missing_llamacpp_file(tmp_path: Path) -> None:
    report = run_doctor("--llm", f"llamacpp:{tmp_path / 'x.gguf'}")
    assert report["defaults"]["llm"]["reason"] == f"no such model file: {tmp_path / 'x.gguf'}"


def test_invalid_llm_value_exits_2() -> None:
    report = run_doctor("--llm", "gpt-4", code=2)
    assert "invalid --llm value 'gpt-4'" in report["problems"][0]


def test_cache_size(env_setup: Path) -> None:
    entry = env_setup / "cache" / "repo-123" / "state"
    entry.mkdir(parents=True)
    (entry / "chunks.json").write_bytes(b"x" * 1000)
    (entry / "index.faiss").write_bytes(b"y" * 24)
    assert run_doctor()["cache"]["bytes"] == 1024


def test_broken_install_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    real = doctor._installed
    monkeypatch.setattr(doctor, "_installed", lambda name: name != "faiss" and real(name))
    report = run_doctor(code=1)
    assert report["required_packages"] == {"ok": False, "missing": ["faiss"]}
    assert "required package missing: faiss" in report["problems"]


def test_text_report(server: OllamaStub) -> None:
    result = CliRunner().invoke(doctor.command, [])
    assert result.exit_code == 0, result.output
    assert f"Ollama          {server.url} reachable: yes (version 0.9.1)" in result.output
    assert "chat model    qwen2.5-coder:7b present: yes" in result.output
    assert "--llm" in result.output


def test_python_m_codeagent_doctor() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "codeagent", "doctor", "--json"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ollama"]["reachable"] is False
    assert report["home"] == os.environ["CODEAGENT_HOME"]
