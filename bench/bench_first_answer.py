"""Time the first answer on a repository never seen, in a fresh ``CODEAGENT_HOME``.

Usage::

    python bench/bench_first_answer.py --before OLD/src --after src [--rounds 2] [--models DIR]

The stdlib ``email``, ``json`` and ``http`` packages (about 1,050 chunks, the size of
requests) are copied into a new git repository. Each round runs ``codeagent ask --embed local
--llm none --no-server`` once per source tree (``PYTHONPATH``), each in a new empty home
(``--models DIR``: with that exported model copied in; without it the first run exports the
model too), and times it to its exit. After an answer given first, the detached
``codeagent index`` it started is waited for (untimed, so the next run has the machine) and
its own time is read from its log. Prints one Markdown line per tree.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchrepo import make_repo

QUESTION = "how are multipart messages parsed?"
PACKAGES = ("email", "json", "http")


def stdlib_repo(workdir: Path) -> Path:
    lib = workdir / "lib"
    lib.mkdir(parents=True)
    stdlib = Path(os.__file__).parent
    for name in PACKAGES:
        shutil.copytree(stdlib / name, lib / name, ignore=shutil.ignore_patterns("__pycache__"))
    return make_repo(lib, workdir)


def first_answer(src: Path, repo: Path, home: Path) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(src.resolve()), "CODEAGENT_HOME": str(home)}
    command = [sys.executable, "-m", "codeagent", "ask", QUESTION, "--repo", str(repo)]
    command += ["--embed", "local", "--llm", "none", "--no-server"]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, done.stderr


def background_seconds(home: Path, deadline: float = 600.0) -> float | None:
    """The detached build's own time (from its log), once it has finished."""
    logs = home / "logs"
    if not logs.is_dir():
        return None
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        text = "".join(p.read_text(encoding="utf-8") for p in logs.glob("index-*.log"))
        found = re.search(r"index built in ([\d.]+)s", text)
        if found or "error:" in text:
            return float(found.group(1)) if found else None
        time.sleep(0.5)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the old src/ folder")
    parser.add_argument("--after", type=Path, required=True, help="the new src/ folder")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--models", type=Path, help="an exported model folder to start with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        repo = stdlib_repo(work / "repo-src")
        times: dict[str, list[float]] = {"before": [], "after": []}
        behind: list[float] = []
        for round_no in range(args.rounds):
            for label, src in (("before", args.before), ("after", args.after)):
                home = work / f"home-{label}-{round_no}"
                if args.models:
                    shutil.copytree(args.models, home / "models")
                took, err = first_answer(src, repo, home)
                times[label].append(took)
                said = [line for line in err.splitlines() if line.startswith("dense search")]
                print(f"{label} round {round_no + 1}: {took:.2f} s {said}", file=sys.stderr)
                seconds = background_seconds(home) if said else None
                if seconds is not None:
                    behind.append(seconds)
        for label, values in times.items():
            shown = ", ".join(f"{v:.2f}" for v in values)
            print(f"| {label} | median {statistics.median(values):.2f} s ({shown}) |")
        if behind:
            print(f"| background build (after) | {', '.join(f'{v:.1f}' for v in behind)} s |")


if __name__ == "__main__":
    main()
