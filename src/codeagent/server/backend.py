"""The one seam between the server and the agent: a served repository that answers as events.

Every front end of the server (HTTP, SSE, NDJSON, MCP, the web page) goes through
:class:`RepoBackend`, a thin layer over one shared, thread-safe :class:`Workspace`. Events
are the workspace's events as JSON objects (``route``, ``notice``, ``sources``, ``token``,
then ``result``, always last), plus ``error`` when an answer fails.

While the dense (semantic) index of a repository is being built in the background, questions
are answered by a second workspace over a keyword (BM25) index built in memory, with a notice
saying so; the full index takes over as soon as it is ready.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from codeagent.config import Settings
from codeagent.errors import CodeAgentError, one_line
from codeagent.index.build import IndexStats
from codeagent.index.lazy import LazyIndex
from codeagent.server.repos import ServedRepo
from codeagent.workspace import Workspace

if TYPE_CHECKING:
    from codeagent.index.store import IndexStore

log = logging.getLogger(__name__)

Event = dict[str, Any]


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


class KeywordIndex(LazyIndex):
    """A keyword-only index built in memory (seconds: no embedding, no cache, no cache lock);
    every answer that used it carries a notice saying so."""

    def __init__(self, repo: ServedRepo, settings: Settings) -> None:
        super().__init__(repo.root, settings.model_copy(update={"embed": "none"}))
        self._repo_id = repo.id
        self._used = threading.local()

    def load(self, *, force: bool) -> IndexStats:
        from codeagent.index.chunking import chunk_file
        from codeagent.index.store import IndexStore
        from codeagent.repo.discover import discover

        with self._lock:
            chunks = []
            for file in discover(self.repo_root, max_bytes=self.settings.max_file_bytes).files:
                try:
                    chunks.extend(chunk_file(file.path, file.read_text()))
                except OSError:
                    continue
            self._store = IndexStore.build(chunks, None, None)
            self.stats = IndexStats(repo=str(self.repo_root), chunks=len(chunks))
            return self.stats

    def get(self) -> IndexStore:
        self._used.flag = True
        return super().get()

    def take_notices(self) -> list[str]:
        notices = super().take_notices()
        if getattr(self._used, "flag", False):  # this thread's answer used it
            self._used.flag = False
            notices.append(bm25_notice(self._repo_id))
        return notices


class RepoBackend:
    """One served repository: a shared workspace, and questions as event streams."""

    def __init__(self, repo: ServedRepo, settings: Settings, chat_model: Any | None) -> None:
        self.repo = repo
        self.settings = settings
        self.workspace = Workspace(repo.root, settings, chat_model=chat_model)
        self._chat_model = chat_model
        self._keyword: Workspace | None = None
        self._lock = threading.Lock()
        self._building = False
        self._error: str | None = None
        self._paths: tuple[Any, set[str]] | None = None

    # -- the index ---------------------------------------------------------------------------

    def start_background_index(self) -> None:
        """Warm up in a thread: import the agent, build (or load) the index. Until an index
        with a dense part is ready, questions are answered from a keyword index."""
        self._building = has_dense(self.settings)
        threading.Thread(target=self._warm_up, name=f"index-{self.repo.id}", daemon=True).start()

    def _warm_up(self) -> None:
        try:
            import codeagent.agent.graph  # noqa: F401 - the first question need not pay it

            self.workspace.index()
        except CodeAgentError as exc:
            self._error = one_line(exc)
            log.warning("indexing %s failed: %s", self.repo.id, self._error)
        finally:
            self._building = False

    def index(self, *, force: bool) -> dict[str, Any]:
        """Build or load the index now; its statistics."""
        stats: dict[str, Any] = self.workspace.index(force=force).to_json()
        return stats

    def current(self) -> Workspace:
        """The workspace that answers now: the keyword one while the full index builds."""
        if not self._building or self.workspace.store_loaded:
            return self.workspace
        with self._lock:
            if self._keyword is None:
                index = KeywordIndex(self.repo, self.settings)
                self._keyword = Workspace(
                    self.repo.root, self.settings, chat_model=self._chat_model, index=index
                )
            return self._keyword

    def get_store(self, notify: Callable[[str], None]) -> IndexStore:
        """The index the tools search (the keyword one, with a notice, while building)."""
        workspace = self.current()
        if workspace is not self.workspace:
            notify(bm25_notice(self.repo.id))
        return workspace.get_store()

    def indexed_paths(self) -> set[str]:
        """The files the index holds (the only ones ``/v1/file`` shows)."""
        store = self.current().get_store()
        if self._paths is None or self._paths[0] is not store:
            self._paths = (store, {chunk.path for chunk in store.chunks})
        return self._paths[1]

    def status(self) -> dict[str, Any]:
        state = "building" if self._building else "ready" if self.workspace.store_loaded else ""
        return {**self.repo.to_json(), "index": self._error or state or "not loaded"}

    # -- questions ---------------------------------------------------------------------------

    def ask_stream(self, question: str, cancel: threading.Event) -> Generator[Event, None, None]:
        """Answer ``question`` as JSON events; once ``cancel`` is set the answer stops at its
        next event (the workspace's stream is closed, which stops the graph)."""
        stream = self.current().ask_stream(question)
        try:
            for event in stream:
                if cancel.is_set():
                    return
                yield event.to_json()
        except CodeAgentError as exc:
            yield {"type": "error", "message": one_line(exc)}
        except Exception as exc:  # a bug: reported to the client, logged in full here
            log.exception("answering %r failed", question)
            yield {"type": "error", "message": f"internal error: {one_line(exc)}"}
        finally:
            stream.close()  # type: ignore[attr-defined]
