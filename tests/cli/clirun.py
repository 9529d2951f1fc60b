"""Run the real entry point (``codeagent.cli.main.main``, with its error handling) in-process
or in a pseudo-terminal, and read what a user would see."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from codeagent.cli.main import main


@dataclass
class Run:
    code: int
    out: str
    err: str


def run(*args: str, input: str | None = None) -> Run:
    """``codeagent ARGS`` in-process, stdin from ``input`` (at its end when None)."""
    runner = CliRunner()
    code = 0
    with runner.isolation(input=input or "") as (out, err, _mixed):
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        return Run(code, out.getvalue().decode(), err.getvalue().decode())


def run_in_terminal(
    *args: str, cwd: Path | None = None, answers: tuple[str, ...] = (), timeout: float = 120
) -> tuple[int, str]:
    """``python -m codeagent ARGS`` with a pseudo-terminal as stdin, stdout and stderr; each
    of ``answers`` is typed once output has gone quiet. Returns the exit status and all
    output, escape sequences included."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "codeagent", *args],
        stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    chunks: list[bytes] = []
    pending = list(answers)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif pending:
            os.write(master, pending.pop(0).encode())
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, b"".join(chunks).decode(errors="replace")
