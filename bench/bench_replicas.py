"""Two `codeagent serve` replicas sharing one cache volume under load: clients split across
both, every status other than 200 and 429 an error, every answer compared with the one a
single replica gives to the same question.

Usage::

    python bench/bench_replicas.py [PATH]   # default: the stdlib `email` package

The package is copied into a temporary git repository. Each replica gets a home of its own and
``CODEAGENT_CACHE_HOME`` names the shared volume (docs/deploy.md); the first replica builds
the index (``BENCH_EMBED``, default ``none``), the second opens the same entry. Then
``BENCH_CLIENTS`` (20) clients ask ``BENCH_QUESTIONS`` (200) questions each, client ``n`` on
replica ``n % 2``, the questions alternating AST and search, with the server's default limits.
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
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from bench_server import AST_Q, CLI, RAG_Q, rss_mib
from benchrepo import make_repo

EMBED = os.environ.get("BENCH_EMBED", "none")
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "20"))
QUESTIONS = int(os.environ.get("BENCH_QUESTIONS", "200"))


def start(repo: Path, home: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    home.mkdir()
    env = {**env, "CODEAGENT_HOME": str(home)}
    args = ["serve", "--port", "0", "--repo", str(repo), "--llm", "none", "--embed", EMBED]
    server = subprocess.Popen([*CLI, *args], env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            address = json.loads((home / "server.json").read_text())
            url = f"http://127.0.0.1:{address['port']}"
            status = httpx.get(f"{url}/v1/repos").json()["repos"][0]
            if status["index"] == "ready" and not status["updating"]:
                return server, url
        except (OSError, ValueError, KeyError, httpx.HTTPError):
            pass
        time.sleep(0.2)
    raise SystemExit("a replica did not come up")


def seen(result: dict[str, Any]) -> tuple[object, ...]:
    sources = tuple((s["path"], s["start_line"], s["end_line"]) for s in result["sources"])
    return result["answer"], sources, result["state"]


def load(urls: list[str], expected: dict[str, tuple[object, ...]]) -> dict[str, Any]:
    statuses: Counter[int] = Counter()
    latencies: list[float] = []
    differing: Counter[str] = Counter()
    lock = threading.Lock()

    def client(n: int) -> None:
        with httpx.Client(timeout=120) as http:
            for i in range(QUESTIONS):
                question = AST_Q if (n + i) % 2 == 0 else RAG_Q
                began = time.perf_counter()
                response = http.post(f"{urls[n % 2]}/v1/ask", json={"question": question})
                elapsed = time.perf_counter() - began
                with lock:
                    statuses[response.status_code] += 1
                    if response.status_code == 200:
                        latencies.append(elapsed)
                        if seen(response.json()) != expected[question]:
                            differing[question] += 1

    began = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cuts = statistics.quantiles(latencies, n=20)
    wall = time.perf_counter() - began
    p50 = statistics.median(latencies)
    return {"statuses": statuses, "differing": differing, "wall": wall, "p50": p50, "cuts": cuts}


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(email.__file__).parent
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        repo = make_repo(source, work)
        env = {**os.environ, "CODEAGENT_CACHE_HOME": str(work / "volume"), "HF_HUB_OFFLINE": "1"}
        servers: list[subprocess.Popen[bytes]] = []
        try:
            urls = []
            for name in ("a", "b"):
                server, url = start(repo, work / f"home-{name}", env)
                servers.append(server)
                urls.append(url)
            expected = {
                q: seen(httpx.post(f"{urls[0]}/v1/ask", json={"question": q}, timeout=120).json())
                for q in (AST_Q, RAG_Q)
            }
            entries = sorted(p.name for p in (work / "volume" / "cache").glob("*/*") if p.is_dir())
            result = load(urls, expected)
            rss = [rss_mib(s.pid) for s in servers]
        finally:
            for server in servers:
                server.send_signal(signal.SIGTERM)
                server.wait(30)
    cuts = result["cuts"]
    print(f"Repository: `{source.name}`, `--embed {EMBED}`, two replicas, one cache volume.\n")
    print("| measure | result |\n|---|---|")
    print(f"| cache entries on the volume | {len(entries)} |")
    print(f"| load | {CLIENTS} clients × {QUESTIONS} questions, half on each replica |")
    print(f"| statuses | {dict(result['statuses'])} |")
    print(f"| answers differing from one replica's | {sum(result['differing'].values())} |")
    print(f"| wall time | {result['wall']:.1f} s |")
    print(f"| latency of answered questions p50 / p95 | {result['p50'] * 1000:.0f} /"
          f" {cuts[18] * 1000:.0f} ms |")  # fmt: skip
    print(f"| replicas' RSS at the end | {rss[0]:.0f} / {rss[1]:.0f} MiB |")


if __name__ == "__main__":
    main()
