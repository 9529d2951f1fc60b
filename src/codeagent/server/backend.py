"""The one seam between the server and the agent: a served repository that answers as events.

Every front end of the server (HTTP, SSE, NDJSON, MCP, the web page) goes through
:class:`RepoBackend`. It holds what requests share — the index, the chat model — behind a lock,
and gives each question its own agent run, so concurrent questions never see each other's
callbacks. Events are plain dicts, each with a ``type``: ``route``, ``notice``, ``sources``,
``token``, then ``result`` (always last).

While the dense (semantic) index of a repository is being built in the background, questions
are answered from a keyword (BM25) index built in memory, with a notice saying so; the dense
index joins as soon as it is ready.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from codeagent.agent.session import AgentSession, AskResult
from codeagent.config import Settings
from codeagent.errors import CodeAgentError, one_line
from codeagent.server.repos import ServedRepo

if TYPE_CHECKING:
    from codeagent.index.store import IndexStore

log = logging.getLogger(__name__)

Event = dict[str, Any]
_DONE = object()


class Cancelled(Exception):
    """The client went away; the answer stops at its next step."""


def bm25_notice(repo_id: str) -> str:
    return (
        f"the semantic index of {repo_id} is still being built: this answer uses keyword"
        " search (BM25) only"
    )


def has_dense(settings: Settings) -> bool:
    """Whether ``settings`` ask for an embedder (``auto`` only when the local one is installed)."""
    spec = settings.embed.strip()
    if spec == "none":
        return False
    if spec == "auto":
        from codeagent.index.embedders import local_available

        return local_available()
    return True


def bm25_store(root: Any, settings: Settings) -> IndexStore:
    """A keyword-only index of ``root`` built in memory (seconds, no embedding, no cache lock)."""
    from codeagent.index.chunking import chunk_file
    from codeagent.index.store import IndexStore
    from codeagent.repo.discover import discover

    chunks = []
    for file in discover(root, max_bytes=settings.max_file_bytes).files:
        try:
            chunks.extend(chunk_file(file.path, file.read_text()))
        except OSError:
            continue
    return IndexStore.build(chunks, None, None)


class RepoBackend:
    """One served repository: its shared index and chat model, and questions as event streams."""

    def __init__(self, repo: ServedRepo, settings: Settings, chat_model: Any | None) -> None:
        self.repo = repo
        self.settings = settings
        self.chat_model = chat_model
        self._lock = threading.Lock()
        self._index_lock = threading.Lock()  # one build or load at a time
        self._store: IndexStore | None = None
        self._keyword: IndexStore | None = None
        self._dense_building = False
        self._dense_error: str | None = None
        self._pending: list[str] = []  # index notices not yet shown to anyone

    # -- the index ---------------------------------------------------------------------------

    def start_background_index(self) -> None:
        """Warm up in a thread: import the agent, build (or load) the index. Until an index
        with a dense part is ready, questions are answered from an in-memory keyword index."""
        self._dense_building = has_dense(self.settings)
        threading.Thread(target=self._warm_up, name=f"index-{self.repo.id}", daemon=True).start()

    def _warm_up(self) -> None:
        try:
            import codeagent.agent.graph  # noqa: F401 - the first question need not pay it

            self.index(force=False, if_missing=True)
        except CodeAgentError as exc:
            self._dense_error = one_line(exc)
            log.warning("indexing %s failed: %s", self.repo.id, self._dense_error)
        finally:
            self._dense_building = False

    def index(self, *, force: bool, if_missing: bool = False) -> dict[str, Any]:
        """Build or load the index now (``if_missing``: only when none is loaded); its stats."""
        from codeagent.index.build import load_or_build

        with self._index_lock:
            if if_missing and self._store is not None:
                return {}
            store, stats = load_or_build(self.repo.root, self.settings, force=force)
            with self._lock:
                self._store, self._keyword = store, None
                self._pending.extend(stats.notices)
        return stats.to_json()

    def get_store(self, notify: Callable[[str], None]) -> IndexStore:
        """The full index; the in-memory keyword index while the full one is being built."""
        with self._lock:
            if self._store is not None:
                for line in self._pending:
                    notify(line)
                self._pending.clear()
                return self._store
            if self._dense_building:
                if self._keyword is None:
                    self._keyword = bm25_store(self.repo.root, self.settings)
                notify(bm25_notice(self.repo.id))
                return self._keyword
        self.index(force=False, if_missing=True)
        return self.get_store(notify)

    def status(self) -> dict[str, Any]:
        state = "building" if self._dense_building else "ready" if self._store else "not loaded"
        if self._dense_error:
            state = f"failed: {self._dense_error}"
        return {**self.repo.to_json(), "index": state}

    # -- questions ---------------------------------------------------------------------------

    def ask_stream(self, question: str, cancel: threading.Event) -> Generator[Event, None, None]:
        """Answer ``question`` as events; setting ``cancel`` stops the work at its next step."""
        events: queue.Queue[Any] = queue.Queue()

        def put(event: Event) -> None:
            if cancel.is_set():
                raise Cancelled
            events.put(event)

        def run() -> None:
            session = _RequestSession(self, put)
            try:
                result = session.ask(
                    question,
                    on_token=lambda text: put({"type": "token", "text": text}),
                    on_notice=lambda text: put({"type": "notice", "text": text}),
                )
                for event in result_events(result):
                    put(event)
            except Cancelled:
                pass
            except CodeAgentError as exc:
                events.put({"type": "error", "message": one_line(exc)})
            except Exception as exc:  # a bug: reported to the client, logged in full here
                log.exception("answering %r failed", question)
                events.put({"type": "error", "message": f"internal error: {one_line(exc)}"})
            finally:
                events.put(_DONE)

        threading.Thread(target=run, name=f"ask-{self.repo.id}", daemon=True).start()
        while (event := events.get()) is not _DONE:
            yield event


class _RequestSession(AgentSession):
    """An agent session for one question, sharing its backend's index (thread-safe)."""

    def __init__(self, backend: RepoBackend, put: Callable[[Event], None]) -> None:
        super().__init__(backend.repo.root, backend.settings, chat_model=backend.chat_model)
        self._backend = backend
        self._put = put

    def get_store(self) -> IndexStore:
        return self._backend.get_store(lambda text: self._put({"type": "notice", "text": text}))


def result_events(result: AskResult) -> list[Event]:
    """The events that follow the answer text: route, sources, then the result itself."""
    return [
        {"type": "route", "route": result.route.to_json(), "fallback": result.fallback},
        {"type": "sources", "sources": [s.model_dump() for s in result.sources]},
        {"type": "result", "result": result.to_json()},
    ]
