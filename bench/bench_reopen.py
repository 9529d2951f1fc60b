"""Re-opening an unchanged index in a fresh process: ``codeagent index --repo REPO`` on a state
already in the cache.

Usage::

    CODEAGENT_HOME=HOME python bench/bench_reopen.py REPO [REPO ...] [--runs 5] [--embed local]

The index of each repository must be in ``HOME`` already (build it once with the same
``--embed``). Each run is a fresh interpreter running the command line; reported per
repository (medians of ``--runs``): the wall and CPU seconds of the whole process (its git
children included; CPU time depends less on other load than wall time), the command's own
``seconds.total``, its ``seconds.discover`` (listing the files, the state hash) and the rest
(opening the entry), the bytes the process read through ``read()``
(``rchar`` of ``/proc/self/io``: cached or not, so it does not depend on the machine's load),
the bytes of the entry's files, and how the entry was trusted (``seal`` or ``sha256``).
Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUN = """
import sys
from codeagent.cli.main import main
sys.argv = ["codeagent", *sys.argv[1:]]
try:
    main()
finally:
    io = dict(line.split(": ") for line in open("/proc/self/io").read().splitlines())
    sys.stderr.write("reopen-io: " + io["rchar"].strip() + "\\n")
"""


def one_run(repo: str, embed: str) -> dict[str, object]:
    command = [sys.executable, "-c", RUN, "index", "--repo", repo, "--embed", embed, "--json"]
    start, used = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    stats = json.loads(done.stdout)
    [rchar] = [line.split()[1] for line in done.stderr.splitlines() if line.startswith("reopen-io")]
    entry = Path(stats["cache_path"])
    size = sum(p.stat().st_size for p in entry.rglob("*") if p.is_file())
    return {
        "wall": wall,
        "cpu": cpu,
        "total": stats["seconds"]["total"],
        "discover": stats["seconds"]["discover"],
        "open": stats["seconds"]["total"] - stats["seconds"]["discover"],
        "rchar": int(rchar),
        "entry_bytes": size,
        "chunks": stats["chunks"],
        "hit": stats["cache_hit"],
        "check": stats.get("entry_check", "sha256"),  # before the seal every open hashed
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--embed", default="local")
    args = parser.parse_args()
    print("| repository | chunks | wall s | CPU s | index total s | discover s | open s |"
          " rchar MB | entry MB | trusted by |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for repo in args.repos:
        runs = [one_run(repo, args.embed) for _ in range(args.runs)]
        if not all(r["hit"] for r in runs):
            sys.exit(f"{repo}: not in the cache yet; build it first with --embed {args.embed}")

        def median(key: str, runs: list[dict[str, object]] = runs) -> float:
            return statistics.median(float(r[key]) for r in runs)  # type: ignore[arg-type]

        checks = ", ".join(sorted({str(r["check"]) for r in runs}))
        print(
            f"| {Path(repo).name} | {runs[0]['chunks']:,} | {median('wall'):.3f} |"
            f" {median('cpu'):.3f} |"
            f" {median('total'):.3f} | {median('discover'):.3f} | {median('open'):.3f} |"
            f" {median('rchar') / 1e6:.1f} |"
            f" {median('entry_bytes') / 1e6:.1f} | {checks} |"
        )


if __name__ == "__main__":
    main()
