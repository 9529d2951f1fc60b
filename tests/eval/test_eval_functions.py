"""Function-level scoring: a cited chunk overlaps a function the gold patch edits.

The gold functions' lines are written down here by hand from the sources below (decorators
included), never read back from the code under test; the dev run is a real one over a bare
mirror of a repository built here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.eval.dev import DevRun, run_dev
from codeagent.eval.functions import function_scores, gold_functions
from codeagent.eval.suite import SuiteItem
from codeagent.eval.tables import build_tables, render_tables
from conftest import GitRepoFactory, bare_mirror

SESSIONS = '''import functools


class Session:
    """A session."""

    retries = 3

    @functools.cache
    def send(self, request):
        return self.adapter(request)

    def adapter(self, request):
        return request

    if True:
        def close(self):
            return None


def merge_cookies(jar, cookies):
    """Merge cookies into the jar."""
    for cookie in cookies:
        jar.add(cookie)
    return jar
'''
# By hand: Session.send is lines 9-11 (its decorator on 9), adapter 13-14, close 17-18,
# merge_cookies 21-25.

FILES = {
    "pkg/sessions.py": SESSIONS,
    "pkg/cookies_util.py": "def jar_of(cookies):\n    return list(cookies)\n",
    "pkg/other.py": "def unrelated():\n    return 'nothing to see'\n",
}


def test_gold_functions_are_read_with_their_decorators(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "sessions.py").write_text(SESSIONS, encoding="utf-8")
    spans = {
        "pkg/sessions.py": ["Session.send", "merge_cookies", "Session", "Session.close", "nope"],
        "pkg/missing.py": ["f"],
        "README.md": ["x"],
    }
    assert gold_functions(tmp_path, spans) == [
        ("pkg/sessions.py", 9, 11),
        ("pkg/sessions.py", 21, 25),
        ("pkg/sessions.py", 17, 18),
    ]
    assert gold_functions(tmp_path, None) == []


def test_function_scores_count_the_first_overlapping_chunk() -> None:
    gold = [("pkg/sessions.py", 9, 11)]
    cited = [("pkg/other.py", 1, 2), ("pkg/sessions.py", 12, 20), ("pkg/sessions.py", 1, 9)]
    assert function_scores(cited, gold) == {
        "fn_hit@1": 0.0,
        "fn_hit@3": 1.0,
        "fn_hit@5": 1.0,
        "fn_hit@10": 1.0,
    }
    # the right lines of another file are no hit; no gold function: not scored
    assert function_scores([("pkg/other.py", 9, 11)], gold)["fn_hit@10"] == 0.0
    assert function_scores(cited, []) == {}


@pytest.fixture
def mirrors(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, str]:
    return bare_mirror(git_repo, tmp_path, FILES, "psf+requests")


def test_a_dev_run_scores_both_rankers_at_function_level(
    mirrors: tuple[Path, str], tmp_path: Path
) -> None:
    root, commit = mirrors
    question = "merge_cookies does not merge the cookies into the jar when cookies is a jar"
    item = SuiteItem(
        id="a",
        question=question,
        repo="https://github.com/psf/requests",
        commit=commit,
        expected_route="rag",
        expected_files=["pkg/sessions.py"],
        expected_spans={"pkg/sessions.py": ["merge_cookies"]},
        source="test",
        suite="swebench-dev",
    )
    run = DevRun(Settings.load(embed="none", k=10), root, tmp_path / "checkouts")
    records = {r["ranker"]: r for r in run_dev([item], run)}
    for name in ("product", "baseline"):
        record = records[name]
        assert record["gold_functions"] == [["pkg/sessions.py", 21, 25]]
        chunk = record["cited_chunks"][0]
        assert chunk[0] == "pkg/sessions.py", record["cited_chunks"]
        assert chunk[1] <= 25
        assert chunk[2] >= 21
        assert record["scores"]["fn_hit@1"] == 1.0
    tables = build_tables(list(records.values()))
    row = tables["fit"]["functions"]["rows"]["psf/requests"]
    assert row["product"]["fn_hit@5"] == 1.0
    assert row["baseline"]["n"] == 1
    assert "SWE-bench function Acc@k" in render_tables(tables)
    json.dumps(records["product"])  # the report is JSON


def test_an_item_without_spans_is_not_scored_at_function_level(
    mirrors: tuple[Path, str], tmp_path: Path
) -> None:
    root, commit = mirrors
    item = SuiteItem(
        id="b",
        question="merge_cookies loses cookies",
        repo="https://github.com/psf/requests",
        commit=commit,
        expected_route="rag",
        expected_files=["pkg/sessions.py"],
        source="test",
        suite="swebench-dev",
    )
    run = DevRun(Settings.load(embed="none", k=10), root, tmp_path / "checkouts")
    records = run_dev([item], run)
    assert all("fn_hit@5" not in r["scores"] for r in records)
    assert "functions" not in build_tables(records)["fit"]
