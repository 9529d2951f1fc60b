"""Benchmark `codeagent serve`: `codeagent ask` end to end through a running server, and a
bounded loopback load test.

Usage::

    python bench/bench_server.py [PATH]   # or BENCH_REPO=PATH; default: the stdlib `email`

The package is copied into a temporary git repository, indexed once with ``--embed local``
(``BENCH_EMBED`` overrides) under a fresh ``CODEAGENT_HOME``, and served with ``--llm none``.
Then:

1. ``codeagent ask QUESTION`` (a subprocess of the installed ``codeagent`` script, as a user
   runs it) for an AST question and a RAG question, ``RUNS`` times each: wall time (median
   and min) and the client's CPU time (median), after checking that the CLI really went
   through the server (no agent module imported in the client). Then the client's imports:
   ``python -X importtime``, the modules the interpreter does not load by itself (median and
   min; importtime measures wall time, so a busy machine inflates it).
2. ``BENCH_CLIENTS`` concurrent clients each ask ``BENCH_QUESTIONS`` questions (alternating
   AST and RAG) over loopback with the server's default limits (3 at once, 6 queued): every
   status other than 200 and 429 is an error; latency p50/p95 of the 200s and the server's
   resident memory (start, peak, end) are reported.

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

import httpx
from benchrepo import make_repo

RUNS = int(os.environ.get("BENCH_RUNS", "10"))
EMBED = os.environ.get("BENCH_EMBED", "local")
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "20"))
QUESTIONS = int(os.environ.get("BENCH_QUESTIONS", "200"))
AST_Q = "list the classes in email/message.py"
RAG_Q = "how are MIME headers with non-ASCII characters encoded?"
# The installed script, as a user runs it; else -m with -P, so that the working directory (a
# repository holding an `email` package, by default) is not put on sys.path.
_SCRIPT = Path(sys.executable).with_name("codeagent")
CLI = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-P", "-m", "codeagent"]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_server(repo: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    home = Path(env["CODEAGENT_HOME"])
    args = ["serve", "--port", "0", "--repo", str(repo), "--llm", "none", "--embed", EMBED]
    server = subprocess.Popen([*CLI, *args], env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            address = json.loads((home / "server.json").read_text())
            url = f"http://127.0.0.1:{address['port']}"
            if httpx.get(f"{url}/v1/repos").json()["repos"][0]["index"] == "ready":
                return server, url
        except (OSError, ValueError, KeyError, httpx.HTTPError):
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not come up")


def cli_latency(repo: Path, question: str, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of ``codeagent ask QUESTION``, RUNS times."""
    walls, cpus = [], []
    for _ in range(RUNS):
        started = time.perf_counter()
        child = subprocess.Popen([*CLI, "ask", question], cwd=repo, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        _pid, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - started)
        if status != 0:
            raise SystemExit(f"codeagent ask failed (status {status})")
        cpus.append(usage.ru_utime + usage.ru_stime)
    return walls, cpus


def client_imports_ms(repo: Path, question: str, env: dict[str, str]) -> list[float]:
    """The client's imports (``-X importtime``, top-level modules the bare interpreter does
    not import), in milliseconds, RUNS times."""

    def top_level(args: list[str]) -> dict[str, int]:
        """Cumulative microseconds of each module imported at the top level (not nested)."""
        err = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=repo, env=env,
                             capture_output=True, text=True, check=True).stderr  # fmt: skip
        rows = [line.split("|") for line in err.splitlines() if line.count("|") == 2]
        return {
            name.strip(): int(us)
            for _self, us, name in rows
            if us.strip().isdigit() and len(name) - len(name.lstrip()) == 1
        }

    bare = set(top_level(["-c", "pass"]))
    script = [str(_SCRIPT)] if _SCRIPT.is_file() else ["-P", "-m", "codeagent"]
    totals = []
    for _ in range(RUNS):
        loaded = top_level([*script, "ask", question])
        totals.append(sum(us for name, us in loaded.items() if name not in bare) / 1000)
    return totals


def went_through_server(repo: Path, env: dict[str, str]) -> bool:
    code = ("import sys; from codeagent.cli.main import main; sys.argv=['codeagent','ask',"
            f"{AST_Q!r}]\ntry: main()\nexcept SystemExit: pass\n"
            "print('AGENT', any(m.startswith('codeagent.agent') for m in sys.modules),"
            " file=sys.stderr)")  # fmt: skip
    proc = subprocess.run([sys.executable, "-P", "-c", code], cwd=repo, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return "AGENT False" in proc.stderr


def load_test(url: str, pid: int) -> dict[str, object]:
    statuses: Counter[int] = Counter()
    latencies: list[float] = []
    lock = threading.Lock()
    memory: list[float] = [rss_mib(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            memory.append(rss_mib(pid))

    def client(n: int) -> None:
        with httpx.Client(timeout=120) as http:
            for i in range(QUESTIONS):
                question = AST_Q if (n + i) % 2 == 0 else RAG_Q
                started = time.perf_counter()
                status = http.post(f"{url}/v1/ask", json={"question": question}).status_code
                elapsed = time.perf_counter() - started
                with lock:
                    statuses[status] += 1
                    if status == 200:
                        latencies.append(elapsed)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    memory.append(rss_mib(pid))
    cuts = statistics.quantiles(latencies, n=20)
    return {
        "statuses": dict(statuses),
        "wall": wall,
        "p50": statistics.median(latencies),
        "p95": cuts[18],
        "rss": (memory[0], max(memory), memory[-1]),
    }


def main() -> None:
    given = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BENCH_REPO", "")
    source = Path(given) if given else Path(email.__file__).parent
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        repo = make_repo(source, work)
        env = {**os.environ, "CODEAGENT_HOME": str(work / "home"), "HF_HUB_OFFLINE": "1"}
        subprocess.run([*CLI, "index", "--repo", str(repo), "--embed", EMBED], env=env,
                       check=True, capture_output=True)  # fmt: skip
        server, url = start_server(repo, env)
        try:
            assert went_through_server(repo, env), "codeagent ask did not use the server"
            print(f"Repository: `{source.name}`, `--embed {EMBED}`, server `--llm none`.\n")
            print(
                "| `codeagent ask` through the server | median s | min s | client CPU s | target |"
            )
            print("|---|---:|---:|---:|---|")
            for label, question, target in (("AST", AST_Q, 0.25), ("RAG", RAG_Q, 0.4)):
                times, cpus = cli_latency(repo, question, env)
                median = statistics.median(times)
                verdict = "met" if median <= target else "not met"
                cpu = statistics.median(cpus)
                print(f"| {label} | {median:.3f} | {min(times):.3f} | {cpu:.3f} |"
                      f" ≤ {target} s: **{verdict}** |")  # fmt: skip
            imports = client_imports_ms(repo, AST_Q, env)
            print(f"\nClient imports (`-X importtime`, beyond the bare interpreter's): median"
                  f" {statistics.median(imports):.0f} ms, min {min(imports):.0f} ms.")  # fmt: skip
            result = load_test(url, server.pid)
            start, peak, end = result["rss"]  # type: ignore[misc]
            print(f"\nLoad: {CLIENTS} clients × {QUESTIONS} questions, loopback, default limits.\n")
            print("| measure | result |\n|---|---|")
            print(f"| statuses | {result['statuses']} |")
            print(f"| wall time | {result['wall']:.1f} s |")
            print(f"| latency of answered questions p50 / p95 | {result['p50'] * 1000:.0f} /"
                  f" {result['p95'] * 1000:.0f} ms |")  # fmt: skip
            print(f"| server RSS start / peak / end | {start:.0f} / {peak:.0f} / {end:.0f} MiB |")
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


if __name__ == "__main__":
    main()
