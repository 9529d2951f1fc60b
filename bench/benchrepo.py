"""A benchmark's throwaway repository: a copy of a source folder, committed to a new git
repository with a fixed identity (used by bench_ask.py and bench_server.py)."""

from __future__ import annotations

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
