"""Run the real ``codeagent`` entry point in a subprocess, as a user would, and check errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

# As root, permission bits are not enforced; dropping these capabilities makes them count.
DROP_READ_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def codeagent(
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    prefix: Sequence[str] = (),
    patch: str = "",
) -> subprocess.CompletedProcess[str]:
    """``codeagent ARGS`` in a subprocess; ``env`` entries are added to the current ones;
    ``patch`` is Python run first (to fake a fault at one seam)."""
    script = f"import sys\n{patch}\nfrom codeagent.cli.main import main\n"
    script += "sys.argv = ['codeagent', *sys.argv[1:]]\nmain()\n"
    return subprocess.run(
        [*prefix, sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )


def one_error_line(result: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """The single ``error: ...`` line of a failed run (no traceback), holding ``fragments``."""
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def permissions_prefix() -> list[str] | None:
    """What to run a command under so file modes bind it; None when that cannot be had."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        return None
    probe = subprocess.run([*DROP_READ_OVERRIDE, "true"], capture_output=True, check=False)
    return DROP_READ_OVERRIDE if probe.returncode == 0 else None
