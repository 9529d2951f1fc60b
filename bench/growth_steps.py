"""The steps bench_growth.py times: a ``codeagent`` command in a fresh process timed to its
exit with ``wait4``, the first answer (and stopping the detached index build it starts), and
the disk a home holds."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from codeagent.cli.doctor import tree_size


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def environment(home: Path) -> dict[str, str]:
    env = {**os.environ, "CODEAGENT_HOME": str(home), "PYTHONPATH": os.pathsep.join(sys.path)}
    env.setdefault("HF_HUB_OFFLINE", "1")
    return env


def timed(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    """``codeagent ARGS`` run to its exit: wall and CPU seconds, peak RSS, its output."""
    command = [sys.executable, "-m", "codeagent", *args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        last = (stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"codeagent {args[0]} failed ({proc.returncode}): {last}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mib": usage.ru_maxrss / 1024,
        "stdout": stdout,
        "stderr": stderr,
    }


def index(repo: Path, embed: str, env: dict[str, str]) -> dict[str, Any]:
    run = timed(["index", "--repo", str(repo), "--embed", embed, "--json"], env)
    stats = json.loads(run.pop("stdout"))
    run.pop("stderr")
    return {**run, "stats": stats}


def first_answer(
    repo: Path, question: str, embed: str, env: dict[str, str]
) -> tuple[dict[str, Any], str, str]:
    """``(run, its "dense search" line or "", what became of the background build)``."""
    run = timed(["ask", question, "--repo", str(repo), "--embed", embed, "--llm", "none",
                 "--no-server"], env)  # fmt: skip
    said = [line for line in run.pop("stderr").splitlines() if line.startswith("dense search")]
    run.pop("stdout")
    return run, (said[0] if said else ""), stop_background(env)


def cache_list(env: dict[str, str]) -> list[dict[str, Any]]:
    out = subprocess.run([sys.executable, "-m", "codeagent", "cache", "list", "--json"],
                         env=env, capture_output=True, text=True, check=True).stdout  # fmt: skip
    return list(json.loads(out)["repos"])


def stop_background(env: dict[str, str], patience: float = 60.0) -> str:
    """Stop the detached ``codeagent index`` builds of this home (each leads its own process
    group: its pool workers go with it), wait for them to end, and say how it went (from
    their logs: whether one had finished already)."""
    home = env["CODEAGENT_HOME"]
    builds = [b for r in cache_list(env) for b in r["building"] if b["pid"]]
    if not builds:
        return "none running"
    began = time.perf_counter()
    for pid in (b["pid"] for b in builds):
        if not group_alive(pid):
            continue  # it ended on its own
        if f"CODEAGENT_HOME={home}".encode() not in environ(pid):  # not ours
            raise SystemExit(f"pid {pid} is not a build of {home}; not stopping it")
        os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + patience
    while any(group_alive(b["pid"]) for b in builds):
        if time.monotonic() > deadline:
            for pid in (b["pid"] for b in builds if group_alive(b["pid"])):
                os.killpg(pid, signal.SIGKILL)
            deadline += patience
        time.sleep(0.1)
    said = []
    for build in builds:
        try:
            text = Path(build["log"]).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        finished = re.search(r"^index (built|loaded from cache) in ", text, re.MULTILINE)
        done = "had finished before the stop" if finished else "stopped unfinished"
        said.append(f"pid {build['pid']} {done}")
    return f"{'; '.join(said)} (ended {time.perf_counter() - began:.1f} s after the stop)"


def stop_all(homes: list[Path]) -> None:
    """Stop what the first answers in ``homes`` left running (after an interruption)."""
    for home in homes:
        if (home / "cache").is_dir():
            with contextlib.suppress(subprocess.CalledProcessError, ValueError, KeyError):
                stop_background(environment(home))


def environ(pid: int) -> list[bytes]:
    """The environment of process ``pid``, one ``NAME=value`` each."""
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return []


def group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs (a zombie does not)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def disk(stats: dict[str, Any], env: dict[str, str]) -> dict[str, int]:
    """Bytes of the state's cache entry, of every state of the repository as ``codeagent
    cache list`` counts them, and of the embedding cache (kept apart from the entries)."""
    states = sum(r["size_bytes"] for r in cache_list(env) if r["repo_id"] == stats["repo_id"])
    return {
        "entry_bytes": tree_size(Path(stats["cache_path"])),
        "states_bytes": states,
        "embeddings_bytes": tree_size(Path(env["CODEAGENT_HOME"]) / "embeddings"),
    }
