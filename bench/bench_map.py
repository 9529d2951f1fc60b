"""Benchmark the repository map: per-state computation, a map from a warm index, a map from a
fresh process on a cached index, and peak memory.

Usage::

    PYTHONPATH=src python bench/bench_map.py PATH [--embed none] [--runs 7]
    PYTHONPATH=src python bench/bench_map.py --synthetic 50000 [--work DIR]

``PATH`` is a git checkout (left as it is; its index goes to a fresh ``CODEAGENT_HOME``);
``--synthetic N`` makes one of about N chunks from the ``.py`` files of this interpreter's
site-packages (bench/synthetic.py) under ``--work`` (default: a temporary folder).
Steps, each in its own process so that memory and imports are what a user would see:

1. ``codeagent index``: the index of the current state (not timed here: bench_index.py);
2. the first map of that state: the reference graph, PageRank and every definition's tokens
   computed and written beside the entry (``base``);
3. warm: in one process holding the index, ``RUNS`` maps each of no focus, a path focus and a
   question focus, at 1,024 and 4,096 tokens (median ms; the question focus runs the ranker);
4. fresh: ``codeagent map`` as a new process on the cached index, ``RUNS`` times (median s),
   with and without a question focus;
5. peak resident memory (``ru_maxrss``) of the process that computed the base, and of a
   fresh ``codeagent map``.

Prints Markdown.
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

CLI = [sys.executable, "-m", "codeagent"]
QUESTION = "where is the configuration read and validated?"

WARM = r"""
import json, statistics, sys, time, resource
from pathlib import Path
from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.repomap import build_map
root, embed, runs, focus_path, question = sys.argv[1:6]
store, stats = load_or_build(Path(root), Settings.load(embed=embed))
state, entry = stats.state_hash, Path(stats.cache_path)
chunks = int(store.manifest.get("chunks", 0)) or len(store.chunks)
t = time.perf_counter()
first = build_map(store, budget=1024, state=state, entry=entry)
out = {"chunks": chunks, "files": len(store.symbols.files), "first_s": time.perf_counter() - t}
for name, focus in (("plain", []), ("path", [focus_path]), ("question", [question])):
    for budget in (1024, 4096):
        times = []
        for _ in range(int(runs)):
            t = time.perf_counter()
            found = build_map(store, budget=budget, focus=focus, state=state, entry=entry)
            times.append(time.perf_counter() - t)
        out[f"{name}_{budget}_ms"] = 1000 * statistics.median(times)
        out[f"{name}_{budget}_tokens"] = found.tokens
out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path, nargs="?")
    parser.add_argument("--synthetic", type=int, default=0, help="about this many chunks")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if args.synthetic:
        from synthetic import commit, fill, source_files

        work = args.work or Path(tempfile.mkdtemp(prefix="bench-map-repo-"))
        root = (work / f"synthetic-{args.synthetic}").resolve()
        if not (root / ".git").exists():
            root.mkdir(parents=True, exist_ok=True)
            fill(root, source_files(), 0, args.synthetic)
            commit(root)
    elif args.repo is None:
        print("error: give a repository PATH or --synthetic N", file=sys.stderr)
        sys.exit(2)
    else:
        root = args.repo.resolve()
    if not (root / ".git").exists():
        print(f"error: {root} is not a git checkout", file=sys.stderr)
        sys.exit(2)
    home = tempfile.mkdtemp(prefix="bench-map-")
    env = {**os.environ, "CODEAGENT_HOME": home}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules compiled once, not per run
    subprocess.run([*CLI, "index", "--repo", str(root), "--embed", args.embed], env=env,
                   check=True, capture_output=True)  # fmt: skip
    files = subprocess.run(["git", "-C", str(root), "ls-files", "*.py", "*.go", "*.ts", "*.rs"],
                           capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    focus_path = files[len(files) // 2] if files else "."
    warm = subprocess.run(
        [sys.executable, "-c", WARM, str(root), args.embed, str(args.runs), focus_path, QUESTION],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = json.loads(warm.stdout.strip().splitlines()[-1])
    fresh: dict[str, list[float]] = {"plain": [], "question": []}
    peak = 0.0
    for _ in range(args.runs):
        for name, extra in (("plain", []), ("question", ["--focus", QUESTION])):
            command = [*CLI, "map", "--repo", str(root), "--embed", args.embed, *extra]
            wrapped = [sys.executable, "-c", _RUSAGE, *command]
            t = time.perf_counter()
            done = subprocess.run(wrapped, env=env, capture_output=True, text=True, check=True)
            fresh[name].append(time.perf_counter() - t)
            peak = max(peak, float(done.stderr.strip().splitlines()[-1]))
    print(f"repository: {root.name}, {found['files']:,} files with symbols,"
          f" {found['chunks']:,} chunks, embed {args.embed}\n")  # fmt: skip
    print("| what | time |\n|---|---|")
    print(f"| first map of a state (base computed and kept) | {found['first_s']:.2f} s |")
    for name in ("plain", "path", "question"):
        for budget in (1024, 4096):
            print(
                f"| warm, {name} focus, {budget} tokens | {found[f'{name}_{budget}_ms']:.0f} ms |"
            )
    for name, times in fresh.items():
        print(f"| fresh process `codeagent map`, {name} | {statistics.median(times):.2f} s |")
    print(f"| peak memory, the process that computed the base | {found['peak_mib']:.0f} MiB |")
    print(f"| peak memory, a fresh `codeagent map` | {peak:.0f} MiB |")


# Runs a command as a child and prints its peak resident memory (MiB) on stderr last.
_RUSAGE = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True,"
    " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); print("
    "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, file=sys.stderr)"
)

if __name__ == "__main__":
    main()
