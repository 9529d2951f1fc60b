"""Benchmark watching: how soon an edit is indexed, and what a burst of saves costs.

Usage::

    python bench/bench_watch.py [PATH]   # or BENCH_REPO=PATH; default: the stdlib `email`

The package is copied into a temporary git repository (fresh ``CODEAGENT_HOME``, embedder
``BENCH_EMBED``, default ``none``). Then:

1. ``codeagent watch`` runs as a process; ``RUNS`` times a function is appended to one file,
   and the time from the write to the update's line on stdout is taken (median, min, max).
   Then a file is saved 20 times, 20 ms apart: the updates it cost are counted. Then SIGINT:
   the seconds until the process exited.
2. ``codeagent serve`` runs as a process (``--llm none``); ``RUNS`` times a file is edited and
   ``GET /v1/repos`` polled until it serves the new state, with no question asked.

Prints Markdown.
"""

from __future__ import annotations

import email
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from benchrepo import make_repo

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
EMBED = os.environ.get("BENCH_EMBED", "none")
TIMEOUT = 120.0
CLI = [sys.executable, "-P", "-m", "codeagent"]


def append(path: Path, n: int) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"\n\ndef bench_watch_{n}():\n    return {n}\n")


def summary(seconds: list[float]) -> str:
    return (
        f"median {statistics.median(seconds):.2f} s (min {min(seconds):.2f},"
        f" max {max(seconds):.2f}, {len(seconds)} edits)"
    )


def bench_watch(repo: Path, target: Path, env: dict[str, str]) -> list[str]:
    proc = subprocess.Popen(
        [*CLI, "watch", "--embed", EMBED], cwd=repo, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    lines: list[str] = []
    errors: list[str] = []
    readers = [
        threading.Thread(target=lambda: lines.extend(s.rstrip() for s in proc.stdout or [])),
        threading.Thread(target=lambda: errors.extend(s.rstrip() for s in proc.stderr or [])),
    ]
    for reader in readers:
        reader.start()

    def wait_lines(count: int) -> None:
        deadline = time.monotonic() + TIMEOUT
        while len(lines) < count:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"watch stopped: {errors}")
            time.sleep(0.005)

    deadline = time.monotonic() + TIMEOUT
    while not any("watching" in e for e in errors):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"watch did not start: {errors}")
        time.sleep(0.02)
    first = lines[0]
    time.sleep(1.5)  # past the watch's first, empty batch
    latencies = []
    for n in range(RUNS):
        count = len(lines)
        started = time.monotonic()
        append(target, n)
        wait_lines(count + 1)
        latencies.append(time.monotonic() - started)
        time.sleep(0.5)
    count = len(lines)
    for n in range(20):
        append(target, 100 + n)
        time.sleep(0.02)
    wait_lines(count + 1)
    time.sleep(2.0)
    burst = len(lines) - count
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(30)
    stop = time.monotonic() - started
    for reader in readers:
        reader.join(5)
    return [
        f"| first index | {first} |",
        f"| `codeagent watch`: edit -> update line | {summary(latencies)} |",
        f"| last update line | {lines[-1]} |",
        f"| 20 saves, 20 ms apart | {burst} update(s) |",
        f"| SIGINT -> exit | {stop:.2f} s (status {code}) |",
    ]


def bench_serve(repo: Path, target: Path, env: dict[str, str], home: Path) -> list[str]:
    command = [*CLI, "serve", "--port", "0", "--llm", "none", "--embed", EMBED]
    proc = subprocess.Popen(command, cwd=repo, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + TIMEOUT
        address = home / "server.json"
        while not address.is_file() or json.loads(address.read_text())["pid"] != proc.pid:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.05)
        url = f"http://127.0.0.1:{json.loads(address.read_text())['port']}/v1/repos"

        def status() -> dict[str, object]:
            while True:
                try:
                    data: dict[str, object] = httpx.get(url, timeout=30).json()["repos"][0]
                    return data
                except httpx.TransportError:
                    time.sleep(0.05)

        while status()["index"] != "ready" or status()["updating"]:
            time.sleep(0.05)
        time.sleep(1.5)
        latencies = []
        for n in range(RUNS):
            before = status()["state"]
            started = time.monotonic()
            append(target, 200 + n)
            while status()["state"] == before:
                if time.monotonic() - started > TIMEOUT:
                    raise SystemExit("the server did not follow the edit")
                time.sleep(0.005)
            latencies.append(time.monotonic() - started)
            time.sleep(0.5)
        return [f"| `codeagent serve`: edit -> new served state | {summary(latencies)} |"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


def main() -> int:
    source = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BENCH_REPO", ""))
    if not str(source) or str(source) == ".":
        source = Path(email.__file__).parent
    with tempfile.TemporaryDirectory(prefix="codeagent-bench-watch-") as work:
        repo = make_repo(source.resolve(), Path(work))
        home = Path(work) / "home"
        env = {**os.environ, "CODEAGENT_HOME": str(home)}
        files = sorted(repo.rglob("*.py"))
        target = files[len(files) // 2]
        rows = ["| what | measured |", "|---|---|"]
        rows.append(f"| repository | {source.name}: {len(files)} Python files, embed {EMBED} |")
        rows += bench_watch(repo, target, env)
        rows += bench_serve(repo, target, env, home)
        print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
