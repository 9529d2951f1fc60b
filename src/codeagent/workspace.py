"""``Workspace`` (one repository, shared) and ``Conversation`` (one user's turns).

    from codeagent import Conversation, Workspace

    ws = Workspace.open("path/to/repo")                  # or a URL: cloned once
    print(ws.ask("list the classes in src/app/models.py").answer)
    chat = Conversation()                                # follow-ups see its last turns
    for event in ws.ask_stream("how does retry work?", chat):
        if event.type == "token":
            print(event.text, end="")

A workspace holds the repository, the settings, the index (built or loaded on first use,
under a lock), the chat model, the tool registry and one compiled graph; any number of
threads may ask it questions at once. What belongs to one call (the question, the history,
the event stream) travels with the call, in the graph's state and run context. It never
prints.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.agent.context import RunContext
from codeagent.agent.sanitize import sanitize_question, strip_control_tokens
from codeagent.agent.state import AgentState, Turn
from codeagent.config import Settings
from codeagent.errors import CodeAgentError
from codeagent.events import Event, NoticeEvent, ResultEvent
from codeagent.index.lazy import LazyIndex
from codeagent.progress import ProgressReporter
from codeagent.result import AskResult
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import Registry, default_registry

if TYPE_CHECKING:
    from codeagent.agent.context import Repositories
    from codeagent.index.stats import IndexStats
    from codeagent.store.store import IndexStore

_UNSET: Any = object()


class Conversation:
    """One user's questions and answers; a follow-up sees the last ``history_turns``."""

    def __init__(self) -> None:
        self.history: list[Turn] = []
        self.last: AskResult | None = None
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget the conversation (the workspace's index stays loaded)."""
        with self._lock:
            self.history.clear()
            self.last = None

    def recent(self, turns: int) -> list[Turn]:
        """The last ``turns`` turns, control tokens stripped."""
        with self._lock:
            recent = self.history[-turns:] if turns else []
            return [
                Turn(
                    question=strip_control_tokens(t["question"]),
                    answer=strip_control_tokens(t["answer"]),
                )
                for t in recent
            ]

    def remember(self, result: AskResult, keep: int) -> None:
        with self._lock:
            self.last = result
            self.history.append(Turn(question=result.question, answer=result.answer))
            del self.history[: -max(keep, 1)]


class Workspace:
    """Answers questions about the repository at ``repo_root``; shared and thread-safe."""

    def __init__(
        self,
        repo_root: Path,
        settings: Settings,
        *,
        chat_model: Any | None = None,
        store: IndexStore | None = None,
        progress: ProgressReporter | None = None,
        registry: Registry | None = None,
        index: LazyIndex | None = None,
        background: bool = False,
    ) -> None:
        self.repo_root = Path(repo_root).resolve()
        self.settings = settings
        self.chat_model = chat_model
        self.registry = registry or default_registry()
        self.notices: list[str] = []  # said once when the workspace was opened
        # ``index``: another index behind the same seam (the server's stand-in while it builds);
        # ``store``: an index already built, answered from as it is (an eval's). Otherwise the
        # index is kept current from question to question as a served one is
        # (codeagent.index.kept). ``background``: a first index that would take long to embed
        # is answered first, the rest built by a detached process (codeagent.index.answer_first).
        if index is None and store is None:
            from codeagent.index.kept import KeptIndex

            index = KeptIndex(self.repo_root, settings, progress=progress, background=background)
        self._index = index or LazyIndex(self.repo_root, settings, store=store, progress=progress)
        self._graph: Any = None
        self._graph_lock = threading.Lock()

    @classmethod
    def open(cls, repo: str | Path, settings: Settings | None = None, **kw: Any) -> Workspace:
        """A workspace on ``repo`` (a path, or a URL cloned into the cache) with the chat
        model ``settings.llm`` names; ``chat_model=`` given in ``kw`` is used as it is."""
        from codeagent.repo.remote import resolve_repo

        settings = settings or Settings.load()
        root = resolve_repo(str(repo), settings)
        notices: list[str] = []
        chat_model = kw.pop("chat_model", _UNSET)
        if chat_model is _UNSET:
            from codeagent.llm import parse_spec, resolve_chat_model

            chat_model, reason = resolve_chat_model(settings.llm, settings)
            if chat_model is None and parse_spec(settings.llm)[0] != "none":
                notices.append(f"answers without an LLM: {reason}")
        workspace = cls(root, settings, chat_model=chat_model, **kw)
        workspace.notices = notices
        return workspace

    # -- the index -------------------------------------------------------------------------

    @property
    def store_loaded(self) -> bool:
        return self._index.loaded

    @property
    def index_stats(self) -> IndexStats | None:
        return self._index.stats

    def get_store(self) -> IndexStore:
        """The index, built or loaded from the cache on first use, then reused."""
        return self._index.get()

    def index(self, *, force: bool = False) -> IndexStats:
        """Build or load the index now (``force``: rebuild from the repository's state)."""
        if force or self._index.stats is None:
            return self._index.load(force=force)
        return self._index.stats

    # -- questions -------------------------------------------------------------------------

    def ask(self, question: str, conversation: Conversation | None = None) -> AskResult:
        """Answer ``question`` (the last event of :meth:`ask_stream`)."""
        for event in self.ask_stream(question, conversation):
            if isinstance(event, ResultEvent):
                return event.result
        raise CodeAgentError("the agent produced no result")  # pragma: no cover

    def ask_stream(
        self,
        question: str,
        conversation: Conversation | None = None,
        *,
        index: LazyIndex | None = None,
        notices: Sequence[str] = (),
        k: int | None = None,
        repos: Repositories | None = None,
    ) -> Iterator[Event]:
        """Answer ``question``, yielding events as they happen; the result is always last.

        ``index``: the index this one answer reads (the server pins one state per question);
        ``notices``: what the answer must say besides (e.g. that the index is catching up);
        ``k``: sources for this answer (the settings' ``k`` when None); ``repos``: the
        repositories the question is asked of, when several (searched by the graph's across
        step; the answer then names each source's repository and the state each answered
        from, and reads no index of this workspace).
        The result's ``state`` is the state hash of the index the answer read, None when it
        read none (an exact answer from one file's syntax tree, read from disk as it is).
        """
        started = time.perf_counter()
        cleaned, said = sanitize_question(question, self.settings.max_question_chars)
        if not cleaned:
            raise CodeAgentError("the question is empty")
        index = index or self._index
        index.refresh()  # a kept index: the current state's, or the last one with a notice
        settings = self.settings
        if k is not None and k != settings.k:
            settings = settings.model_copy(update={"k": k})  # k: checked by whoever sent it
        for notice in notices:  # the caller's: about the index this answer reads
            yield NoticeEvent(kind="index", text=notice)
        for notice in said:
            yield NoticeEvent(kind="question", text=notice)
        notices = [*notices, *said]
        turns = self.settings.history_turns
        state: AgentState = {
            "question": cleaned,
            "history": conversation.recent(turns) if conversation else [],
            "notices": notices,
            "timings": {"route": 0.0, "retrieve": 0.0, "answer": 0.0},
        }
        run = RunContext(
            tools=ToolContext(self.repo_root, settings, index, cleaned),
            registry=self.registry,
            chat_model=self.chat_model,
            repos=repos,
        )
        final: dict[str, Any] = {}
        for mode, chunk in self._compiled().stream(
            state, context=run, stream_mode=["custom", "values"]
        ):
            if mode == "custom":
                yield chunk
            else:
                final = chunk
        result = _result(cleaned, final, started, None if repos else index.state)
        if conversation is not None:
            conversation.remember(result, turns)
        yield ResultEvent(result=result)

    def _compiled(self) -> Any:
        with self._graph_lock:
            if self._graph is None:
                from codeagent.agent.graph import build_graph

                self._graph = build_graph(self.registry)
            return self._graph


def _result(question: str, final: dict[str, Any], started: float, state: str | None) -> AskResult:
    timings = {k: round(v, 4) for k, v in final.get("timings", {}).items()}
    timings["total"] = round(time.perf_counter() - started, 4)
    tool_result = final.get("tool_result")
    fallback = final.get("fallback")
    return AskResult(
        question=question,
        route=final["route"],
        fallback=fallback,
        answer=final.get("answer", ""),
        sources=final.get("sources", []),
        tool_result=tool_result.to_json() if tool_result is not None else None,
        timings=timings,
        notices=final.get("notices", []),
        unverified=final.get("unverified", []),
        state=state,
        states=final.get("states"),
    )
