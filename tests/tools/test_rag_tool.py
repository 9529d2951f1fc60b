"""retrieve(): tests/docs demotion, per-file cap, window merging."""

from __future__ import annotations

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.types import SearchHit
from codeagent.tools.rag_tool import is_demoted_path, merge_hits, retrieve
from conftest import GitRepoFactory


def hit(path: str, start: int, end: int, score: float, symbol: str = "") -> SearchHit:
    text = "\n".join(f"line {n}" for n in range(start, end + 1))
    return SearchHit(path, start, end, symbol, score, text, ranks={"bm25": int(100 - score)})


class FakeStore:
    def __init__(self, hits: list[SearchHit]) -> None:
        self.hits = hits
        self.calls: list[tuple[str, int, int]] = []

    def search(self, query: str, k: int = 10, *, per_file: int = 2, exclude: object = None):
        self.calls.append((query, k, per_file))
        return self.hits[:k]


@pytest.mark.parametrize(
    ("path", "demoted"),
    [
        ("tests/test_a.py", True),
        ("src/pkg/tests/helpers.py", True),
        ("docs/index.md", True),
        ("doc/conf.py", True),
        ("examples/demo.py", True),
        ("testing/util.py", True),
        ("pkg/test_utils.py", True),
        ("pkg/utils_test.py", True),
        ("conftest.py", True),
        ("pkg/testament.py", False),
        ("src/latest.py", False),
        ("README.md", False),
        ("pkg/contest_test.txt", False),
    ],
)
def test_demoted_paths(path: str, demoted: bool) -> None:
    assert is_demoted_path(path) is demoted


def test_tests_and_docs_go_last_unless_asked_about() -> None:
    store = FakeStore(
        [hit("tests/test_a.py", 1, 5, 9), hit("docs/a.md", 1, 5, 8), hit("src/a.py", 1, 5, 7)]
    )
    assert [h.path for h in retrieve(store, "how is a parsed?", 3)] == [
        "src/a.py",
        "tests/test_a.py",
        "docs/a.md",
    ]
    assert store.calls == [("how is a parsed?", 9, 2)]
    assert [h.path for h in retrieve(store, "which tests cover a?", 2)] == [
        "tests/test_a.py",
        "docs/a.md",
    ]


def test_code_comes_before_other_text_unless_prose_is_asked_for() -> None:
    hits = [hit("README.md", 1, 5, 9), hit("setup.cfg", 1, 5, 8), hit("src/a.py", 1, 5, 7)]
    order = [h.path for h in retrieve(FakeStore(hits), "how is a parsed?", 3)]
    assert order == ["src/a.py", "README.md", "setup.cfg"]
    order = [h.path for h in retrieve(FakeStore(hits), "how do I install this?", 3)]
    assert order == ["README.md", "setup.cfg", "src/a.py"]


def test_an_issue_report_mentioning_tests_in_passing_still_wants_code() -> None:
    hits = [hit("tests/test_a.py", 1, 5, 9), hit("CHANGES.rst", 1, 5, 8), hit("src/a.py", 1, 5, 7)]
    issue = "Parsing a header with a comma fails. " * 10 + "The tests and docs do not cover it."
    assert len(issue.split()) > 60
    assert [h.path for h in retrieve(FakeStore(hits), issue, 3)] == [
        "src/a.py",
        "CHANGES.rst",
        "tests/test_a.py",
    ]
    short = "which tests cover parsing?"
    assert retrieve(FakeStore(hits), short, 3)[0].path == "tests/test_a.py"


def test_adjacent_and_overlapping_chunks_merge() -> None:
    merged = merge_hits(hit("a.py", 10, 20, 5, "g"), hit("a.py", 1, 12, 7, "f"))
    assert (merged.start_line, merged.end_line, merged.score) == (1, 20, 7)
    assert merged.text.splitlines() == [f"line {n}" for n in range(1, 21)]
    assert merged.symbol == "g, f"
    adjacent = merge_hits(hit("a.py", 1, 4, 1), hit("a.py", 5, 6, 2))
    assert adjacent.text.splitlines() == [f"line {n}" for n in range(1, 7)]
    inside = merge_hits(hit("a.py", 1, 9, 1), hit("a.py", 3, 4, 2))
    assert (inside.start_line, inside.end_line) == (1, 9)


def test_retrieve_merges_neighbours_and_keeps_rank_order() -> None:
    store = FakeStore(
        [
            hit("a.py", 1, 10, 9),
            hit("b.py", 1, 3, 8),
            hit("a.py", 11, 14, 7),
            hit("c.py", 1, 2, 6),
            hit("b.py", 40, 44, 5),
        ]
    )
    result = retrieve(store, "anything", 3)
    assert [(h.path, h.start_line, h.end_line) for h in result] == [
        ("a.py", 1, 14),
        ("b.py", 1, 3),
        ("c.py", 1, 2),
    ]


def test_retrieve_on_a_real_index(git_repo: GitRepoFactory) -> None:
    root = git_repo(
        {
            "pkg/retry.py": "def backoff_delay(attempt):\n    return 2 ** attempt\n",
            "tests/test_retry.py": "def test_backoff_delay():\n    assert backoff_delay(1)\n"
            "    assert backoff_delay(2) == 4\n",
            "pkg/other.py": "def unrelated():\n    return None\n",
        }
    )
    store, _ = load_or_build(root, Settings.load(embed="none"))
    top = retrieve(store, "backoff_delay", 2)
    assert [h.path for h in top] == ["pkg/retry.py", "tests/test_retry.py"]
    assert retrieve(store, "test for backoff_delay", 1)[0].path == "tests/test_retry.py"
