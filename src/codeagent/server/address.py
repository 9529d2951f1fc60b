"""The running server's address file in ``CODEAGENT_HOME``: written by ``serve``, removed on exit.

Standard library only: ``codeagent ask`` reads it on every run. A file whose process is gone
(or whose port refuses connections, see :mod:`codeagent.server.client`) is stale and ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "server.json"


@dataclass(frozen=True)
class ServerAddress:
    pid: int
    host: str
    port: int
    token_file: str | None = None  # where a client finds the token (``--token-file``)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def connect_host(self) -> str:
        """Where a local client connects: a wildcard bind is reached over loopback."""
        return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(self.host, self.host)


def address_file(home: Path) -> Path:
    return home / FILE_NAME


def write_address(home: Path, address: ServerAddress) -> Path:
    """Write the address atomically (a reader never sees half a file)."""
    home.mkdir(parents=True, exist_ok=True)
    target = address_file(home)
    tmp = target.with_name(f".{FILE_NAME}.{os.getpid()}")
    tmp.write_text(json.dumps(asdict(address)), encoding="utf-8")
    tmp.replace(target)
    return target


def remove_address(home: Path, pid: int) -> None:
    """Remove the address file if it is still this process's (a newer server may own it)."""
    current = read_address(home, check_pid=False)
    if current is not None and current.pid == pid:
        address_file(home).unlink(missing_ok=True)


def read_address(home: Path, *, check_pid: bool = True) -> ServerAddress | None:
    """The recorded address, or None when there is none, it is unreadable, or its process
    is gone (``check_pid``)."""
    try:
        data = json.loads(address_file(home).read_text(encoding="utf-8"))
        token_file = data.get("token_file")
        address = ServerAddress(
            pid=int(data["pid"]),
            host=str(data["host"]),
            port=int(data["port"]),
            token_file=str(token_file) if token_file else None,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if check_pid and not pid_alive(address.pid):
        return None
    return address


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, someone else's
    return True
