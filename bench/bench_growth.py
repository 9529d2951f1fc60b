"""Index time and peak memory as a repository grows; a one-file edit; an unchanged re-open.

Usage::

    python bench/bench_growth.py [--embed SPEC] REPO [REPO ...]   # git work trees
    (default: the stdlib `email` and `json` packages copied into temporary git repositories)

Each repository is indexed by ``codeagent index --json`` in a fresh process with a fresh
``CODEAGENT_HOME`` (cold: model export and embedding included), then one line is appended to
one Python file and it is indexed again (edit), then again unchanged (re-open). Reported per
run: wall seconds, CPU seconds, peak RSS of the process (``wait4``), and the phases the command
itself reports. The edited file is restored afterwards. Prints Markdown.
"""

from __future__ import annotations

import argparse
import email
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def run_index(repo: Path, embed: str, env: dict[str, str]) -> dict[str, object]:
    command = [sys.executable, "-m", "codeagent", "index", "--repo", str(repo), "--json"]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([*command, "--embed", embed], env=env, stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"codeagent index failed on {repo} ({proc.returncode})")
        out.seek(0)
        stats = json.loads(out.read())
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mib": usage.ru_maxrss / 1024,
        "stats": stats,
    }


def phases(seconds: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in seconds.items() if k != "total" and v >= 0.01)


def bench_repo(repo: Path, embed: str, home: Path) -> list[str]:
    env = {**os.environ, "CODEAGENT_HOME": str(home), "PYTHONPATH": os.pathsep.join(sys.path)}
    env.setdefault("HF_HUB_OFFLINE", "1")
    files = sorted(git(repo, "ls-files", "*.py").split())
    target = repo / files[len(files) // 2]
    original = target.read_bytes()
    rows = []
    try:
        cold = run_index(repo, embed, env)
        target.write_bytes(original + b"\n\ndef added_by_bench(x):\n    return x + 1\n")
        edit = run_index(repo, embed, env)
        reopen = run_index(repo, embed, env)
    finally:
        target.write_bytes(original)
    chunks = cold["stats"]["chunks"]  # type: ignore[index]
    for name, run in (("cold", cold), ("edit", edit), ("re-open", reopen)):
        stats = run["stats"]
        rows.append(
            f"| {repo.name} | {chunks} | {name} | {run['wall']:.2f} | {run['cpu']:.2f}"
            f" | {run['rss_mib']:.0f} | {stats['chunks_embedded']}"  # type: ignore[index]
            f" | {phases(stats['seconds'])} |"  # type: ignore[index]
        )
    return rows


def stdlib_repos(work: Path) -> list[Path]:
    repos = []
    for package in ("json", "email"):
        source = Path(email.__file__).parent.parent / package
        dest = work / package
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        git(dest, "init", "-q")
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "-m", "snapshot")
        repos.append(dest)
    return repos


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repos", nargs="*", type=Path)
    parser.add_argument("--embed", default="local")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="codeagent-bench-growth-"))
    try:
        repos = [p.resolve() for p in args.repos] or stdlib_repos(work)
        print(f"`--embed {args.embed}`; load average at start: {os.getloadavg()}\n")
        print("| repository | chunks | run | wall s | CPU s | peak RSS MiB | embedded | phases s |")
        print("|---|---:|---|---:|---:|---:|---:|---|")
        for i, repo in enumerate(repos):
            for row in bench_repo(repo, args.embed, work / f"home-{i}"):
                print(row, flush=True)
        print(f"\nload average at the end: {os.getloadavg()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
