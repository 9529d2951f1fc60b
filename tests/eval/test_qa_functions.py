"""eval/qa_functions.py: the functions a how-question's reference answer names, found by
Python's ``ast`` in a real checkout at the item's commit, and whether cited chunks overlap
them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import GitRepoFactory, git
from eval_scripts import EVAL, load_script

CLIENT = (
    "class Client:\n"  # 1
    "    def send(self, request):\n"  # 2
    "        return helper(request)\n"  # 3
    "\n"
    "    def close(self):\n"  # 5
    "        pass\n"  # 6
    "\n"
    "\n"
    "def helper(request):\n"  # 9
    "    return request\n"  # 10
    "\n"
    "\n"
    "class Other:\n"  # 13
    "    def close(self):\n"  # 14
    "        pass\n"  # 15
)
ANSWER = (
    "`Client.send()` (lines 2-3 of `pkg/client.py`) hands the request to `helper`, which "
    "returns it; `close` is on two classes, so it names no one function; `missing` is none."
)


def script(*args: object) -> subprocess.CompletedProcess[str]:
    """eval/qa_functions.py ARGS as a user runs it."""
    return subprocess.run(
        [sys.executable, str(EVAL / "qa_functions.py"), *map(str, args)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(EVAL.parent / "src"), "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture(scope="module")
def qa_functions() -> ModuleType:
    return load_script("qa_functions")


@pytest.fixture
def checkouts(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, str]:
    """``checkouts/clones/acme+lib``, a real checkout; (checkouts, its commit)."""
    work = git_repo({"pkg/client.py": CLIENT}, name="work")
    root = tmp_path / "checkouts"
    (root / "clones").mkdir(parents=True)
    git(tmp_path, "clone", "-q", str(work), str(root / "clones" / "acme+lib"))
    return root, git(work, "rev-parse", "HEAD").strip()


def test_the_answer_names_functions_ast_finds(
    qa_functions: ModuleType, checkouts: tuple[Path, str]
) -> None:
    root, _ = checkouts
    names = qa_functions.named(ANSWER)
    assert names == {"Client.send", "helper", "close", "missing"}  # a path is no name
    found = qa_functions.gold(root / "clones" / "acme+lib", ["pkg/client.py"], names)
    assert found == [(("pkg/client.py", 2, 3), "Client.send"), (("pkg/client.py", 9, 10), "helper")]


@pytest.mark.parametrize(
    ("chunks", "question", "expected"),
    [
        # the first chunk overlaps send: fn@1; the question names send, so only helper is added
        ([["pkg/client.py", 1, 3], ["pkg/client.py", 9, 10]], "How does `send` work?",
         {"fn@1": 100.0, "added@1": 0.0, "added@5": 100.0}),
        ([["pkg/client.py", 5, 7], ["pkg/client.py", 13, 15]], "How are requests sent?",
         {"fn@1": 0.0, "fn@5": 0.0, "added@5": 0.0}),
    ],
)  # fmt: skip
def test_a_cited_chunk_hits_a_named_function(
    qa_functions: ModuleType,
    checkouts: tuple[Path, str],
    tmp_path: Path,
    chunks: list[list[object]],
    question: str,
    expected: dict[str, float],
) -> None:
    root, commit = checkouts
    record = {
        "id": "q1",
        "repo": "https://github.com/acme/lib",
        "commit": commit,
        "question": question,
        "expected_files": ["pkg/client.py"],
        "ranker": "product",
        "cited_chunks": chunks,
        "error": None,
    }
    answers = {"q1": {"id": "q1", "reference_answer": ANSWER}}
    table = qa_functions.score({"questions": [record]}, answers, root)
    row = table["acme/lib"]["product"]
    assert {key: row[key] for key in expected} == expected
    # as a user runs it: the same table
    report, suite = tmp_path / "report.json", tmp_path / "swe-qa-lib.jsonl"
    report.write_text(json.dumps({"questions": [record]}))
    suite.write_text(json.dumps(answers["q1"]) + "\n")
    done = script(report, "--suites", suite, "--checkouts", root)
    assert done.returncode == 0, done.stderr
    assert f"| acme/lib | 1 (1) | {row['fn@1']:.1f} / nan |" in done.stdout


def test_a_checkout_at_another_commit_is_not_read(
    qa_functions: ModuleType, checkouts: tuple[Path, str]
) -> None:
    root, _ = checkouts
    record = {
        "id": "q1",
        "repo": "acme/lib",
        "commit": "0" * 40,
        "question": "q",
        "expected_files": ["pkg/client.py"],
        "ranker": "product",
        "cited_chunks": [["pkg/client.py", 1, 3]],
        "error": None,
    }
    answers = {"q1": {"id": "q1", "reference_answer": ANSWER}}
    assert qa_functions.score({"questions": [record]}, answers, root) == {}


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"questions": []}))
    done = script(report, "--suites", report, "--checkouts", tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"qa_functions: no eval-dev checkouts at {tmp_path} (no clones/)"
    ]
