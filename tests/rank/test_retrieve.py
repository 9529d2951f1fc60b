"""retrieve(): files first, code before tests and config, window merging."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from codeagent.rank.windows import merge_hits
from codeagent.records import SearchHit
from conftest import GitRepoFactory

if TYPE_CHECKING:
    from codeagent.store.store import IndexStore


def hit(path: str, start: int, end: int, score: float, symbol: str = "") -> SearchHit:
    text = "\n".join(f"line {n}" for n in range(start, end + 1))
    return SearchHit(path, start, end, symbol, score, text, ranks={"bm25": int(100 - score)})


def test_adjacent_and_overlapping_chunks_merge() -> None:
    merged = merge_hits(hit("a.py", 10, 20, 5, "g"), hit("a.py", 1, 12, 7, "f"))
    assert (merged.start_line, merged.end_line, merged.score) == (1, 20, 7)
    assert merged.text.splitlines() == [f"line {n}" for n in range(1, 21)]
    assert merged.symbol == "g, f"
    adjacent = merge_hits(hit("a.py", 1, 4, 1), hit("a.py", 5, 6, 2))
    assert adjacent.text.splitlines() == [f"line {n}" for n in range(1, 7)]
    inside = merge_hits(hit("a.py", 1, 9, 1), hit("a.py", 3, 4, 2))
    assert (inside.start_line, inside.end_line) == (1, 9)


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


HEADER_FILES = {
    "pkg/header.py": "def parse_header(value):\n    return value.split(',')\n",
    "tests/test_header.py": "from pkg.header import parse_header\n\n"
    "def test_parse_header():\n    # a header with a comma\n"
    "    assert parse_header('a,b') == ['a', 'b']\n",
    "CHANGES.rst": "Parsing a header with a comma is fixed.\n" * 3,
    "setup.cfg": "[metadata]\nname = header comma parse\n",
}
HEADER_ISSUE = "`parse_header` fails on a comma. " * 12 + "The tests and docs do not cover it."


def test_an_issue_mentioning_tests_in_passing_still_gets_code_first(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(HEADER_FILES)
    store, _ = load_or_build(root, Settings.load(embed="none"))
    assert len(HEADER_ISSUE.split()) > 60
    order = [h.path for h in retrieve(store, HEADER_ISSUE, 4)]
    assert order[0] == "pkg/header.py"
    assert retrieve(store, "which tests cover parse_header?", 1)[0].path == "tests/test_header.py"
    assert retrieve(store, "where is parse_header tested?", 1)[0].path == "tests/test_header.py"


def test_the_first_ranker_puts_a_test_above_a_changelog_for_an_issue(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first ranker's priors (its order is the learned model's pool): for an issue report,
    a test above the changelog. The model orders the files that are not the answer as it
    learned; only the answer's place is asserted for it (above)."""
    monkeypatch.setattr("codeagent.rank.ranking.USE_MODEL", False)
    root = git_repo(HEADER_FILES)
    store, _ = load_or_build(root, Settings.load(embed="none"))
    order = [h.path for h in retrieve(store, HEADER_ISSUE, 4)]
    assert order.index("tests/test_header.py") < order.index("CHANGES.rst")


def test_neighbouring_chunks_of_a_file_become_one_window(git_repo: GitRepoFactory) -> None:
    body = "".join(f"    total += {n}  # retry budget\n" for n in range(30))
    root = git_repo(
        {
            "pkg/budget.py": f"def retry_budget_a(total):\n{body}    return total\n"
            f"def retry_budget_b(total):\n{body}    return total\n",
            "pkg/other.py": "def unrelated():\n    return None\n",
        }
    )
    store, _ = load_or_build(root, Settings.load(embed="none"))
    (top,) = retrieve(store, "retry budget", 1)
    assert (top.path, top.start_line, top.end_line) == ("pkg/budget.py", 1, 64)
    assert set(top.symbol.split(", ")) == {"retry_budget_a", "retry_budget_b"}


def _two_chunk_files() -> dict[str, str]:
    """Ten files, each with two functions that say "retry budget" (fewer times file by file)
    far apart, a long filler function between them."""
    filler = "".join(f"    value = value * {n} + 1  # arithmetic\n" for n in range(40))
    files = {}
    for n in range(10):
        hits = "retry budget " * (10 - n)
        files[f"pkg/mod{n}.py"] = (
            f"def retry_budget_first_{n}(total):\n    # {hits}\n    return total\n\n\n"
            f"def filler_{n}(value):\n{filler}    return value\n\n\n"
            f"def retry_budget_second_{n}(total):\n    # {hits}\n    return total\n"
        )
    return files


def test_second_chunks_fill_the_first_five_windows_then_each_file_shows_one(
    git_repo: GitRepoFactory,
) -> None:
    """Ten files, each with two matching functions far apart: the first five windows are the
    two best files' two chunks and the third's best; past them one window a file, so ten
    windows name eight files (two chunks a file everywhere would name five)."""
    store, _ = load_or_build(git_repo(_two_chunk_files()), Settings.load(embed="none"))
    shown = retrieve(store, "retry budget", 10)
    paths = [h.path for h in shown]
    assert len(shown) == 10
    assert paths[:5] == ["pkg/mod0.py", "pkg/mod0.py", "pkg/mod1.py", "pkg/mod1.py", "pkg/mod2.py"]
    assert len(set(paths)) == 8
    assert all("filler" not in h.symbol for h in shown)


def test_the_first_file_shows_up_to_three_windows_within_the_first_five(
    git_repo: GitRepoFactory,
) -> None:
    """Files with three matching functions far apart: the first file shows three windows, the
    second two; past the first five windows one window a file."""
    filler = "".join(f"    value = value * {n} + 1  # arithmetic\n" for n in range(40))
    files = {}
    for n in range(8):
        hits = "retry budget " * (10 - n)
        files[f"pkg/mod{n}.py"] = "\n\n".join(
            f"def retry_budget_{part}_{n}(total):\n    # {hits}\n    return total\n\n\n"
            f"def filler_{part}_{n}(value):\n{filler}    return value\n"
            for part in ("first", "second", "third")
        )
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    shown = retrieve(store, "retry budget", 10)
    paths = [h.path for h in shown]
    assert paths[:5] == ["pkg/mod0.py"] * 3 + ["pkg/mod1.py"] * 2
    assert paths[5:] == [f"pkg/mod{n}.py" for n in range(2, 7)]
    assert len({h.symbol for h in shown[:3]}) == 3
    assert all("filler" not in h.symbol for h in shown)


def _function(name: str, words: str) -> str:
    return f"def {name}(total):\n    # {words}\n    return total\n\n\n"


def _budget_repo(git_repo: GitRepoFactory) -> Path:
    """A file whose best function matches "retry budget" far better than its other two, and
    six other files that match it less than that best."""
    filler = "".join(f"    value = value * {n} + 1  # arithmetic\n" for n in range(40))
    files = {
        "pkg/budget.py": _function("retry_budget_main", "retry budget " * 12)
        + f"def filler_a(value):\n{filler}    return value\n\n\n"
        + _function("refill", "retry budget once")
        + f"def filler_b(value):\n{filler}    return value\n\n\n"
        + _function("drain", "budget drained by a retry"),
    }
    for n in range(6):
        files[f"pkg/other{n}.py"] = _function(f"other_{n}", "retry budget " * (4 - n % 3))
    return git_repo(files)


# a long question: a bug report
REPORT = "the retry budget is exceeded when the retry budget runs out " + "and the budget " * 20


def test_a_reports_first_file_shows_its_weaker_matching_chunks_first(
    git_repo: GitRepoFactory,
) -> None:
    """For a bug report the first file's two weaker matches still take the second and third
    windows (an issue's edited function is most often in the first file, and not its best
    chunk), before the other files' best chunks; a function that matches nothing is not
    shown."""
    store, _ = load_or_build(_budget_repo(git_repo), Settings.load(embed="none"))
    shown = retrieve(store, REPORT, 10)
    assert [h.path for h in shown[:3]] == ["pkg/budget.py"] * 3
    assert {h.symbol for h in shown[:3]} == {"retry_budget_main", "refill", "drain"}
    assert sorted(h.path for h in shown[3:]) == [f"pkg/other{n}.py" for n in range(6)]
    assert all("filler" not in h.symbol for h in shown)


def test_the_first_file_shows_no_chunk_without_evidence(git_repo: GitRepoFactory) -> None:
    """The first file's functions that hold no word of the question are not shown."""
    files = {
        "pkg/solo.py": _function("retry_budget", "retry budget " * 5)
        + _function("parse_color", "red green blue")
        + _function("load_font", "serif sans mono"),
        "pkg/other.py": _function("other", "budget"),
    }
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    shown = retrieve(store, "retry budget", 5)
    assert [(h.path, h.symbol) for h in shown] == [
        ("pkg/solo.py", "retry_budget"),
        ("pkg/other.py", "other"),
    ]


def test_a_how_questions_first_file_shows_only_the_chunks_near_its_best(
    git_repo: GitRepoFactory,
) -> None:
    """A how-question (short, no code) keeps the share rule: the first file's weak matches
    leave their windows to other files, so ten windows name more files."""
    store, _ = load_or_build(_budget_repo(git_repo), Settings.load(embed="none"))
    assert analyze("how is the retry budget kept?").reports is False
    assert analyze(REPORT).reports is True
    shown = retrieve(store, "how is the retry budget kept?", 10)
    assert [(h.path, h.symbol) for h in shown[:1]] == [("pkg/budget.py", "retry_budget_main")]
    assert all(h.path != "pkg/budget.py" for h in shown[1:])
    assert {h.path for h in shown} >= {f"pkg/other{n}.py" for n in range(6)}


def _second_file_repo(git_repo: GitRepoFactory, single_words: int) -> Path:
    """``pkg/budget.py`` ranks first; ``pkg/pair.py`` second, with a second match a little
    under its best; four files after them with one match each, of ``single_words`` words."""
    filler = "".join(f"    value = value * {n} + 1  # arithmetic\n" for n in range(40))
    files = {
        "pkg/budget.py": _function("retry_budget_main", "retry budget " * 12)
        + f"def filler_b(value):\n{filler}    return value\n\n\n"
        + _function("retry_budget_more", "retry budget " * 3),
        "pkg/pair.py": _function("pair_best", "retry budget " * 6)
        + f"def filler_p(value):\n{filler}    return value\n\n\n"
        + _function("pair_second", "retry budget " * 3),
    }
    for n in range(4):
        files[f"pkg/single{n}.py"] = _function(f"single_{n}", "retry budget " * single_words)
    return git_repo(files)


def _best_chunk(store: IndexStore, question: str, path: str, nth: int = 0) -> float:
    ranking = rank_files(store, question, analyze(question))
    return float(ranking.chunk_scores[ranking.chunks_of(path)[nth]])


def test_a_reports_later_file_gives_its_second_window_to_a_better_chunk_of_the_next_files(
    git_repo: GitRepoFactory,
) -> None:
    """For a bug report, the second file's second match, weaker than the best match of the
    files after it, leaves its place among the first five windows to them; a how-question
    still shows it there (the share rule alone)."""
    store, _ = load_or_build(_second_file_repo(git_repo, 5), Settings.load(embed="none"))
    files = [p for p, _ in rank_files(store, REPORT, analyze(REPORT)).files]
    assert files[:2] == ["pkg/budget.py", "pkg/pair.py"]
    single = _best_chunk(store, REPORT, files[2])
    assert (
        _best_chunk(store, REPORT, "pkg/pair.py", 1)
        < single
        < _best_chunk(store, REPORT, "pkg/pair.py")
    )
    shown = retrieve(store, REPORT, 10)
    assert [h.path for h in shown[:5] if h.path != files[0]] == ["pkg/pair.py", files[2]]
    assert "pair_second" not in {h.symbol for h in shown}
    how = retrieve(store, "how is the retry budget kept?", 10)
    assert [h.symbol for h in how[:5] if h.path == "pkg/pair.py"] == ["pair_best", "pair_second"]


def test_a_reports_later_file_keeps_its_second_window_when_it_beats_the_next_files(
    git_repo: GitRepoFactory,
) -> None:
    """The same report, the files after the first two matching it only weakly: the second
    file's second match scores better than their best and keeps its window."""
    store, _ = load_or_build(_second_file_repo(git_repo, 1), Settings.load(embed="none"))
    files = [p for p, _ in rank_files(store, REPORT, analyze(REPORT)).files]
    assert files[1] == "pkg/pair.py"
    assert _best_chunk(store, REPORT, files[2]) < _best_chunk(store, REPORT, "pkg/pair.py", 1)
    shown = retrieve(store, REPORT, 10)
    assert [h.symbol for h in shown if h.path == "pkg/pair.py"] == ["pair_best", "pair_second"]


def test_a_how_question_shows_one_window_a_file_after_the_first(
    git_repo: GitRepoFactory,
) -> None:
    """The files of the test above, asked about in a sentence: past the first file one window
    a file, so ten windows name nine files (a few keywords name eight, above)."""
    store, _ = load_or_build(git_repo(_two_chunk_files()), Settings.load(embed="none"))
    question = "how is the retry budget of a call spent once the retry budget runs out?"
    paths = [h.path for h in retrieve(store, question, 10)]
    assert len(paths) == 10
    assert paths[0] == paths[1] != paths[2]  # the first file's two windows, first
    assert len(set(paths)) == 9
    assert len(set(paths[2:])) == 8  # one window each after it
