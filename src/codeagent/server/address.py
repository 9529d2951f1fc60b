"""The running server's address file in ``CODEAGENT_HOME``: written by ``serve``, removed on exit.

Standard library only, and its cheap part (no dataclasses, pathlib or typing: each costs a
fresh process 15-40 ms): ``codeagent ask`` reads it on every run. A file whose process is
gone (or whose port refuses connections, see :mod:`codeagent.server.client`) is stale and
ignored.
"""

from __future__ import annotations

import json
import os
import time
from os import PathLike

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path

FILE_NAME = "server.json"
STARTING_NAME = "server.starting"  # the pid of a server started in the background, at first


class ServerAddress:
    """Where a server listens; ``token_file``: where a client finds the token
    (``--token-file``)."""

    __slots__ = ("exit_after_idle", "host", "pid", "port", "token_file")

    def __init__(
        self,
        pid: int,
        host: str,
        port: int,
        token_file: str | None = None,
        exit_after_idle: float | None = None,  # seconds without a request before it exits
    ) -> None:
        self.pid = pid
        self.host = host
        self.port = port
        self.token_file = token_file
        self.exit_after_idle = exit_after_idle

    def __repr__(self) -> str:
        return f"ServerAddress({self.to_json()})"

    def to_json(self) -> dict[str, object]:
        fields = ("pid", "host", "port", "token_file", "exit_after_idle")
        return {name: getattr(self, name) for name in fields}

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def connect_host(self) -> str:
        """Where a local client connects: a wildcard bind is reached over loopback."""
        return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(self.host, self.host)


def address_file(home: str | PathLike[str]) -> Path:
    from pathlib import Path

    return Path(home) / FILE_NAME


def write_address(home: Path, address: ServerAddress) -> Path:
    """Write the address atomically (a reader never sees half a file)."""
    home.mkdir(parents=True, exist_ok=True)
    target = address_file(home)
    tmp = target.with_name(f".{FILE_NAME}.{os.getpid()}")
    tmp.write_text(json.dumps(address.to_json()), encoding="utf-8")
    tmp.replace(target)
    forget_starting(home)  # found by its address from now on
    return target


def forget_starting(home: str | PathLike[str]) -> None:
    """Remove the record :func:`note_starting` wrote (the server has an address, or is
    stopped)."""
    try:
        os.unlink(os.path.join(home, STARTING_NAME))
    except OSError:  # none (or it is not this user's to remove)
        return


def remove_address(home: Path, pid: int) -> None:
    """Remove the address file if it is still this process's (a newer server may own it)."""
    current = read_address(home, check_pid=False)
    if current is not None and current.pid == pid:
        address_file(home).unlink(missing_ok=True)


def read_address(home: str | PathLike[str], *, check_pid: bool = True) -> ServerAddress | None:
    """The recorded address, or None when there is none, it is unreadable, or its process
    is gone (``check_pid``)."""
    try:
        with open(os.path.join(home, FILE_NAME), encoding="utf-8") as file:
            data = json.load(file)
        token_file, idle = data.get("token_file"), data.get("exit_after_idle")
        address = ServerAddress(
            pid=int(data["pid"]),
            host=str(data["host"]),
            port=int(data["port"]),
            token_file=str(token_file) if token_file else None,
            exit_after_idle=float(idle) if idle else None,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if check_pid and not pid_alive(address.pid):
        return None
    return address


def note_starting(home: str | PathLike[str], pid: int) -> None:
    """Record the pid of a server just started in the background (by ``codeagent ask``),
    before it has an address: ``codeagent stop`` waits for it rather than missing it."""
    target = os.path.join(home, STARTING_NAME)
    tmp = os.path.join(home, f".{STARTING_NAME}.{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as file:
        file.write(str(pid))
    os.replace(tmp, target)


def starting_pid(home: str | PathLike[str], within: float) -> int | None:
    """The pid :func:`note_starting` recorded in the last ``within`` seconds, while it runs;
    None otherwise (an older record's pid may be another process by now)."""
    path = os.path.join(home, STARTING_NAME)
    try:
        if time.time() - os.stat(path).st_mtime > within:
            return None
        with open(path, encoding="utf-8") as file:
            pid = int(file.read().strip())
    except (OSError, ValueError):
        return None
    return pid if pid_alive(pid) else None


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs. A zombie (exited, not yet reaped by whoever adopted it: a
    container's first process may never reap) does not."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, someone else's
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            stat = file.read()
    except OSError:  # no /proc (not Linux), or gone meanwhile
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]
