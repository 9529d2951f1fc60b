"""The graph's run context (LangGraph ``context_schema``): what the nodes use, handed in
with each call, so one compiled graph serves every question of every conversation."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from codeagent.tools.base import ToolContext
from codeagent.tools.registry import Registry

if TYPE_CHECKING:
    from codeagent.store.store import IndexStore

Scored = tuple[float, str, "IndexStore"]  # a repository's score, its id, its index


class Repositories(Protocol):
    """Several repositories asked one question (the server's): their roots by id, and which
    to search for a question."""

    roots: dict[str, Path]

    def score(self, question: str) -> tuple[list[Scored], list[str], dict[str, str | None]]:
        """The repositories worth searching for ``question``, best first, each with its score
        and its index of the current state; notices about their indexes; the state each
        answers from."""
        ...


@dataclass(frozen=True)
class RunContext:
    """The tools' context (repository, settings, index, question), the registry the graph
    was built from, the chat model (None: answer without an LLM), and the repositories when
    the question is asked of several (:mod:`codeagent.agent.across`)."""

    tools: ToolContext
    registry: Registry
    chat_model: Any | None = None  # a langchain BaseChatModel
    repos: Repositories | None = None
