"""The detached ``codeagent index`` that finishes an index answered first: one per state.

:func:`start` runs ``codeagent index --repo R`` (the same embedder, dense backend and file
size cap; at a lower CPU priority) in a new session, its output appended to
``logs/index-<repo id>-<state>.log`` under ``CODEAGENT_HOME``, unless one already runs for
that repository state. The guard is a lock file in the repository's cache folder,
``building-<state>.lock``: the starting process takes an exclusive ``flock`` on it and hands
the open file to the child, so the lock lasts exactly as long as the child lives (whatever
ends it) and two starts never both succeed. ``building-<state>.json`` beside it says which
process holds it and where it logs; :func:`running` lists them for ``codeagent cache list``.

Only where ``fcntl`` exists (POSIX); elsewhere nothing is started and the caller builds in
its own process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.home import make_private_dir, writing

if TYPE_CHECKING:
    from codeagent.config import Settings

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

PREFIX = "building-"
STATE_CHARS = 16  # of the state hash, in the file names


@dataclass(frozen=True)
class Build:
    """A background index build of one repository state."""

    state: str
    pid: int  # 0 when the process has not said yet
    log: Path
    root: str = ""  # the repository it indexes ("" when the process has not said yet)
    started_now: bool = False  # started by this call (not found running)

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "pid": self.pid, "log": str(self.log), "repo": self.root}


def supported() -> bool:
    return fcntl is not None


def log_path(settings: Settings, repo_id: str, state: str) -> Path:
    return settings.home / "logs" / f"index-{repo_id}-{state[:STATE_CHARS]}.log"


def _files(settings: Settings, repo_id: str, state: str) -> tuple[Path, Path]:
    base = settings.cache_dir / repo_id / f"{PREFIX}{state[:STATE_CHARS]}"
    return base.with_suffix(".lock"), base.with_suffix(".json")


def command(root: Path, settings: Settings) -> list[str]:
    """The ``codeagent index`` that builds what this process would have built."""
    return [
        sys.executable, "-m", "codeagent", "index", "--repo", str(root),
        "--embed", settings.embed, "--dense", settings.dense,
        "--max-file-bytes", str(settings.max_file_bytes), "--background",
    ]  # fmt: skip


def _lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` without waiting; False when another holds it."""
    assert fcntl is not None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _read(info: Path, state: str, fallback_log: Path) -> Build:
    try:
        data = json.loads(info.read_text(encoding="utf-8"))
        pid, log_file = int(data["pid"]), Path(data["log"])
        return Build(str(data.get("state", state)), pid, log_file, str(data.get("repo", "")))
    except (OSError, ValueError, KeyError, TypeError):  # not written yet, or damaged
        return Build(state, 0, fallback_log)


def start(root: Path, settings: Settings, repo_id: str, state: str) -> Build | None:
    """The build of ``state`` running in the background: the one found running, or one
    started now; None where no lock can be taken (not POSIX)."""
    if fcntl is None:
        return None
    lock, info = _files(settings, repo_id, state)
    log_file = log_path(settings, repo_id, state)
    with writing(settings.home, "the background index"):
        from codeagent.store.cache import make_repo_dir

        make_repo_dir(lock.parent)
        make_private_dir(log_file.parent)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if not _lock(fd):
            return _read(info, state, log_file)
        env = {**os.environ, "CODEAGENT_HOME": str(settings.home), "PYTHONUNBUFFERED": "1"}
        with writing(settings.home, "the background index's log"), log_file.open("ab") as out:
            out.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {root}\n".encode())
            out.flush()
            proc = subprocess.Popen(
                command(root, settings), stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, env=env, start_new_session=True,
                pass_fds=(fd,),  # the child holds the lock from now on, to its end
            )  # fmt: skip
        data = {"pid": proc.pid, "log": str(log_file), "state": state, "repo": str(root)}
        tmp = info.with_suffix(".tmp")
        with writing(settings.home, "the background index"):
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(tmp, info)
        log.info("indexing %s in the background: pid %d, log %s", root, proc.pid, log_file)
        return Build(state, proc.pid, log_file, str(root), started_now=True)
    finally:
        os.close(fd)  # the lock stays with the child


def running(settings: Settings, repo_id: str) -> list[Build]:
    """The background builds of a repository that are still running; the marks of those
    that ended are removed."""
    if fcntl is None:
        return []
    folder = settings.cache_dir / repo_id
    try:
        locks = sorted(folder.glob(f"{PREFIX}*.lock"))
    except OSError:
        return []
    found = []
    for lock in locks:
        info = lock.with_suffix(".json")
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            continue
        try:
            if _lock(fd):  # nobody holds it: that build ended
                for path in (info, lock):
                    with contextlib.suppress(OSError):  # a read-only cache keeps them
                        path.unlink(missing_ok=True)
                continue
            state = lock.stem[len(PREFIX) :]
            found.append(_read(info, state, log_path(settings, repo_id, state)))
        finally:
            os.close(fd)
    return found


def find(settings: Settings, repo_id: str, state: str) -> Build | None:
    """The background build of ``state`` running now, if any."""
    key = state[:STATE_CHARS]
    return next((b for b in running(settings, repo_id) if b.state[:STATE_CHARS] == key), None)
