"""The graph's step for a question asked of several repositories at once: the same graph as
for one (``route -> across -> answer``), with this retrieval step in place of a tool.

The repositories (:class:`~codeagent.agent.context.Repositories`, the server's) say which are
worth searching and hand their indexes of the current state; each is searched as one
repository is (:func:`retrieve`) and their windows are merged by ``repository score / (rank
in its repository + 2)``, so the best repository's first sources lead and a close second
repository's first ones come next. The result (:class:`LabelledHits`) is a tool result: the
answer node renders it without an LLM (``repo:path:start-end`` with the best lines) or gives
its blocks to the model under those headers, and checks each citation against its own
repository's files (two repositories holding the same ``src/x.py`` are told apart).
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from codeagent.agent.answer import Citation, CitationChecker
from codeagent.agent.context import RunContext, Scored
from codeagent.agent.state import AgentState
from codeagent.events import NoticeEvent
from codeagent.records import SearchHit
from codeagent.result import Source

NOTHING = "No code in the served repositories matched the question."
_CITED = re.compile(
    r"(?P<repo>[A-Za-z0-9][A-Za-z0-9_.-]{0,63}):(?P<path>[^\s:`'\"()\[\]<>]+)"
    r":L?(?P<start>\d+)(?:\s*[-–]\s*L?(?P<end>\d+))?(?!\d)"
)


def across(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Score the repositories, search the best, merge their windows: the tool result."""
    started = time.perf_counter()
    run = runtime.context
    assert run.repos is not None
    question = state["question"]
    scored, notices, states = run.repos.score(question)  # the best few, each checked
    write = get_stream_writer()
    for text in notices:
        write(NoticeEvent(kind="index", text=text))
    hits = merged_hits(scored, question, run.tools.settings.k)
    result = LabelledHits(question, hits, run.repos.roots)
    return {
        "tool_result": result,
        "sources": result.citations(),
        "notices": notices,
        "states": states,
        "timings": {"retrieve": time.perf_counter() - started},
    }


def merged_hits(scored: list[Scored], question: str, k: int) -> list[tuple[str, SearchHit]]:
    """The best ``k`` windows of the scored repositories, each with its repository's id."""
    from codeagent.rank.retrieve import retrieve

    ranked: list[tuple[float, int, str, SearchHit]] = []
    for order, (score, repo, store) in enumerate(scored):
        for rank, hit in enumerate(retrieve(store, question, k)):
            ranked.append((score / (rank + 2), order, repo, hit))
    ranked.sort(key=lambda row: (-row[0], row[1]))
    return [(repo, replace(hit, score=round(merit, 6))) for merit, _, repo, hit in ranked[:k]]


class LabelledHits:
    """The merged windows of several repositories, as a tool result: each source names its
    repository; ``empty`` when none matched (said without asking a model)."""

    def __init__(
        self, question: str, hits: list[tuple[str, SearchHit]], roots: dict[str, Path]
    ) -> None:
        self.question = question
        self.hits = hits
        self.roots = roots
        self.empty = not hits

    def shown(self) -> list[SearchHit]:
        """The hits as the answer names them: ``repo:path``."""
        return [replace(hit, path=f"{repo}:{hit.path}") for repo, hit in self.hits]

    def render(self) -> str:
        from codeagent.tools.rag_render import render_hits

        return render_hits(self.shown(), self.question) if self.hits else NOTHING

    def terms(self) -> set[str]:
        from codeagent.tools.rag_render import query_tokens

        return query_tokens(self.question) if self.hits else set()

    def context(self) -> str:
        from codeagent.tools.rag_render import hits_context

        return hits_context(self.shown()).replace(
            "from the repository", "from the served repositories (each `repo:path:lines`)", 1
        )

    def citations(self) -> list[Source]:
        return [
            Source(
                repo=repo,
                path=hit.path,
                start_line=hit.start_line,
                end_line=hit.end_line,
                score=hit.score,
            )
            for repo, hit in self.hits
        ]

    def check_citations(self, text: str, sources: list[Source]) -> tuple[list[Source], list[str]]:
        """(sources to list, notes on citations that do not hold), as for one repository."""
        extra, notes = check_cited(text, self.roots, sources)
        return [*sources, *extra], notes

    def to_json(self) -> None:
        return None  # the sources say it all


def check_cited(
    text: str, roots: dict[str, Path], sources: list[Source]
) -> tuple[list[Source], list[str]]:
    """(sources the answer cites besides ``sources``, notes on citations that do not hold):
    every ``repo:path:start-end`` naming a served repository is checked against its files."""
    checkers = {repo: CitationChecker(root) for repo, root in roots.items()}
    extra: list[Source] = []
    notes: list[str] = []
    for match in _CITED.finditer(text):
        repo, path = match.group("repo"), match.group("path").removeprefix("./")
        if repo not in checkers:
            continue
        start = int(match.group("start"))
        end = int(match.group("end") or start)
        problem = checkers[repo].problem(Citation(path, start, end, match.group(0)))
        if problem:
            notes.append(f"[unverified citation: {match.group(0)} — {problem}]")
            continue
        covered = any(
            (s.repo, s.path) == (repo, path) and s.start_line <= start <= s.end_line
            and end <= s.end_line
            for s in [*sources, *extra]
        )  # fmt: skip
        if not covered:
            extra.append(Source(repo=repo, path=path, start_line=start, end_line=end))
    return extra, notes


__all__ = ["LabelledHits", "across", "check_cited", "merged_hits"]
