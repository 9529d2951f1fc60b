"""Benchmark many repositories in one server: `codeagent serve --repos FILE --max-memory`.

Usage::

    python bench/bench_many_repos.py [--repos 100] [--chunks 2000] [--questions 30]
                                     [--max-memory 2G] [--embed none] [--work DIR]

Builds ``--repos`` synthetic git repositories from real files: the ``.py`` files of this
interpreter's site-packages, in sorted order, each repository taking the next slice until it
holds about ``--chunks`` definitions (the chunker makes one chunk per function / class /
module header, so this is close to its chunk count; the real count is read back from the
server). Serves them all from one ``codeagent serve --llm none`` process under a fresh
``CODEAGENT_HOME`` and reports:

- the time until the background indexer has been through every repository;
- the server's resident memory (``VmRSS``) once idle, and its peak while questions run,
  next to the pool's own estimate of the open indexes (``GET /v1/repos``);
- the latency of questions that name no repository (every repository searched): the first
  one (it loads each index's BM25 and chunks from disk) alone, then p50 / p95 of the rest.

``--work DIR`` keeps the repositories and the home between runs (a second run serves from
the cache). Prints Markdown. Run it under the shared lock on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from synthetic import commit, fill, source_files

QUESTIONS = [
    "which service retries a failed request with backoff?",
    "where are HTTP headers parsed?",
    "how is a configuration file loaded?",
    "where are command line arguments parsed?",
    "how are dates formatted as strings?",
    "where is a cache invalidated?",
    "how is a connection pool closed?",
    "which code validates a JSON schema?",
    "where are log messages formatted?",
    "how is a temporary directory cleaned up?",
    "where is authentication with a token checked?",
    "how are unicode errors handled when decoding?",
    "which function compresses data?",
    "where is a thread pool created?",
    "how does the tokenizer split words?",
]


def build_repos(work: Path, count: int, chunks: int) -> list[Path]:
    files = source_files()
    cursor = 0
    roots = []
    for n in range(count):
        root = work / f"service{n:03d}"
        roots.append(root)
        if (root / ".git").is_dir():
            continue
        root.mkdir(parents=True, exist_ok=True)
        cursor, _held = fill(root, files, cursor, chunks)
        commit(root)
    return roots


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start(home: Path, repos_file: Path, budget: str, embed: str) -> tuple[Any, str]:
    command = [sys.executable, "-m", "codeagent", "serve", "--port", "0", "--repos"]
    command += [str(repos_file), "--max-memory", budget, "--llm", "none", "--embed", embed]
    env = {**os.environ, "CODEAGENT_HOME": str(home)}
    log = (home / "bench-serve.log").open("ab")
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        address = home / "server.json"
        if address.is_file():
            data = json.loads(address.read_text())
            if data["pid"] == process.pid:
                return process, f"http://127.0.0.1:{data['port']}"
        if process.poll() is not None:
            raise SystemExit(f"the server exited: see {home / 'bench-serve.log'}")
        time.sleep(0.2)
    raise SystemExit("the server did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", type=int, default=100)
    parser.add_argument("--chunks", type=int, default=2000)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--max-memory", default="2G")
    parser.add_argument("--embed", default="none")
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="many-repos-"))
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "server.json").unlink(missing_ok=True)

    began = time.perf_counter()
    roots = build_repos(work / "repos", args.repos, args.chunks)
    built = time.perf_counter() - began
    repos_file = work / "repos.txt"
    repos_file.write_text("".join(f"{r}\n" for r in roots))

    began = time.perf_counter()
    process, url = start(home, repos_file, args.max_memory, args.embed)
    client = httpx.Client(timeout=600)
    try:
        while True:
            listing = client.get(f"{url}/v1/repos").json()
            if listing["indexed"]["done"] >= len(roots):
                break
            time.sleep(1.0)
        indexed = time.perf_counter() - began
        idle_rss = rss_mib(process.pid)
        chunks = [client.post(f"{url}/v1/index", json={"repo": r["id"]}).json()["chunks"]
                  for r in listing["repos"]]  # fmt: skip
        peak = [rss_mib(process.pid)]
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(0.05):
                peak.append(rss_mib(process.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        times = []
        repos_cited: set[str] = set()
        for n in range(args.questions):
            question = QUESTIONS[n % len(QUESTIONS)]
            started = time.perf_counter()
            response = client.post(f"{url}/v1/ask", json={"question": question})
            times.append(time.perf_counter() - started)
            response.raise_for_status()
            repos_cited |= {s["repo"] for s in response.json()["sources"]}
        stop.set()
        sampler.join()
        memory = client.get(f"{url}/v1/repos").json()["memory"]
        end_rss = rss_mib(process.pid)
    finally:
        process.terminate()
        process.wait(30)
    rest = times[1:] or times
    load = os.getloadavg()
    print(f"## many repositories in one server ({time.strftime('%Y-%m-%d %H:%M')})\n")
    options = f"`--embed {args.embed}`, `--max-memory {args.max_memory}`"
    print(f"- {len(roots)} repositories, chunks per repository: median "
          f"{statistics.median(chunks):.0f} (min {min(chunks)}, max {max(chunks)}), "
          f"{sum(chunks):,} in all; {options}")  # fmt: skip
    print(
        f"- repositories written in {built:.0f} s; indexed (background indexer) in {indexed:.0f} s"
    )
    print(f"- server RSS: idle after indexing {idle_rss:.0f} MiB; peak during questions "
          f"{max(peak):.0f} MiB; at the end {end_rss:.0f} MiB")  # fmt: skip
    print(f"- pool estimate of the open indexes at the end: {memory['used'] / 2**20:.0f} MiB, "
          f"{len(memory['open'])} open, {memory['evictions']} closed")  # fmt: skip
    print(f"- cross-repository questions ({len(times)}): first {times[0]:.2f} s; then p50 "
          f"{statistics.median(rest):.3f} s, p95 {percentile(rest, 0.95):.3f} s, "
          f"max {max(rest):.3f} s; {len(repos_cited)} repositories cited")  # fmt: skip
    print(f"- load average during the run: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
