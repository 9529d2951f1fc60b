"""The search tool: the code :func:`codeagent.rank.retrieve.retrieve` chooses for the question,
shown as windows with their best lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from codeagent.rank.retrieve import retrieve
from codeagent.records import SearchHit
from codeagent.tools.base import BaseTool, RouteExample, Source, ToolContext


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
        return RagResult(ctx.question, retrieve(ctx.store, ctx.question, ctx.settings.k))
