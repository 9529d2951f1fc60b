"""The graph's run context (LangGraph ``context_schema``): what the nodes use, handed in
with each call, so one compiled graph serves every question of every conversation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codeagent.tools.base import ToolContext
from codeagent.tools.registry import Registry


@dataclass(frozen=True)
class RunContext:
    """The tools' context (repository, settings, index, question), the registry the graph
    was built from, and the chat model (None: answer without an LLM)."""

    tools: ToolContext
    registry: Registry
    chat_model: Any | None = None  # a langchain BaseChatModel
