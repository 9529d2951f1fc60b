"""The step that answers a question across served repositories: the merge of their windows
(``repository score / (rank in its repository + 2)``, the module's rule, computed here by
hand), the labelled result the answer renders, and the citations checked against each
repository's own files (the files the test writes and their line counts are the truth).
The whole step runs once through the agent graph with no model, on two real git
repositories built in the test."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from codeagent.agent import across as across_mod
from codeagent.agent.across import NOTHING, LabelledHits, check_cited, merged_hits
from codeagent.config import Settings
from codeagent.records import SearchHit
from codeagent.result import Source
from codeagent.server.backend import RepoBackend
from codeagent.server.everywhere import AllRepos
from codeagent.server.repos import ServedRepo
from codeagent.tools.rag_render import hits_context, query_tokens, render_hits
from conftest import write_files

QUESTION = "where is parse_query defined?"
X = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"  # six lines


def hit(path: str, start: int, end: int, text: str = "x = 1", score: float = 0.0) -> SearchHit:
    return SearchHit(path=path, start_line=start, end_line=end, symbol="", score=score, text=text)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[SearchHit]]:
    """``retrieve`` answering from a script: each store (a name here) gives its hits, best
    first; the question and k asked are checked."""
    script: dict[str, list[SearchHit]] = {}

    def retrieve(store: str, question: str, k: int) -> list[SearchHit]:
        assert (question, k) == ("where is f?", 4)
        return script[store][:k]

    monkeypatch.setattr("codeagent.rank.retrieve.retrieve", retrieve)
    return script


def test_windows_are_merged_by_score_over_rank_plus_two(
    scripted: dict[str, list[SearchHit]],
) -> None:
    scripted["A"] = [hit("a.py", 1, 2), hit("a.py", 3, 4), hit("a.py", 5, 6)]
    scripted["B"] = [hit("b.py", 1, 2), hit("b.py", 3, 4), hit("b.py", 5, 6)]
    # A: 1.0/2, 1.0/3, 1.0/4; B: 0.9/2, 0.9/3, 0.9/4 -> 0.5, 0.45, 0.333333, 0.3 are the best 4
    merged = merged_hits([(1.0, "api", "A"), (0.9, "web", "B")], "where is f?", 4)  # type: ignore[list-item]
    assert [(repo, h.path, h.start_line, h.score) for repo, h in merged] == [
        ("api", "a.py", 1, 0.5),
        ("web", "b.py", 1, 0.45),
        ("api", "a.py", 3, 0.333333),
        ("web", "b.py", 3, 0.3),
    ]


def test_equal_merits_keep_the_order_of_the_repositories_scores(
    scripted: dict[str, list[SearchHit]],
) -> None:
    """A tie goes to the repository scored first (best first), not to the one whose id sorts
    first."""
    scripted["Z"] = [hit("z.py", 1, 2)]
    scripted["A"] = [hit("a.py", 1, 2)]
    merged = merged_hits([(0.8, "zeta", "Z"), (0.8, "alpha", "A")], "where is f?", 4)  # type: ignore[list-item]
    assert [(repo, h.score) for repo, h in merged] == [("zeta", 0.4), ("alpha", 0.4)]


def labelled(tmp_path: Path) -> LabelledHits:
    roots = {"api": tmp_path / "api", "web": tmp_path / "web"}
    for root in roots.values():
        write_files(root, {"src/x.py": X})
    hits = [
        ("api", hit("src/x.py", 1, 2, "def f():\n    return 1", 0.5)),
        ("web", hit("src/x.py", 5, 6, "# read from the repository\ndef g():", 0.45)),
    ]
    return LabelledHits(QUESTION, hits, roots)


def test_the_labelled_result_names_each_sources_repository(tmp_path: Path) -> None:
    result = labelled(tmp_path)
    assert result.empty is False
    assert result.question == QUESTION
    shown = [hit("api:src/x.py", 1, 2, "def f():\n    return 1", 0.5)]
    shown.append(hit("web:src/x.py", 5, 6, "# read from the repository\ndef g():", 0.45))
    assert result.shown() == shown
    assert result.render() == render_hits(shown, QUESTION)
    assert "api:src/x.py:1-2" in result.render()
    assert result.terms() == query_tokens(QUESTION) != set()
    assert [s.to_json() for s in result.citations()] == [
        {"repo": "api", "path": "src/x.py", "start_line": 1, "end_line": 2, "score": 0.5},
        {"repo": "web", "path": "src/x.py", "start_line": 5, "end_line": 6, "score": 0.45},
    ]
    assert result.to_json() is None


def test_the_models_context_says_the_sources_are_labelled_and_keeps_the_code(
    tmp_path: Path,
) -> None:
    context = labelled(tmp_path).context()
    plain = hits_context([hit("api:src/x.py", 1, 2), hit("web:src/x.py", 5, 6)])
    assert "from the repository" in plain.splitlines()[0]  # the title this step rewrites
    title = context.splitlines()[0]
    assert title == plain.splitlines()[0].replace(
        "from the repository", "from the served repositories (each `repo:path:lines`)"
    )
    assert "### api:src/x.py:1-2" in context
    assert "### web:src/x.py:5-6" in context
    assert "# read from the repository" in context  # the code's own words stay as written


def test_no_hits_is_said_without_a_model(tmp_path: Path) -> None:
    result = LabelledHits(QUESTION, [], {"api": tmp_path})
    assert result.empty is True
    assert result.render() == NOTHING
    assert result.terms() == set()


def test_check_citations_lists_the_sources_then_the_cited_ones(tmp_path: Path) -> None:
    result = labelled(tmp_path)
    sources = result.citations()
    listed, notes = result.check_citations("see web:src/x.py:1-2 and api:src/x.py:9", sources)
    assert listed[:2] == sources
    assert [s.to_json() for s in listed[2:]] == [
        {"repo": "web", "path": "src/x.py", "start_line": 1, "end_line": 2, "score": None}
    ]
    assert notes == ["[unverified citation: api:src/x.py:9 — the file has only 6 lines]"]


def test_citation_checks_go_on_past_unknown_repositories_and_bad_lines(tmp_path: Path) -> None:
    roots = {"api": tmp_path / "api"}
    write_files(roots["api"], {"src/x.py": X})
    text = "other:src/y.py:1-2, api:src/x.py:40-41, then api:src/x.py:5-6"
    extra, notes = check_cited(text, roots, [])
    assert [(s.repo, s.path, s.start_line, s.end_line) for s in extra] == [
        ("api", "src/x.py", 5, 6)
    ]
    assert notes == ["[unverified citation: api:src/x.py:40-41 — the file has only 6 lines]"]


def test_a_dot_slash_path_and_a_sources_last_line_are_covered(tmp_path: Path) -> None:
    roots = {"api": tmp_path / "api"}
    write_files(roots["api"], {"src/x.py": X})
    sources = [Source(repo="api", path="src/x.py", start_line=1, end_line=3, score=1.0)]
    extra, notes = check_cited("api:./src/x.py:1-2 and api:src/x.py:3", roots, sources)
    assert (extra, notes) == ([], [])


def test_an_answer_across_two_repositories_without_a_model(
    git_repo: Any, env_setup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graph's step on real indexes: the rendered answer and its sources name their
    repositories, at most k of them, and each repository's state is reported."""
    billing = git_repo({"billing/retry.py": "def retry_call(call):\n    return call()\n"})
    search = git_repo({"search/query.py": "def parse_query(text):\n    return text\n"})
    settings = Settings.load(llm="none", embed="none", k=1)
    backends = {
        name: RepoBackend(ServedRepo(name, root), settings, None)
        for name, root in (("billing", billing), ("search", search))
    }
    seen: list[str] = []
    real = across_mod.merged_hits

    def merged(scored: Any, question: str, k: int) -> Any:
        seen.append(f"{question}|{k}")
        return real(scored, question, k)

    gone = git_repo({"gone/x.py": "def retry_call_too():\n    return 1\n"})
    backends["gone"] = RepoBackend(ServedRepo("gone", gone), settings, None)
    shutil.rmtree(gone)  # served, then its folder removed: not searched, and said so
    monkeypatch.setattr(across_mod, "merged_hits", merged)
    began = time.perf_counter()
    events = [e.to_json() for e in AllRepos(backends).ask_stream("retry_call", threading.Event())]
    took = time.perf_counter() - began
    result = events[-1]["result"]
    notices = [e for e in events if e.get("type") == "notice"]
    assert [(e["kind"], e["text"].split(":")[0]) for e in notices] == [("index", "gone")]
    assert notices[0]["text"] in result["notices"]
    assert seen == ["retry_call|1"]
    assert [(s["repo"], s["path"]) for s in result["sources"]] == [("billing", "billing/retry.py")]
    assert "billing:billing/retry.py:1-2" in result["answer"]
    assert set(result["states"]) == {"billing"}
    assert 0 < result["timings"]["retrieve"] < took
