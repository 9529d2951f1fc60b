"""Waits for the detached `codeagent index` an index answered first starts (a real process):
its entry written, then the process gone."""

from __future__ import annotations

import time
from pathlib import Path

from codeagent.config import Settings
from codeagent.index import background

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
