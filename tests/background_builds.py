"""Waits for the detached `codeagent index` an index answered first starts (a real process):
its entry written, then the process gone; and a gate that holds such a build until a file is
created, with an embedder whose estimate makes every question answer first."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index import background
from codeagent.index import build as build_module

DEADLINE = 120.0


def wait_for_entry(entry: Path) -> None:
    deadline = time.monotonic() + DEADLINE
    while not (entry / "manifest.json").is_file():
        assert time.monotonic() < deadline, f"no entry at {entry} after {DEADLINE:.0f} s"
        time.sleep(0.1)


def wait_until_ended(settings: Settings, repo_id: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while background.running(settings, repo_id):
        assert time.monotonic() < deadline, "the background build never ended"
        time.sleep(0.1)


# Waits for the gate file, then becomes the real `codeagent index` (same pid, same lock).
GATE = (
    "import os, sys, time\n"
    "while not os.path.exists(sys.argv[1]):\n"
    "    time.sleep(0.05)\n"
    "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])\n"
)


class SlowHash(HashEmbedder):
    """``hash:16`` (the detached `codeagent index --embed hash:16` builds the same state)
    with an estimate saying that embedding it takes a minute a chunk."""

    def estimate_seconds(self, texts: list[str]) -> float:
        return 60.0 * len(texts)


def gate_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file whose creation lets the detached builds run; the caller creates it at the end
    in any case, so no process is left waiting."""
    gate = tmp_path / "gate"
    real = background.command

    def gated(root: Path, settings: Settings) -> list[str]:
        return [sys.executable, "-c", GATE, str(gate), *real(root, settings)[1:]]

    monkeypatch.setattr(background, "command", gated)
    monkeypatch.setattr(
        build_module, "make_embedder", lambda spec, settings: SlowHash(int(spec.split(":")[1]))
    )
    return gate
