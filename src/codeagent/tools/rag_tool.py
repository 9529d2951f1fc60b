"""retrieve(): the code to show for a question, chosen file first.

Files are ranked by :func:`codeagent.rank.ranking.rank_files` (BM25 and dense evidence over
the whole index, the code names, paths and traceback frames of the question, a prior over
file kinds); inside each of the best files its best chunk is shown, and its second best when
that scores nearly as well. Neighbouring or overlapping chunks of one file are merged into one
window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from codeagent.records import SearchHit
from codeagent.result import Source
from codeagent.tools.base import BaseTool, RouteExample, ToolContext

if TYPE_CHECKING:
    from codeagent.store.store import IndexStore

PER_FILE = 2
SECOND_CHUNK = 0.8  # a file's second chunk is shown when it scores this share of its best


def merge_hits(first: SearchHit, second: SearchHit) -> SearchHit:
    """One window covering two overlapping or adjacent hits of the same file."""
    a, b = sorted((first, second), key=lambda h: (h.start_line, h.end_line))
    a_lines = a.text.splitlines()
    b_lines = b.text.splitlines()
    if b.end_line <= a.end_line:
        lines = a_lines
    else:
        lines = a_lines + b_lines[max(a.end_line - b.start_line + 1, 0) :]
    symbols = [s for s in dict.fromkeys((first.symbol, second.symbol)) if s]
    ranks = dict(second.ranks)
    for name, rank in first.ranks.items():
        ranks[name] = min(rank, ranks.get(name, rank))
    return SearchHit(
        path=a.path,
        start_line=a.start_line,
        end_line=max(a.end_line, b.end_line),
        symbol=", ".join(symbols),
        score=max(first.score, second.score),
        text="\n".join(lines),
        kind=first.kind if first.kind == second.kind else "window",
        ranks=ranks,
    )


def _touching(a: SearchHit, b: SearchHit) -> bool:
    return a.path == b.path and a.start_line <= b.end_line + 1 and b.start_line <= a.end_line + 1


def retrieve(store: IndexStore, question: str, k: int) -> list[SearchHit]:
    """The ``k`` best windows of code for ``question``: the best chunks of the best files."""
    if k <= 0:
        return []
    if not store.chunks:
        return []
    from codeagent.rank.query import analyze
    from codeagent.rank.ranking import rank_files

    ranking = rank_files(store, question, analyze(question))
    merged: list[SearchHit] = []
    for rank, (path, score) in enumerate(ranking.files, start=1):
        ids = ranking.chunks_of(path)[:PER_FILE]
        best = float(ranking.chunk_scores[ids[0]])
        for n, i in enumerate(ids):
            if n and float(ranking.chunk_scores[i]) < SECOND_CHUNK * best:
                break
            _add_merged(merged, SearchHit.of(store.chunks[i], score, {"file": rank}))
        if len(merged) >= k:
            break
    return merged[:k]


def _add_merged(merged: list[SearchHit], hit: SearchHit) -> None:
    """Add ``hit`` to ``merged``: into the window it touches, else as a new one."""
    for j, kept in enumerate(merged):
        if _touching(kept, hit):
            merged[j] = merge_hits(kept, hit)
            return
    merged.append(hit)


class RagArgs(BaseModel):
    """Search takes the question itself; nothing else to fill."""

    model_config = ConfigDict(title="RagArgs")


@dataclass(frozen=True)
class RagResult:
    question: str
    hits: list[SearchHit]

    def render(self) -> str:
        from codeagent.tools.rag_render import render_hits

        return render_hits(self.hits, self.question)

    def context(self) -> str:
        from codeagent.tools.rag_render import hits_context

        return hits_context(self.hits)

    def citations(self) -> list[Source]:
        return [
            Source(path=h.path, start_line=h.start_line, end_line=h.end_line, score=h.score)
            for h in self.hits
        ]

    def to_json(self) -> dict[str, Any] | None:
        return None  # the sources say it all

    def terms(self) -> set[str]:
        """The question's words the rendered lines were chosen by (a terminal highlights them)."""
        from codeagent.tools.rag_render import query_tokens

        return query_tokens(self.question)


class RagTool(BaseTool):
    name = "rag"
    description = """search over the whole repository. Use it for everything else: how or why
  questions, behaviour, bugs and issue reports, questions that name no Python file, and
  questions about more than one file."""
    args_model = RagArgs
    # The retrieval step, (store, question, k) -> windows; a test hands in its own here (a
    # store double that only searches has no chunks to rank).
    retriever = staticmethod(retrieve)
    fallback = None
    label = "search"
    announce = "searching the repository"
    examples = (
        RouteExample(
            "how does the retry logic decide when to give up?",
            {},
            "a how question about behaviour, no single file",
        ),
        RouteExample(
            "Sending a request with a timeout of 0 hangs forever in adapters.py, the function"
            " send never returns. Steps to reproduce: ...",
            {},
            "a bug report, not a structural question",
        ),
    )

    def run(self, args: BaseModel, ctx: ToolContext) -> RagResult:
        return RagResult(ctx.question, self.retriever(ctx.store, ctx.question, ctx.settings.k))
