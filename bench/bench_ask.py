"""Benchmark `codeagent ask --llm none --json` on an already indexed real repository.

Usage::

    python bench/bench_ask.py [PATH]      # or BENCH_REPO=PATH; default: the stdlib `email`

The package is copied into a temporary git repository (as ``email/``) and indexed once with
``--embed local`` (``BENCH_EMBED`` overrides) under a fresh ``CODEAGENT_HOME``. Then each
question runs ``RUNS`` times as a subprocess, the way a user runs it. Wall time is split into
the work itself (``timings.total`` reported by the session: routing, retrieval with the index
load, answer) and everything before it (interpreter start-up, imports, settings, repository
and LLM resolution). ``python -c pass`` is the floor, and ``python -X importtime`` shows which
imports the AST route pays for. Prints Markdown.
"""

from __future__ import annotations

import email
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchrepo import make_repo

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
EMBED = os.environ.get("BENCH_EMBED", "local")
AST_Q = "list the classes in email/message.py"
RAG_Q = "how are MIME headers with non-ASCII characters encoded?"
STAGES = ("route", "retrieve", "answer")
SHOWN = ("codeagent", "langgraph", "langgraph_sdk", "langchain_core", "langsmith", "pydantic",
         "click", "rich", "git")  # fmt: skip


def variants(repo: Path) -> list[tuple[str, list[str], str, float]]:
    """(label, command, expected route, target seconds) for each measured run."""
    base = [sys.executable, "-P", "-m", "codeagent"]
    return [
        ("ast", [*base, *ask(repo, AST_Q, EMBED)], "ast", 1.0),
        (f"rag (--embed {EMBED})", [*base, *ask(repo, RAG_Q, EMBED)], "rag", 1.5),
        ("rag (--embed none, BM25 only)", [*base, *ask(repo, RAG_Q, "none")], "rag", 1.5),
    ]


def run(args: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    return time.perf_counter() - started, proc


def ask(repo: Path, question: str, embed: str) -> list[str]:
    return ["ask", "--repo", str(repo), "--llm", "none", "--embed", embed, "--json", question]


def import_breakdown(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """Import seconds per top-level package (the sum of each module's own time)."""
    args = [command[0], "-X", "importtime", *command[1:]]
    proc = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    totals: dict[str, float] = {}
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if match:
            top = match.group(2).split(".")[0]
            totals[top] = totals.get(top, 0.0) + int(match.group(1)) / 1e6
    return totals


def main(argv: list[str]) -> int:
    source = Path(argv[0] if argv else os.environ.get("BENCH_REPO", Path(email.__file__).parent))
    with tempfile.TemporaryDirectory(prefix="bench_ask_") as tmp:
        workdir = Path(tmp)
        repo = make_repo(source.resolve(), workdir)
        env = {**os.environ, "CODEAGENT_HOME": str(workdir / "home"), "HF_HUB_OFFLINE": "1",
               "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
               "CODEAGENT_AUTO_SERVER": "false"}  # fmt: skip
        index_s, proc = run([sys.executable, "-P", "-m", "codeagent", "index", "--repo", str(repo),
                             "--embed", EMBED, "--json"], env)  # fmt: skip
        if proc.returncode != 0:
            print(f"indexing failed: {proc.stderr.strip()}")
            return 1
        stats = json.loads(proc.stdout)
        run(
            [
                sys.executable,
                "-P",
                "-m",
                "codeagent",
                "index",
                "--repo",
                str(repo),
                "--embed",
                "none",
            ],
            env,
        )
        floor = statistics.median(run([sys.executable, "-c", "pass"], env)[0] for _ in range(RUNS))
        rows = []
        for label, command, tool, target in variants(repo):
            run(command, env)  # warm the OS file cache
            walls, works, stages = [], [], []
            for _ in range(RUNS):
                wall, proc = run(command, env)
                if proc.returncode != 0:
                    print(f"{label} failed: {proc.stderr.strip()}")
                    return 1
                payload = json.loads(proc.stdout)
                assert payload["route"]["tool"] == tool, payload["route"]
                walls.append(wall)
                works.append(payload["timings"]["total"])
                stages.append(payload["timings"])
            wall, work = statistics.median(walls), statistics.median(works)
            stage = {k: statistics.median(s[k] for s in stages) for k in STAGES}
            rows.append((label, wall, wall - work, work, stage, target))
        breakdown = import_breakdown(variants(repo)[0][1], env)

    print(f"Repository: `{source.name}` ({stats['files_indexed']} files, {stats['chunks']} chunks, "
          f"embedder {stats['embedder']}, indexed once in {index_s:.1f} s); median of {RUNS} runs; "
          f"`python -c pass` = {floor:.3f} s.\n")  # fmt: skip
    print("| question | wall | start-up + imports | work | route | retrieve | answer | target |")
    print("|---|---|---|---|---|---|---|---|")
    for label, wall, startup, work, stage, target in rows:
        ok = "met" if wall < target else "missed"
        print(
            f"| {label} | {wall:.3f} s | {startup:.3f} s | {work:.3f} s | {stage['route']:.3f} s "
            f"| {stage['retrieve']:.3f} s | {stage['answer']:.3f} s | < {target} s ({ok}) |"
        )
    print("\nImports of an AST question through the StateGraph (`-X importtime`, own time")
    print("summed per top-level package):\n")
    print("| package | seconds |")
    print("|---|---|")
    for name, seconds in sorted(breakdown.items(), key=lambda kv: -kv[1]):
        if name in SHOWN or seconds >= 0.02:
            print(f"| {name} | {seconds:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
