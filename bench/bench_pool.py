"""The per-file phase of a cold index (read, parse, chunk, symbols, BM25 terms), serial
against a pool of worker processes.

Usage::

    python bench/bench_pool.py PATH [--workers 1,2] [--runs 2]

PATH (a source folder) is copied into a temporary git repository; each run indexes it cold
with ``--embed none`` in a fresh process and a fresh ``CODEAGENT_HOME``, with
``CODEAGENT_WORKERS`` set (1: serial). Reported per setting, best of ``--runs``: the wall
seconds of the ``chunk`` phase (with the pool it includes the BM25 terms), of ``bm25`` (with
the pool only the index is built there), their sum, the whole build, and the CPU seconds of
the building process and of its workers. The entries' files are compared byte for byte
(the manifest's creation time and the seal left out). Prints Markdown.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from benchrepo import make_repo

RUN = """
import json, os, resource, sys, time
from pathlib import Path
from codeagent.config import Settings
from codeagent.index.build import load_or_build

start = time.perf_counter()
_, stats = load_or_build(Path(sys.argv[1]), Settings.load(embed="none"))
wall = time.perf_counter() - start
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "wall": wall, "seconds": stats.seconds, "workers": stats.workers, "chunks": stats.chunks,
    "files": stats.files_indexed, "entry": stats.cache_path,
    "cpu_self": me.ru_utime + me.ru_stime, "cpu_workers": kids.ru_utime + kids.ru_stime,
}))
"""


def digest(entry: Path) -> str:
    """The entry's files, less the seal and the manifest's creation time."""
    h = hashlib.sha256()
    for path in sorted(p for p in entry.rglob("*") if p.is_file() and p.name != "seal.json"):
        data = path.read_bytes()
        if path.name == "manifest.json":
            manifest = json.loads(data)
            manifest.pop("created", None)
            data = json.dumps(manifest, sort_keys=True).encode()
        h.update(path.relative_to(entry).as_posix().encode() + b"\0" + data)
    return h.hexdigest()


def one_run(repo: Path, workers: int, work: Path) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="home-", dir=work))
    env = {**os.environ, "CODEAGENT_HOME": str(home), "CODEAGENT_WORKERS": str(workers)}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(repo)], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    result["digest"] = digest(Path(str(result["entry"])))
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", type=Path)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="codeagent-bench-pool-") as tmp:
        work = Path(tmp)
        repo = make_repo(args.source.resolve(), work)
        rows, digests = [], set()
        for workers in (int(w) for w in args.workers.split(",")):
            runs = [one_run(repo, workers, work) for _ in range(args.runs)]
            digests.update(str(r["digest"]) for r in runs)
            best = min(runs, key=lambda r: float(r["wall"]))  # type: ignore[arg-type]
            rows.append((workers, best))
        first = rows[0][1]
        print(f"{args.source.name}: {first['files']:,} files, {first['chunks']:,} chunks\n")
        print(
            "| CODEAGENT_WORKERS | used | chunk s | bm25 s | chunk + bm25 s | build s"
            " | CPU s (self + workers) |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for workers, r in rows:
            s = r["seconds"]
            assert isinstance(s, dict)
            print(
                f"| {workers} | {r['workers']} | {s['chunk']:.1f} | {s['bm25']:.1f} | "
                f"{s['chunk'] + s['bm25']:.1f} | {float(r['wall']):.1f} | "  # type: ignore[arg-type]
                f"{r['cpu_self']:.1f} + {r['cpu_workers']:.1f} |"
            )
        print(f"\nentries byte-identical across all runs: {len(digests) == 1}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
