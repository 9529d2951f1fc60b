"""The ``codeagent`` command sets the cyclic collector's thresholds of its own process
(:data:`codeagent.cli.main.GC_THRESHOLDS`); a caller that runs :func:`main` with its own
arguments in its process keeps its thresholds."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from codeagent.cli.main import GC_THRESHOLDS, main

PROGRAM = """
import gc, sys
sys.argv = ["codeagent", "--help"]
from codeagent.cli.main import main
try:
    main()
except SystemExit:
    pass
print("thresholds", gc.get_threshold())
"""


def test_the_command_sets_its_process_thresholds() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert f"thresholds {GC_THRESHOLDS}" in done.stdout, done.stdout[-500:]
    assert GC_THRESHOLDS != (700, 10, 10)  # not Python's own


def test_a_caller_in_its_own_process_keeps_its_thresholds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(1234, 9, 8)
        main(["--help"])
        assert gc.get_threshold() == (1234, 9, 8)
    finally:
        gc.set_threshold(*before)
    assert "Usage" in capsys.readouterr().out
