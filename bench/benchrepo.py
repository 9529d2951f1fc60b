"""A benchmark's throwaway repository: a copy of a source folder, committed to a new git
repository with a fixed identity (used by bench_ask.py and bench_server.py); a checkout's
questions of a hand-written suite (bench_test_chunks.py, bench_declarations.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path


def make_repo(source: Path, workdir: Path) -> Path:
    """``workdir/repo`` holding ``source`` as its one folder, everything committed."""
    repo = workdir / "repo"
    shutil.copytree(source, repo / source.name, ignore=shutil.ignore_patterns("__pycache__"))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "import"]):
        subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com",
                        "-c", "commit.gpgsign=false", *args], cwd=repo, check=True)  # fmt: skip
    return repo


def checkout_questions(checkout: Path, suite: Path) -> list[str]:
    """The ``question`` fields of ``suite`` (JSON lines) whose ``repo`` ends with the folder
    name of ``checkout`` after ``+`` (``OWNER+NAME``), or every question when none does."""
    items = [json.loads(line) for line in suite.read_text().splitlines() if line.strip()]
    name = checkout.resolve().name.rpartition("+")[2]
    mine = [i["question"] for i in items if str(i.get("repo", "")).endswith("/" + name)]
    return mine or [i["question"] for i in items]
