"""eval/mine_commits.py: which commits of a real git history become question -> files examples."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from conftest import GitRepoFactory
from eval_scripts import load_script

LONG = "Make the retry loop honour the backoff factor when the server sends Retry-After"


@pytest.fixture(scope="module")
def mine_commits() -> ModuleType:
    return load_script("mine_commits")


def commit(root: Path, message: str, files: dict[str, str], author: str = "Dev") -> str:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    who = f"--author={author} <dev@example.invalid>"
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", who, "-m", message], check=True)
    out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True)
    return out.stdout.decode().strip()


def test_only_informative_commits_of_source_files_are_examples(
    git_repo: GitRepoFactory, mine_commits: ModuleType
) -> None:
    root = git_repo({"pkg/retry.py": "x = 1\n", "pkg/util.py": "y = 1\n", "README.md": "hi\n"})
    base = commit(root, "start", {"pkg/a.py": "a = 0\n"})
    good = commit(
        root,
        f"{LONG}\n\nThe factor was read once.\n\nSigned-off-by: Dev <dev@example.invalid>",
        {"pkg/retry.py": "x = 2\n", "tests/test_retry.py": "def test(): pass\n"},
    )
    commit(root, "Fix typo in the retry loop docstring so that it reads well for every user", {
        "pkg/retry.py": "x = 3\n"})  # fmt: skip
    commit(root, "Bump version to 2.0.1 for the release of the retry changes and more", {
        "pkg/util.py": "y = 2\n"})  # fmt: skip
    commit(root, f"{LONG} (new module)", {"pkg/new.py": "z = 1\n"})  # added: not at the parent
    commit(root, f"{LONG} and more", {f"pkg/m{i}.py": "m = 1\n" for i in range(4)})  # 4 new
    commit(root, "Too short a message", {"pkg/util.py": "y = 3\n"})
    commit(root, f"{LONG} in the tests only", {"tests/test_retry.py": "def test(): 1\n"})
    commit(root, f"{LONG}, by a bot", {"pkg/util.py": "y = 4\n"}, author="renovate[bot]")
    found = mine_commits.mine(root / ".git", "acme/retry", per_repo=10, seed=0)
    assert [e["id"] for e in found] == [f"acme/retry@{good[:12]}"]
    example = found[0]
    assert example["commit"] == base  # asked at the parent
    assert example["expected_files"] == ["pkg/retry.py"]  # the test file is not a source file
    assert example["question"] == f"{LONG}\n\nThe factor was read once."  # no trailer


def test_clean_message(mine_commits: ModuleType) -> None:
    text = "Fix the parser (#1234) [skip ci]\n\n\n\nCo-authored-by: A <a@b.c>\nReviewed-by: B"
    assert mine_commits.clean_message(text) == "Fix the parser"
