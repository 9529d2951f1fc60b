"""eval/edit_hits.py: the lines a real commit edits, read from git, and whether the chunks a
ranker cites overlap them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import GitRepoFactory, git, write_files
from eval_scripts import EVAL, load_script

BEFORE = "".join(f"fn f{i}() {{}}\n" for i in range(1, 21))  # 20 lines


@pytest.fixture(scope="module")
def edit_hits() -> ModuleType:
    return load_script("edit_hits")


@pytest.fixture
def mirrors(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, str, str]:
    """A mirror whose last commit rewrites line 5, removes lines 12-13 and adds two lines
    after line 17 of ``src/lib.rs``; returns the mirrors folder, the parent and the commit."""
    work = git_repo({"src/lib.rs": BEFORE, "README.md": "x\n"}, name="work")
    parent = git(work, "rev-parse", "HEAD").strip()
    lines = BEFORE.splitlines(keepends=True)
    lines[4] = "fn f5() { 1 }\n"
    lines = [*lines[:11], *lines[13:]]  # f12, f13 gone: the parent's lines 12-13
    at = lines.index("fn f17() {}\n") + 1
    lines[at:at] = ["fn g() {}\n", "fn h() {}\n"]
    write_files(work, {"src/lib.rs": "".join(lines), "README.md": "y\n"})
    git(work, "commit", "-qam", "Rewrite f5, drop f12 and f13, add g and h after f17")
    commit = git(work, "rev-parse", "HEAD").strip()
    root = tmp_path / "mirrors"
    (root / "acme+lib").mkdir(parents=True)
    git(tmp_path, "clone", "-q", "--bare", str(work), str(root / "acme+lib" / "repo"))
    return root, parent, commit


def test_the_edited_lines_are_gits(edit_hits: ModuleType, mirrors: tuple[Path, str, str]) -> None:
    root, parent, commit = mirrors
    mirror = root / "acme+lib" / "repo"
    spans = edit_hits.edited_spans(mirror, parent, commit, ["src/lib.rs"])
    assert spans == [("src/lib.rs", 5, 5), ("src/lib.rs", 12, 13), ("src/lib.rs", 17, 18)]


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        ([["src/lib.rs", 1, 4], ["src/lib.rs", 5, 6]], {1: 0.0, 3: 1.0}),  # second chunk
        ([["src/lib.rs", 13, 16]], {1: 1.0, 3: 1.0}),  # the removed lines' last
        ([["src/lib.rs", 18, 20]], {1: 1.0, 3: 1.0}),  # the line after the addition
        ([["src/lib.rs", 6, 11], ["src/lib.rs", 14, 16]], {1: 0.0, 3: 0.0}),  # between
        ([["README.md", 1, 1], ["src/other.rs", 5, 5]], {1: 0.0, 3: 0.0}),  # other files
    ],
)
def test_a_cited_chunk_hits_when_it_shares_a_line(
    edit_hits: ModuleType,
    mirrors: tuple[Path, str, str],
    tmp_path: Path,
    chunks: list[list[object]],
    expected: dict[int, float],
) -> None:
    root, parent, commit = mirrors
    record = {
        "id": f"acme/lib@{commit[:12]}",
        "commit": parent,
        "expected_files": ["src/lib.rs"],
        "ranker": "product",
        "cited_chunks": chunks,
        "error": None,
    }
    table = edit_hits.score({"questions": [record]}, root, [1, 3])
    assert table["repos"]["acme/lib"]["product"] == {
        f"edit@{k}": 100 * v for k, v in expected.items()
    }
    # the script as a user runs it: the same figure in its table
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"questions": [record]}))
    done = subprocess.run(
        [
            sys.executable,
            str(EVAL / "edit_hits.py"),
            str(report),
            "--mirrors",
            str(root),
            "--k",
            "1,3",
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(EVAL.parent / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert (
        f"| acme/lib | 1 | {100 * expected[1]:.1f} / - | {100 * expected[3]:.1f} / - |"
        in done.stdout
    )


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("[]")
    done = subprocess.run(
        [sys.executable, str(EVAL / "edit_hits.py"), str(report), "--mirrors", str(tmp_path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(EVAL.parent / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"edit_hits: {report} is not an eval-dev report (no questions)"
    ]
