"""Seconds from starting ``codeagent mcp`` over stdio to its answer to ``initialize``.

Usage::

    python bench/bench_mcp_start.py REPO [--runs 5] [--embed none] [--home DIR]

Each run starts ``python -m codeagent mcp --repo REPO --llm none --embed EMBED`` as an editor
does, writes the JSON-RPC ``initialize`` request to its stdin and times, from just before the
process starts, the first line it writes to stdout (the answer); then ``tools/list`` is asked
too and timed from the same start. The process is then closed (stdin closed, then terminated).
``--home`` (default: a fresh temporary ``CODEAGENT_HOME``, the index built once before the
runs) keeps the index between runs, as a user's machine does. Prints the median and range.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-03-26",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def one_run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds to the ``initialize`` answer, and to the ``tools/list`` answer."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        proc.stdin.write(json.dumps(INIT) + "\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        initialized = time.perf_counter() - start
        assert answer.get("id") == 1, answer
        assert "result" in answer, answer
        proc.stdin.write(json.dumps(INITIALIZED) + "\n" + json.dumps(LIST) + "\n")
        proc.stdin.flush()
        listed = json.loads(proc.stdout.readline())
        assert listed.get("id") == 2, listed
        assert listed["result"]["tools"], listed
        return initialized, time.perf_counter() - start
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--home", type=Path, default=None)
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="codeagent-bench-mcp-"))
    env = {**os.environ, "CODEAGENT_HOME": str(home), "CODEAGENT_AUTO_SERVER": "false"}
    base = [sys.executable, "-m", "codeagent"]
    repo = str(args.repo.resolve())
    subprocess.run([*base, "index", "--repo", repo, "--embed", args.embed], env=env, check=True,
                   capture_output=True)  # fmt: skip
    command = [*base, "mcp", "--repo", repo, "--llm", "none", "--embed", args.embed]
    runs = [one_run(command, env) for _ in range(args.runs)]
    for n, label in enumerate(("initialize", "tools/list")):
        values = [r[n] for r in runs]
        print(f"{label}: median {statistics.median(values):.3f} s "
              f"({min(values):.3f}-{max(values):.3f} s, {len(values)} runs)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
