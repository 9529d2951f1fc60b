"""Sources across served repositories are told apart by repository *and* path.

Two served repositories hold the same ``src/x.py`` (a fork and its upstream, two services of
one template). Truth: the files the test writes and their line counts.
"""

from __future__ import annotations

from pathlib import Path

from codeagent.agent.across import check_cited
from codeagent.events import ResultEvent, SourcesEvent
from codeagent.result import AskResult, Source
from codeagent.route import RouteDecision
from codeagent.server.everywhere import labelled_events
from conftest import write_files

X = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"  # six lines


def two_repos(tmp_path: Path) -> dict[str, Path]:
    roots = {"api": tmp_path / "api", "web": tmp_path / "web"}
    for root in roots.values():
        write_files(root, {"src/x.py": X})
    return roots


def test_a_citation_of_one_repository_is_not_covered_by_the_others_source(
    tmp_path: Path,
) -> None:
    roots = two_repos(tmp_path)
    sources = [Source(repo="api", path="src/x.py", start_line=1, end_line=6, score=1.0)]
    answer = "f is in api:src/x.py:1-2, and g in web:src/x.py:5-6."
    extra, notes = check_cited(answer, roots, sources)
    assert notes == []
    # web's file was not among the sources: it is added, as web's, not folded into api's
    assert [s.to_json() for s in extra] == [
        {"repo": "web", "path": "src/x.py", "start_line": 5, "end_line": 6, "score": None}
    ]


def test_a_citation_reaching_past_a_source_is_its_own_source(tmp_path: Path) -> None:
    """A source of lines 1-3 covers a citation of 2-3, not one of 2-6."""
    roots = two_repos(tmp_path)
    sources = [Source(repo="api", path="src/x.py", start_line=1, end_line=3, score=1.0)]
    extra, notes = check_cited("api:src/x.py:2-3 and api:src/x.py:2-6", roots, sources)
    assert notes == []
    assert [s.to_json() for s in extra] == [
        {"repo": "api", "path": "src/x.py", "start_line": 2, "end_line": 6, "score": None}
    ]


def test_a_citation_past_the_end_is_checked_against_its_own_repository(tmp_path: Path) -> None:
    roots = two_repos(tmp_path)
    write_files(roots["web"], {"src/x.py": "x = 1\n"})  # web's copy is one line long
    sources = [Source(repo="api", path="src/x.py", start_line=1, end_line=6, score=1.0)]
    extra, notes = check_cited("see web:src/x.py:5-6", roots, sources)
    assert extra == []
    assert len(notes) == 1
    assert "web:src/x.py:5-6" in notes[0]


def test_every_source_of_an_answer_names_its_repository() -> None:
    one = Source(path="src/x.py", start_line=1, end_line=2)
    result = AskResult(question="q", route=RouteDecision(tool="rag"), answer="a", sources=[one])
    out = list(labelled_events("web", [SourcesEvent(sources=[one]), ResultEvent(result=result)]))
    assert out[0].to_json()["sources"] == [
        {"repo": "web", "path": "src/x.py", "start_line": 1, "end_line": 2, "score": None}
    ]
    labelled = out[1].to_json()["result"]
    assert labelled["repo"] == "web"
    assert [s["repo"] for s in labelled["sources"]] == ["web"]
    # a source of one repository in JSON names none (the answer searched only it)
    assert "repo" not in ResultEvent(result=result).to_json()["result"]["sources"][0]
