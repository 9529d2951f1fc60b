"""What a fresh process imports to answer a structural question in-process: the graph and
the tools the question needs, not the libraries of other routes or of other commands (a
structural test, not a timing: docs/benchmarks.md has the times)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

PROBE = """
import sys
from codeagent.cli.main import main
try:
    main()
finally:
    print("LOADED " + " ".join(sorted(sys.modules)), file=sys.stderr)
"""
# Loaded by other routes (search: numpy, BM25, FAISS, a model), by other commands (a clone
# takes a file lock), or by nothing at all any more (git runs as a subprocess; settings are
# read without pydantic-settings).
NOT_FOR_A_STRUCTURAL_ANSWER = {
    "numpy",
    "bm25s",
    "faiss",
    "torch",
    "onnxruntime",
    "sentence_transformers",
    "git",
    "pydantic_settings",
    "dotenv",
    "filelock",
}


def test_a_structural_answer_in_process_loads_the_graph_and_not_the_rest(git_repo: Any) -> None:
    root = git_repo(
        {"geo/shapes.py": "class Shape:\n    pass\n\n\nclass Square(Shape):\n    pass\n"}
    )
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "ask", "--no-server", "--llm", "none", "--embed", "none",
         "--json", "list the classes in geo/shapes.py"],
        capture_output=True, text=True, cwd=root, env=os.environ.copy(), timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["route"]["tool"] == "ast"
    line = next(x for x in proc.stderr.splitlines() if x.startswith("LOADED"))
    tops = {name.split(".")[0] for name in line.split()[1:]}
    assert "langgraph" in tops  # every question goes through the graph
    assert tops & NOT_FOR_A_STRUCTURAL_ANSWER == set()


def test_git_runs_without_gitpython(git_repo: Any) -> None:
    """The repository's files are listed by git, run directly: the same list `git ls-files`
    prints, and a failing command is one GitError line."""
    import pytest

    from codeagent.errors import GitError
    from codeagent.repo.git import git_paths, git_text

    root = git_repo({"a.py": "x = 1\n", "b/c.py": "y = 2\n"})
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
    assert git_paths(root, "ls-files") == listed.stdout.split()
    assert git_text(root, "rev-parse", "--show-toplevel") == str(root)
    with pytest.raises(GitError, match="Needed a single revision") as failed:
        git_text(root, "rev-parse", "--verify", "no-such-branch^{commit}")
    assert failed.value.status == 128
