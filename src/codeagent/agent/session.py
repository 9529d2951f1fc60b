"""``AgentSession``: one repository, many questions (the CLI, the REPL, the eval harness).

    session = AgentSession(repo_root, Settings.load())
    result = session.ask("list the classes in src/app/models.py")
    result.to_json()   # question, route, fallback, answer, sources, tool_result, timings

The session keeps the index once loaded (lazily: an AST question that succeeds never loads
it) and the recent turns a follow-up question sees. It never prints.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from codeagent.agent.deps import Deps
from codeagent.agent.sanitize import sanitize_question, strip_control_tokens
from codeagent.agent.state import AgentState, RouteDecision, Source, Turn
from codeagent.config import Settings
from codeagent.errors import CodeAgentError
from codeagent.progress import NullProgress, ProgressReporter

if TYPE_CHECKING:
    from codeagent.index.build import IndexStats
    from codeagent.index.store import IndexStore


class AskResult(BaseModel):
    """Everything one question produced."""

    question: str
    route: RouteDecision
    fallback: dict[str, str] | None = None
    answer: str
    sources: list[Source] = Field(default_factory=list)
    tool_result: dict[str, Any] | None = None
    timings: dict[str, float] = Field(default_factory=dict)
    notices: list[str] = Field(default_factory=list)
    unverified: list[str] = Field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The ``codeagent ask --json`` object."""
        return {
            "question": self.question,
            "route": self.route.to_json(),
            "fallback": self.fallback,
            "answer": self.answer,
            "sources": [s.model_dump() for s in self.sources],
            "tool_result": self.tool_result,
            "timings": self.timings,
        }


class AgentSession:
    """Answers questions about the repository at ``repo_root``."""

    def __init__(
        self,
        repo_root: Path,
        settings: Settings,
        *,
        chat_model: Any | None = None,
        store: IndexStore | None = None,
        progress: ProgressReporter | None = None,
    ) -> None:
        self.repo_root = Path(repo_root).resolve()
        self.settings = settings
        self.chat_model = chat_model
        self.progress: ProgressReporter = progress or NullProgress()
        self.history: list[Turn] = []
        self.last: AskResult | None = None
        self.index_stats: IndexStats | None = None
        self._store = store
        self._on_token: Callable[[str], None] | None = None
        self._on_notice: Callable[[str], None] | None = None
        self._on_route: Callable[[RouteDecision, dict[str, str] | None], None] | None = None
        self._graph: Any = None

    # -- the index -------------------------------------------------------------------------

    @property
    def store_loaded(self) -> bool:
        return self._store is not None

    def get_store(self) -> IndexStore:
        """The index, built or loaded from the cache on first use, then reused."""
        if self._store is None:
            self._load(force=False)
        assert self._store is not None
        return self._store

    def reindex(self) -> IndexStats:
        """Rebuild the index from the repository's current state."""
        return self._load(force=True)

    def _load(self, *, force: bool) -> IndexStats:
        from codeagent.index.build import load_or_build

        self._store, self.index_stats = load_or_build(
            self.repo_root, self.settings, force=force, progress=self.progress
        )
        return self.index_stats

    # -- questions -------------------------------------------------------------------------

    def clear(self) -> None:
        """Forget the conversation (the index stays loaded)."""
        self.history.clear()
        self.last = None

    def ask(
        self,
        question: str,
        *,
        on_token: Callable[[str], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
        on_route: Callable[[RouteDecision, dict[str, str] | None], None] | None = None,
    ) -> AskResult:
        """Answer ``question``. ``on_token`` receives the answer text as it is written (its
        pieces join to ``result.answer``); ``on_notice`` each notice as it happens;
        ``on_route`` the route once decided, and again with the fallback when a tool fails."""
        started = time.perf_counter()
        cleaned, notices = sanitize_question(question, self.settings.max_question_chars)
        if not cleaned:
            raise CodeAgentError("the question is empty")
        for notice in notices:
            if on_notice:
                on_notice(notice)
        self._on_token, self._on_notice, self._on_route = on_token, on_notice, on_route
        try:
            state: AgentState = {
                "question": cleaned,
                "history": self._recent_history(),
                "notices": notices,
                "timings": {"route": 0.0, "retrieve": 0.0, "answer": 0.0},
            }
            final = self._run(state)
        finally:
            self._on_token = self._on_notice = self._on_route = None
        timings = {k: round(v, 4) for k, v in final.get("timings", {}).items()}
        timings["total"] = round(time.perf_counter() - started, 4)
        tool_result = final.get("tool_result")
        fallback = final.get("fallback")
        result = AskResult(
            question=cleaned,
            route=final["route"],
            fallback=dict(fallback) if fallback else None,
            answer=final.get("answer", ""),
            sources=final.get("sources", []),
            tool_result=tool_result.model_dump(mode="json") if tool_result is not None else None,
            timings=timings,
            notices=final.get("notices", []),
            unverified=final.get("unverified", []),
        )
        self._remember(result)
        return result

    def _run(self, state: AgentState) -> AgentState:
        result: AgentState = self._compiled().invoke(state)
        return result

    def _deps(self) -> Deps:
        return Deps(
            repo_root=self.repo_root,
            settings=self.settings,
            get_store=self.get_store,
            chat_model=self.chat_model,
            on_token=self._emit_token,
            on_notice=self._emit_notice,
            on_route=self._emit_route,
        )

    def _compiled(self) -> Any:
        if self._graph is None:
            from codeagent.agent.graph import build_graph

            self._graph = build_graph(self._deps())
        return self._graph

    def _emit_token(self, text: str) -> None:
        if self._on_token is not None:
            self._on_token(text)

    def _emit_notice(self, text: str) -> None:
        if self._on_notice is not None:
            self._on_notice(text)

    def _emit_route(self, route: RouteDecision, fallback: dict[str, str] | None) -> None:
        if self._on_route is not None:
            self._on_route(route, fallback)

    def _recent_history(self) -> list[Turn]:
        turns = self.settings.history_turns
        recent = self.history[-turns:] if turns else []
        return [
            Turn(
                question=strip_control_tokens(t["question"]),
                answer=strip_control_tokens(t["answer"]),
            )
            for t in recent
        ]

    def _remember(self, result: AskResult) -> None:
        self.last = result
        self.history.append(Turn(question=result.question, answer=result.answer))
        keep = max(self.settings.history_turns, 1)
        del self.history[:-keep]
