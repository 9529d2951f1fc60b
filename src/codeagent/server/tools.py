"""What MCP's tools answer with, as text: ``ask``'s answer (the agent's, as ``codeagent ask``
prints it) and any registered tool's :class:`~codeagent.tools.base.McpTool` run on a served
repository (the tools declare their arguments and text: ``tools/*``).

Every result ends with a line ``state: <hash>``: the state hash of the index it came from
(see ``codeagent.repo.state``), after a ``Notes:`` block that says when the index is catching
up with the repository.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from codeagent.errors import CodeAgentError
from codeagent.index.keeper import Pinned
from codeagent.server.backend import RepoBackend
from codeagent.wire import encode

if TYPE_CHECKING:
    from codeagent.records import SearchHit
    from codeagent.server.everywhere import AllRepos
    from codeagent.server.stream import Asked
    from codeagent.tools.base import McpTool


def _with_state(text: str, pinned: Pinned) -> str:
    """``text``, then its notices, then a last line naming the state it came from."""
    notes = [*pinned.notices, *pinned.index.take_notices()]
    if notes:
        text += "\n\nNotes:\n" + "\n".join(f"  {n}" for n in notes)
    return _state_line(text, pinned.state)


def _state_line(text: str, state: str | None, why: str = "") -> str:
    return f"{text}\n\nstate: {state}{why}" if state else text


def ask_all(question: str) -> Callable[[AllRepos], str]:
    """``ask`` of every served repository (no repository named)."""
    return lambda everywhere: ask(everywhere, question)


def searcher(
    everywhere: AllRepos,
) -> Callable[[str, int], tuple[list[tuple[str, SearchHit]], list[str]]]:
    """A search of every served repository: ``(query, k)`` -> the best ``k`` windows, each
    with its repository's id, and the repositories' notices."""

    def search(query: str, k: int) -> tuple[list[tuple[str, SearchHit]], list[str]]:
        from codeagent.agent.across import merged_hits

        scored, notices, _states = everywhere.score(query)
        return merged_hits(scored, query, k), notices

    return search


def ask(backend: Asked, question: str) -> str:
    """The answer text, its sources and its notices, as ``codeagent ask`` prints them, and a
    last line ``state: <hash>``: the state of the repository the answer came from."""
    answer: list[str] = []
    notices: list[str] = []
    sources: list[dict[str, Any]] = []
    state = None
    for event in map(encode, backend.ask_stream(question, threading.Event())):
        if event["type"] == "token":
            answer.append(event["text"])
        elif event["type"] == "route" and event.get("fallback") and event.get("line"):
            notices.append(event["line"])  # a tool could not answer: what the CLI says too
        elif event["type"] == "notice":
            notices.append(event["text"])
        elif event["type"] == "error":
            raise CodeAgentError(event["message"])
        elif event["type"] == "result":
            sources = event["result"]["sources"]
            state = event["result"].get("state")
    text = "".join(answer).rstrip()
    if sources:
        text += "\n\nSources:\n" + "\n".join(f"  {_where(s)}" for s in sources)
    if notices:
        text += "\n\nNotes:\n" + "\n".join(f"  {n}" for n in notices)
    return _state_line(text, state)


def _where(source: dict[str, Any]) -> str:
    """``path:start-end``, ``repo:path:start-end`` for a source labelled with its repository."""
    where = f"{source['path']}:{source['start_line']}-{source['end_line']}"
    return f"{source['repo']}:{where}" if source.get("repo") else where


def answer(backend: RepoBackend, tool: McpTool, args: Any) -> str:
    """``tool``'s answer on ``backend``'s repository, from the index of its current state, then
    the notices and the state line (a tool that reads the files now: the state line alone,
    saying so when the index lags behind)."""
    from codeagent.tools.base import ToolContext

    pinned = backend.pin()
    text = tool.answer(args, ToolContext(backend.repo.root, backend.settings, pinned.index))
    if tool.reads_files:
        why = " (the index is catching up; read from the file now)" if pinned.notices else ""
        return _state_line(text, pinned.state, why)
    return _with_state(text, pinned)
