"""MCP's ``repository_map``: the map of the repository (:mod:`codeagent.repomap`) as a tool a
client calls; the router has no route to it (a map answers no question, it orients)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from codeagent.repomap import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from codeagent.tools.base import McpTool, ToolContext


class MapArgs(BaseModel):
    focus: list[str] | None = Field(
        default=None, description="Questions, files or folders to turn the map towards."
    )
    budget: int = Field(
        default=DEFAULT_BUDGET,
        ge=MIN_BUDGET,
        le=MAX_BUDGET,
        description="At most this many tokens.",
    )


def _map(args: MapArgs, ctx: ToolContext) -> str:
    from codeagent.repomap import map_of

    return map_of(ctx.index, budget=args.budget, focus=list(args.focus or [])).text


REPOSITORY_MAP = McpTool(
    name="repository_map",
    description="A map of the repository: its most important files (PageRank over imports, "
    "calls and inheritance, turned towards the focus), each with its most important definitions "
    "and their signatures, within a token budget. Tests, docs and vendored files are left out "
    "unless the focus names them. Read it first in an unknown repository.",
    args_model=MapArgs,
    answer=_map,
    checked="focus",
)
