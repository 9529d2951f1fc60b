"""Two versions of codeagent side by side on one repository, interleaved, fresh processes.

Usage::

    python bench/bench_before_after.py --before SRC_A --after SRC_B --repo REPO
        [--models DIR] [--rounds 3]

``SRC_A`` and ``SRC_B`` are the ``src`` folders of two checkouts (a git worktree at the older
commit, say); each command runs as ``python -m codeagent`` with that folder first on
``PYTHONPATH``, in a fresh ``CODEAGENT_HOME`` per round (``--models`` is copied in, so the
one-time export is not timed). ``REPO`` is copied once per round and version (a git
repository). Measured, wall seconds of the whole process, medians over the rounds:

- cold index (``index --embed local``), then a one-file edit (a function appended, ``index``
  again), then an unchanged re-open (``index`` again);
- ask in-process (``ask --no-server --llm none``), a structural and a search question;
- ask through the server (``serve --background`` on the same home, then ``ask`` with no flags).

The two versions alternate within each round, so the machine's drift falls on both. Prints
a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STRUCTURAL = "where is Session defined?"
SEARCH = "how are redirects followed?"


def run(src: Path, home: Path, *args: str, check: bool = True) -> float:
    env = {**os.environ, "PYTHONPATH": str(src), "CODEAGENT_HOME": str(home)}
    env.pop("CODEAGENT_LLM", None)
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", *args], env=env, capture_output=True, text=True
    )
    took = time.perf_counter() - started
    if check and proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr[-800:]}")
    return took


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def one_round(src: Path, repo_src: Path, models: Path | None, work: Path) -> dict[str, float]:
    home, repo = work / "home", work / "repo"
    home.mkdir()
    if models is not None:
        shutil.copytree(models, home / "models")
    shutil.copytree(repo_src, repo, symlinks=True)
    out: dict[str, float] = {}
    out["cold index"] = run(src, home, "index", "--repo", str(repo), "--embed", "local")
    target = sorted(p for p in repo.rglob("*.py") if ".git" not in p.parts)[0]
    with target.open("a", encoding="utf-8") as f:
        f.write("\n\ndef added_for_the_benchmark(value):\n    return value * 2\n")
    out["one-file edit"] = run(src, home, "index", "--repo", str(repo), "--embed", "local")
    out["unchanged re-open"] = run(src, home, "index", "--repo", str(repo), "--embed", "local")
    for label, question in (("structural", STRUCTURAL), ("search", SEARCH)):
        out[f"ask in-process ({label})"] = run(
            src, home, "ask", question, "--repo", str(repo), "--embed", "local",
            "--llm", "none", "--no-server",
        )  # fmt: skip
    run(src, home, "serve", "--repo", str(repo), "--background")
    try:
        run(src, home, "ask", SEARCH, "--repo", str(repo))  # the server's first (warm-up)
        for label, question in (("structural", STRUCTURAL), ("search", SEARCH)):
            out[f"ask through the server ({label})"] = run(
                src, home, "ask", question, "--repo", str(repo)
            )
    finally:
        run(src, home, "stop", check=False)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--models", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for n in range(args.rounds):
        order = ("before", "after") if n % 2 == 0 else ("after", "before")
        for name in order:
            src = args.before if name == "before" else args.after
            with tempfile.TemporaryDirectory(prefix="bench-ba-") as tmp:
                found = one_round(src.resolve(), args.repo, args.models, Path(tmp))
            for what, sec in found.items():
                times[name].setdefault(what, []).append(sec)
            print(f"round {n + 1}: {name} done", file=sys.stderr, flush=True)
    print("| what | before s | after s | after / before |\n|---|---:|---:|---:|")
    for what, before in times["before"].items():
        b, a = statistics.median(before), statistics.median(times["after"][what])
        print(f"| {what} | {b:.2f} | {a:.2f} | {a / b:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
