"""Ctrl-C in a phase that runs long: the first use's model export. It is said before it
starts, Ctrl-C (SIGINT to the terminal's foreground process group, as a terminal sends it)
ends the command with exit 130, and nothing is left behind: no half-written model file and
no export still running. The time it takes is measured in bench/bench_interrupt.py, not here.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from codeagent.embed.embedders import local_available

pytestmark = pytest.mark.skipif(not local_available(), reason="the local embedder is not installed")

PREPARING = "preparing the embedding model, once: ~8 s"


def running_with(fragment: str) -> list[int]:
    """Processes whose command line holds ``fragment``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if fragment in command:
                found.append(int(entry.name))
    return found


def read_until(stream: Any, wanted: str, limit: float) -> str:
    """What ``stream`` says up to the line holding ``wanted`` (a hang guard of ``limit`` s)."""
    said = ""
    deadline = time.monotonic() + limit
    while wanted not in said:
        assert time.monotonic() < deadline, f"never said {wanted!r}: {said!r}"
        ready, _, _ = select.select([stream], [], [], 0.5)
        if ready:
            line = stream.readline()
            assert line, f"the command ended before saying {wanted!r}: {said!r}"
            said += line
    return said


def test_ctrl_c_during_the_first_model_export(git_repo: Any, env_setup: Path) -> None:
    root = git_repo({"pkg/a.py": "def area(side):\n    return side * side\n"})
    command = [
        sys.executable,
        "-m",
        "codeagent",
        "index",
        "--embed",
        "local:base",
        "--repo",
        str(root),
    ]
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell's foreground job
        # and SIGINT's default action, as a terminal's foreground job has it (a test run
        # started as a shell's background job ignores SIGINT, and its children inherit that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    models = env_setup / "models"
    try:
        said = read_until(proc.stderr, "preparing the embedding model", limit=120)
        assert PREPARING in said  # what it does, before the seconds it takes
        deadline = time.monotonic() + 60
        while not running_with(str(models)):  # the export has started
            assert time.monotonic() < deadline, "no export started"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=60)  # a hang guard: the time it takes is a benchmark's
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    rest = proc.stderr.read() if proc.stderr else ""
    assert proc.returncode == 130, rest
    assert rest.strip().splitlines()[-1:] == ["interrupted"]
    assert "Traceback" not in rest
    assert sorted(p.name for p in models.iterdir() if p.suffix == ".onnx") == []
    assert running_with(str(models)) == []  # the export did not go on without it
