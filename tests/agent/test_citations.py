"""The citation check at its edges: which sources an answer adds, the notes on bad citations,
line ranges, paths that leave the repository, and the history an LLM is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.agent.answer import (
    MAX_HISTORY_ANSWER_CHARS,
    Citation,
    CitationChecker,
    build_messages,
    check_citations,
    find_citations,
)
from codeagent.agent.state import Turn
from codeagent.result import Source


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("".join(f"line{n} = {n}\n" for n in range(1, 31)))
    (root / "pkg" / "b.py").write_text("b = 1\n" * 30)
    (tmp_path / "outside.py").write_text("secret = 1\n" * 30)
    return root


def locations(sources: list[Source]) -> list[str]:
    return [s.location for s in sources]


def test_a_citation_inside_a_context_source_adds_nothing(repo: Path) -> None:
    context = [Source(path="pkg/a.py", start_line=10, end_line=20)]
    answer = "See pkg/a.py:12-15 and pkg/a.py:10-20."  # inside, and exactly the same range
    sources, notes = check_citations(answer, repo, context)
    assert locations(sources) == ["pkg/a.py:10-20"]
    assert notes == []


def test_a_verified_citation_outside_the_context_is_added(repo: Path) -> None:
    context = [Source(path="pkg/a.py", start_line=10, end_line=20)]
    answer = "See pkg/a.py:5-12, pkg/a.py:18-25, pkg/b.py:12-15 and pkg/a.py:11-19."
    sources, notes = check_citations(answer, repo, context)
    assert locations(sources) == [
        "pkg/a.py:10-20",
        "pkg/a.py:5-12",  # starts before the context source
        "pkg/a.py:18-25",  # ends after it
        "pkg/b.py:12-15",  # the same lines of another file
    ]
    assert notes == []


def test_an_unverified_citation_is_a_note_never_a_source(repo: Path) -> None:
    answer = "See `Xghost.py:3`, `pkg/a.py:0`, pkg/a.py:9-4 and pkg/a.py:31."
    sources, notes = check_citations(answer, repo, [])
    assert sources == []
    assert notes == [
        "[unverified citation: Xghost.py:3 — no such file in the repository]",
        "[unverified citation: pkg/a.py:0 — not a valid line range]",
        "[unverified citation: pkg/a.py:9-4 — not a valid line range]",
        "[unverified citation: pkg/a.py:31 — the file has only 30 lines]",
    ]


def test_a_file_outside_the_repository_is_never_read(repo: Path) -> None:
    (repo / "pkg" / "link.py").symlink_to(repo.parent / "outside.py")
    checker = CitationChecker(repo)
    for text in ("../outside.py:1", "pkg/../../outside.py:1", "pkg/link.py:1"):
        (cite,) = find_citations(text)
        assert checker.problem(cite) == "no such file in the repository", text
    absolute = Citation(str(repo.parent / "outside.py"), 1, 1, "outside.py:1")
    assert checker.problem(absolute) == "no such file in the repository"


def test_a_folder_is_not_a_file_to_cite(repo: Path) -> None:
    (repo / "pkg" / "dir.py").mkdir()
    (cite,) = find_citations("pkg/dir.py:1")
    assert CitationChecker(repo).problem(cite) == "no such file in the repository"


def test_a_long_past_answer_is_cut_for_the_follow_up() -> None:
    limit = MAX_HISTORY_ANSWER_CHARS
    history: list[Turn] = [
        {"question": "first?", "answer": "a" * limit},
        {"question": "second?", "answer": "b" * (limit + 1)},
    ]
    messages = build_messages("third?", history, "context")
    texts = [str(m.content) for m in messages]
    assert texts[1:5] == ["first?", "a" * limit, "second?", "b" * limit + " ..."]
    assert "third?" in texts[5]
    assert len(messages) == 6
