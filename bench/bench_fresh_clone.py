"""What git's view of a fresh clone or a copied tree costs: the per-question probe and the
state's git side, on the repository's own index against a refreshed private copy of it
(:mod:`codeagent.repo.index_copy`), in-process.

    PYTHONPATH=src python bench/bench_fresh_clone.py REPO [--runs 7] [--after 3] [--copied]

Clones REPO (a path or a mirror) into a temporary folder with ``git clone``: its files and its
index are written within a second or two, so most entries are racily clean, as after any
fresh clone or checkout. ``--copied`` measures a copy of that clone instead (``cp -r``: every
entry's inode and change time stale, as in a copied tree, a mounted volume or an unpacked
archive). It waits ``--after`` seconds (an index younger than
:data:`codeagent.repo.index_copy.RACY_S` is not kept as a copy), counts the stale entries,
then times ``Prober.probe()`` and ``git_state()`` ``--runs`` times each way, in turn, and
prints the medians in milliseconds, the copy's one-off cost (copy and refresh) apart. Both
ways must give the same probe key and state. The repository's index is put back as cloned
before each run in place (git's own ``diff`` would have refreshed it). Run it under the
heavy-job lock.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from codeagent.repo.discover import discover
from codeagent.repo.index_copy import index_env
from codeagent.repo.probe import Prober
from codeagent.repo.state import git_state


def _ms(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def racy(root: Path) -> tuple[int, int]:
    """(entries whose modification time is not older than the index file's, all entries)."""
    limit = int((root / ".git" / "index").stat().st_mtime)
    out = subprocess.run(
        ["git", "ls-files", "--debug"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    mtimes = [int(line.split()[1].split(":")[0]) for line in out.splitlines() if "mtime:" in line]
    return sum(m >= limit for m in mtimes), len(mtimes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--copied",
        action="store_true",
        help="measure a copy of the clone (cp -r: every entry's inode and change time stale)",
    )
    parser.add_argument(
        "--after", type=float, default=3.0, help="seconds between the clone and the first probe"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", args.repo, str(root)], check=True)
        if args.copied:  # a copied tree, a volume, an unpacked archive with its .git
            copied = Path(tmp) / "copied"
            shutil.copytree(root, copied, symlinks=True)
            root = copied
        copies = Path(tmp) / "git-index"
        time.sleep(args.after)  # an index younger than index_copy.RACY_S is read in place
        count, entries = racy(root)
        print(f"{entries} index entries, {count} racily clean by time")
        once, _ = _ms(lambda: index_env(root, copies))
        print(f"the copy made and refreshed once: {once:.0f} ms")
        discovery = discover(root)
        ways: dict[str, Path | None] = {"in place": None, "copy": copies}
        times: dict[str, dict[str, list[float]]] = {w: {"probe": [], "state": []} for w in ways}
        seen: dict[str, set[object]] = {"probe": set(), "state": set()}
        index = root / ".git" / "index"
        pristine, st = index.read_bytes(), index.stat()
        for _ in range(args.runs):
            for way, folder in ways.items():
                if folder is None:  # as cloned: git's diff in place refreshes it
                    index.write_bytes(pristine)
                    os.utime(index, ns=(st.st_atime_ns, st.st_mtime_ns))
                ms, probe = _ms(lambda folder=folder: Prober(root, folder).probe())
                times[way]["probe"].append(ms)
                seen["probe"].add(getattr(probe, "key", None))
                ms, state = _ms(lambda folder=folder: git_state(discovery, folder))
                times[way]["state"].append(ms)
                seen["state"].add(state)
        assert all(len(v) == 1 for v in seen.values()), "the two ways disagree"
        for way in ways:
            probe, state = (statistics.median(times[way][k]) for k in ("probe", "state"))
            print(f"{way}: probe {probe:.1f} ms, git state {state:.1f} ms (medians)")


if __name__ == "__main__":
    main()
