"""The lines a real commit edits, read from git (``codeagent.eval.functions.edited_lines``), and
whether the chunks a ranker cites overlap them: ``eval-dev``'s ``edit@k`` and eval/edit_hits.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from codeagent.eval.functions import edited_lines, overlaps
from conftest import GitRepoFactory, git, write_files
from eval_scripts import EVAL, load_script

BEFORE = "".join(f"def fetch_{i}(): return {i}\n" for i in range(1, 21))  # 20 lines


@pytest.fixture(scope="module")
def edit_hits() -> ModuleType:
    return load_script("edit_hits")


@pytest.fixture
def mirrors(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, str, str]:
    """A mirror whose last commit rewrites line 5, removes lines 12-13 and adds two lines
    after line 17 of ``pkg/lib.py``; returns the mirrors folder, the parent and the commit."""
    work = git_repo({"pkg/lib.py": BEFORE, "README.md": "x\n"}, name="work")
    parent = git(work, "rev-parse", "HEAD").strip()
    lines = BEFORE.splitlines(keepends=True)
    lines[4] = "def fetch_5(): return 50\n"
    lines = [*lines[:11], *lines[13:]]  # f12, f13 gone: the parent's lines 12-13
    at = lines.index("def fetch_17(): return 17\n") + 1
    lines[at:at] = ["def g(): return 0\n", "def h(): return 0\n"]
    write_files(work, {"pkg/lib.py": "".join(lines), "README.md": "y\n"})
    git(
        work,
        "commit",
        "-qam",
        "Rewrite fetch_5, drop fetch_12 and fetch_13, add g and h after fetch_17",
    )
    commit = git(work, "rev-parse", "HEAD").strip()
    root = tmp_path / "mirrors"
    (root / "acme+lib").mkdir(parents=True)
    git(tmp_path, "clone", "-q", "--bare", str(work), str(root / "acme+lib" / "repo"))
    return root, parent, commit


def test_the_edited_lines_are_gits(mirrors: tuple[Path, str, str]) -> None:
    root, parent, commit = mirrors
    mirror = root / "acme+lib" / "repo"
    spans = edited_lines(mirror, parent, commit, ["pkg/lib.py"])
    assert spans == [("pkg/lib.py", 5, 5), ("pkg/lib.py", 12, 13), ("pkg/lib.py", 17, 18)]


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        ([["pkg/lib.py", 1, 4], ["pkg/lib.py", 5, 6]], {1: 0.0, 3: 1.0}),  # second chunk
        ([["pkg/lib.py", 13, 16]], {1: 1.0, 3: 1.0}),  # the removed lines' last
        ([["pkg/lib.py", 18, 20]], {1: 1.0, 3: 1.0}),  # the line after the addition
        ([["pkg/lib.py", 6, 11], ["pkg/lib.py", 14, 16]], {1: 0.0, 3: 0.0}),  # between
        ([["README.md", 1, 1], ["pkg/other.py", 5, 5]], {1: 0.0, 3: 0.0}),  # other files
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
        "expected_files": ["pkg/lib.py"],
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


def test_eval_dev_scores_a_mined_commit_at_its_edited_lines(
    mirrors: tuple[Path, str, str], tmp_path: Path
) -> None:
    """A mined item (its id names the commit, asked at the parent) through ``eval-dev``: each
    ranker's record carries the edited lines and ``edit@k`` as its cited chunks say, and the
    tables have them."""
    from codeagent.config import Settings
    from codeagent.eval.dev import DevRun, run_dev
    from codeagent.eval.suite import SuiteItem
    from codeagent.eval.tables import build_tables

    root, parent, commit = mirrors
    mined = SuiteItem(
        id=f"acme/lib@{commit[:12]}",
        question="fetch_5 returns 50; drop fetch_12 and fetch_13",
        repo="acme/lib",
        commit=parent,
        expected_route="rag",
        expected_files=["pkg/lib.py"],
        source="test",
        suite="mined-langs",
    )
    run = DevRun(Settings.load(embed="none", k=10), root, tmp_path / "checkouts")
    records = run_dev([mined], run)
    assert {r["ranker"] for r in records} == {"product", "baseline"}
    edited = [("pkg/lib.py", 5, 5), ("pkg/lib.py", 12, 13), ("pkg/lib.py", 17, 18)]
    for record in records:
        assert [tuple(s) for s in record["gold_edits"]] == edited
        cited = [tuple(c) for c in record["cited_chunks"]]
        first = next(i for i, c in enumerate(cited) if any(overlaps(c, e) for e in edited))
        assert record["scores"]["edit@1"] == (1.0 if first == 0 else 0.0)
        assert record["scores"]["edit@10"] == 1.0
    assert "edits" in build_tables(records)["none"]
    # an item of another suite is not scored so
    other = mined.model_copy(update={"suite": "swebench-dev"})
    again = run_dev([other], DevRun(Settings.load(embed="none"), root, tmp_path / "co2"))
    assert all("edit@1" not in r["scores"] and "gold_edits" not in r for r in again)
