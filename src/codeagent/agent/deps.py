"""What the graph's nodes depend on, passed in explicitly so tests can hand in fakes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.config import Settings

if TYPE_CHECKING:
    from codeagent.index.store import IndexStore


def _ignore(_text: str) -> None:
    return None


def _ignore_route(_route: Any, _fallback: Any) -> None:
    return None


@dataclass
class Deps:
    """The repository, the settings, the chat model (None: answer without an LLM), the index
    (loaded lazily through ``get_store``: an AST question that succeeds never loads it), and
    callbacks for the route (and a fallback's), streamed answer text and notices as they
    happen."""

    repo_root: Path
    settings: Settings
    get_store: Callable[[], IndexStore]
    chat_model: Any | None = None  # a langchain BaseChatModel
    on_token: Callable[[str], None] = _ignore
    on_notice: Callable[[str], None] = _ignore
    on_route: Callable[[Any, Any], None] = _ignore_route
