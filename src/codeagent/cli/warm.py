"""The server ``codeagent ask`` leaves running: after a question answered in this process,
a detached ``codeagent serve`` for the same repository and settings, so the next question
is answered warm (:mod:`codeagent.cli.remote`), as dmypy or a language server do.

It is started only when no server runs or is starting for this CODEAGENT_HOME (one per
home: it holds the home's server lock, as ``serve`` does), for a local repository, unless
``--no-server`` or the ``auto_server`` setting (``CODEAGENT_AUTO_SERVER=false``) says not to.
It listens on loopback only, with everything ``serve`` guarantees (the Host/Origin guard,
fresh answers), exits after ``server_idle`` seconds without a question (default 600), is
listed by ``codeagent status`` and stopped by ``codeagent stop``. Its start is said in one
line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from codeagent.config import Settings

LOG_NAME = "server.log"  # as codeagent.cli.serve (the same log)


def duration(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


def leave_server(repo: str, settings: Settings, flags: dict[str, str | None]) -> str | None:
    """Start the server in the background when one should be; the line to say, or None.
    ``flags``: the ``--llm``, ``--embed`` and ``--dense`` the question was asked with (the
    server runs with the same, so the next question with them goes to it)."""
    from codeagent.server.address import note_starting, read_address
    from codeagent.server.idle import home_lock_held

    root = Path(repo).expanduser()
    if not settings.auto_server or not root.is_dir() or read_address(settings.home) is not None:
        return None
    if home_lock_held(settings.home):  # one is starting (no address yet): it will answer
        return None
    command = [sys.executable, "-m", "codeagent", "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--repo", str(root.resolve()), "--exit-after-idle", f"{settings.server_idle:g}"]
    for name, value in flags.items():
        if value is not None:
            command += [f"--{name}", value]
    settings.home.mkdir(parents=True, exist_ok=True)
    log_path = settings.home / LOG_NAME
    # The log holds the start line, which may carry the token: readable by this user only.
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "ab") as log:
        child = subprocess.Popen(
            command,
            cwd=settings.home,  # `-m` puts it first on sys.path: the repository is not code
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # outlives this command; Ctrl-C here does not reach it
        )
    note_starting(settings.home, child.pid)  # `codeagent stop` right after finds it
    return (
        f"started a server for this repository: the next questions are answered by it"
        f" (it stops after {duration(settings.server_idle)} idle; `codeagent stop` stops it,"
        " --no-server or CODEAGENT_AUTO_SERVER=false starts none)"
    )
