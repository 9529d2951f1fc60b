"""A one-file edit, then ``codeagent index`` in a fresh process, timed from outside.

Usage::

    python bench/bench_edit_fresh.py REPO FILE [--embed local] [--rounds 3] [--home DIR]

REPO is a git work tree already indexed in ``--home`` (its ``CODEAGENT_HOME``) with the same
``--embed``; FILE (relative to REPO) gets a small function appended, a different one each
round, so each round is a new state whose earlier entry differs in that one file. Each round
times ``python -m codeagent index --repo REPO --embed EMBED --json`` (wall, and the child's
CPU) and prints its phase seconds; the file is restored afterwards. Run it with
``PYTHONPATH=OLD/src`` for the code before a change (interleave trees for a before/after).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def one_round(repo: Path, target: Path, n: int, embed: str, env: dict[str, str]) -> str:
    original = target.read_bytes()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        with target.open("ab") as handle:
            handle.write(f"\n\ndef _bench_edit_{n}(x):\n    return x + {n}\n".encode())
        command = [sys.executable, "-m", "codeagent", "index", "--repo", str(repo)]
        start = time.perf_counter()
        done = subprocess.run(
            [*command, "--embed", embed, "--json"], env=env, capture_output=True, text=True
        )
        wall = time.perf_counter() - start
    finally:
        target.write_bytes(original)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime
    stats = json.loads(done.stdout)
    phases = ", ".join(f"{k} {v:.3f}" for k, v in stats["seconds"].items())
    return f"| {n} | {wall:.3f} | {cpu:.2f} | {stats['chunks_embedded']} | {phases} |"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("file")
    parser.add_argument("--embed", default="local")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--home", type=Path, default=None)
    parser.add_argument("--first", type=int, default=1, help="number of the first edit")
    args = parser.parse_args()
    env = {**os.environ, "CODEAGENT_AUTO_SERVER": "false"}
    if args.home is not None:
        env["CODEAGENT_HOME"] = str(args.home)
    repo = args.repo.resolve()
    print("| edit | wall s | CPU s | embedded | phases (s) |\n|---|---|---|---|---|")
    for n in range(args.first, args.first + args.rounds):
        print(one_round(repo, repo / args.file, n, args.embed, env), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
