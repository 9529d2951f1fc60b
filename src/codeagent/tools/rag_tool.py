"""The search tool: the code :func:`codeagent.rank.retrieve.retrieve` chooses for the question,
shown as windows with their best lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from codeagent.bounds import K_MAX, K_MIN
from codeagent.rank.retrieve import retrieve
from codeagent.records import SearchHit
from codeagent.result import Source
from codeagent.tools.base import BaseTool, McpTool, RouteExample, SearchEverywhere, ToolContext

SNIPPET_LINES = 6  # MCP's search_code: of each window found, around its best matching line


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

    def mcp_tools(self) -> tuple[McpTool, ...]:
        return (SEARCH_CODE,)


class SearchArgs(BaseModel):
    query: str = Field(description="Words, identifiers or a description of the code.")
    k: int = Field(default=8, ge=K_MIN, le=K_MAX, description="How many results.")


def _blocks(hits: list[tuple[str, SearchHit]], query: str) -> str:
    """Each window as ``[repo:]path:start-end  symbol`` and its numbered lines around the line
    that best matches ``query``."""
    from codeagent.tools.rag_render import snippet

    blocks = []
    for repo, hit in hits:
        head = f"{repo + ':' if repo else ''}{hit.location}  {hit.symbol}".rstrip()
        body = "\n".join("    " + line for line in snippet(hit, query, SNIPPET_LINES))
        blocks.append(f"{head}\n{body}")
    return "\n\n".join(blocks) or "no matches"


def _search(args: SearchArgs, ctx: ToolContext) -> str:
    return _blocks([("", hit) for hit in retrieve(ctx.store, args.query, args.k)], args.query)


def _search_everywhere(args: SearchArgs, search: SearchEverywhere) -> str:
    hits, notices = search(args.query, args.k)
    text = _blocks(hits, args.query)
    return text + "\n\nNotes:\n" + "\n".join(f"  {n}" for n in notices) if notices else text


SEARCH_CODE = McpTool(
    name="search_code",
    description="Search a repository (keyword + semantic, ranked as every answer's sources "
    "are) and return the best matching code, each window as `path:start-end  symbol` followed "
    "by its numbered lines around the line that best matches the query. Without `repo`, every "
    "served repository is searched and each window is headed `repo:path:start-end`.",
    args_model=SearchArgs,
    answer=_search,
    checked="query",
    everywhere=_search_everywhere,
)
