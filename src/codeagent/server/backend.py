"""The one seam between the server and the agent: a served repository that answers as events.

Every front end of the server (HTTP, SSE, NDJSON, MCP, the web page) goes through
:class:`RepoBackend`, a thin layer over one shared, thread-safe :class:`Workspace`. Events
are the workspace's typed events (:mod:`codeagent.events`: ``route``, ``notice``,
``sources``, ``token``, then ``result``, always last), or an ``error`` last when an answer
fails; each front end writes them with :mod:`codeagent.wire`.

What a question is answered from (the current state's index, or the last one with a notice;
a stand-in while the first dense index builds) is the repository's :class:`~codeagent.index.
keeper.IndexKeeper`'s; this module adds the embedder shared by the server's indexes, the
memory pool's bookkeeping and the questions.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from codeagent.config import Settings
from codeagent.errors import CodeAgentError, one_line
from codeagent.events import ErrorEvent, Event
from codeagent.index.keeper import IndexKeeper, Pinned
from codeagent.index.stats import IndexStats
from codeagent.server.repos import ServedRepo
from codeagent.workspace import Workspace

if TYPE_CHECKING:
    from codeagent.embed.embedders import Embedder
    from codeagent.server.pool import IndexPool
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)


def has_dense(settings: Settings) -> bool:
    """Whether ``settings`` ask for an embedder (``auto`` only when the local one is installed)."""
    spec = settings.embed.strip()
    if spec == "none":
        return False
    if spec == "auto":
        from codeagent.embed.embedders import local_available

        return local_available()
    return True


_WARMED = threading.Event()


def _warm_up(store: IndexStore) -> None:
    """One search in the background, so that what a first search needs once per process (the
    query model's session or an Ollama model, the ranker's modules and model, the stemmer)
    is ready before the first question comes; a failure here is the first question's to
    report."""
    from codeagent.rank.retrieve import retrieve

    try:
        retrieve(store, "how does this work?", 1)
    except Exception:  # any failure: the first question that meets it says it
        log.debug("warming up the search failed", exc_info=True)


class RepoBackend:
    """One served repository: a shared workspace, its served index, and questions as event
    streams."""

    def __init__(
        self,
        repo: ServedRepo,
        settings: Settings,
        chat_model: Any | None,
        pool: IndexPool | None = None,
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.pool = pool  # with many repositories: opens lazily, closes the least recently used
        self.workspace = Workspace(repo.root, settings, chat_model=chat_model)
        self.keeper = IndexKeeper(
            repo.id, repo.root, settings, lambda force: self.build_index(force), self._made
        )
        self.check = self.keeper.check
        self.updater = self.keeper.updater
        self._lock = threading.Lock()
        self._embedder: tuple[Embedder | None, list[str]] | None = None
        self._paths: tuple[Any, set[str]] | None = None

    # -- the index ---------------------------------------------------------------------------

    def start_background_index(self) -> None:
        """Warm up in a thread: import the agent, build (or load) the index. Until an index
        with a dense part is ready, questions are answered from a stand-in (BuildingIndex)."""
        self.prepare()
        threading.Thread(target=import_agent, name="import-agent", daemon=True).start()
        self.updater.request()

    def prepare(self) -> None:
        """Say whether questions asked while the first index builds are answered from a
        stand-in (only when the index has a dense part, which takes long to embed)."""
        self.keeper.dense_first = has_dense(self.settings)

    def build_index(self, force: bool) -> tuple[IndexStore, IndexStats]:
        """The index of the repository's current state, through the cache (one embedder for
        the life of the server)."""
        from codeagent.embed.embedders import NO_EMBEDDER_NOTICE, make_embedder
        from codeagent.index.build import load_or_build

        with self._lock:
            if self._embedder is None:
                embedder = make_embedder(self.settings.embed, self.settings)
                auto = embedder is None and self.settings.embed.strip() == "auto"
                self._embedder = (embedder, [NO_EMBEDDER_NOTICE] if auto else [])
            embedder, notices = self._embedder
            self._embedder = (embedder, [])  # said with the first index only
        store, stats = load_or_build(self.repo.root, self.settings, force=force, embedder=embedder)
        stats.notices[:0] = notices
        if not _WARMED.is_set():  # the first question loads no model and imports no ranker
            _WARMED.set()  # once per process: it loads what every repository shares
            _warm_up(store)
        return store, stats

    def index(self, *, force: bool) -> dict[str, Any]:
        """Build or load the index of the current state now; its statistics."""
        stats = self.keeper.update_now(force=force)
        if self.pool is not None:
            self.pool.touch(self)
        return stats

    def pin(self) -> Pinned:
        """The index a question that arrives now is answered from (:meth:`IndexKeeper.pin`)."""
        pinned = self.keeper.pin()
        if self.pool is not None:
            self.pool.touch(self)
        return pinned

    def unchecked(self) -> Pinned:
        """The index served now, without looking at the repository (the first, coarse pass
        of a question asked across many repositories); a question's when none is open."""
        served = self.keeper.served()
        if served is None:
            return self.pin()
        if self.pool is not None:
            self.pool.touch(self)
        return served

    def _made(self) -> Embedder | None:
        """The embedder of the index being built (None until the build has made it)."""
        made = self._embedder
        return made[0] if made is not None else None

    def served_store(self) -> IndexStore:
        """The index served now, without a check (the stand-in while the first builds)."""
        served = self.keeper.served()
        return (served or self.pin()).index.get()

    def open_store(self) -> IndexStore | None:
        """The index held in memory now (None when closed or never opened)."""
        return self.keeper.open_store()

    def close(self) -> bool:
        """Let go of the index held in memory (reopened from the cache at the next question;
        a question answering now finishes on it); whether one was held."""
        self._paths = None
        return self.keeper.drop()

    def indexed_paths(self) -> set[str]:
        """The files the index holds (the only ones ``/v1/file`` shows)."""
        store = self.served_store()
        if self._paths is None or self._paths[0] is not store:
            self._paths = (store, {chunk.path for chunk in store.chunks})
        return self._paths[1]

    def status(self) -> dict[str, Any]:
        """The repository, its index, the state it answers from and whether an update runs."""
        status = {**self.repo.to_json(), **self.keeper.status()}
        if self.pool is not None:
            status["memory"] = self.pool.size_of(self)
        return status

    # -- questions ---------------------------------------------------------------------------

    def ask_stream(
        self, question: str, cancel: threading.Event, *, k: int | None = None
    ) -> Generator[Event, None, None]:
        """Answer ``question`` as events (``k`` sources, the settings' when None); once
        ``cancel`` is set the answer stops at its next event (the workspace's stream is
        closed, which stops the graph)."""
        try:
            pinned = self.pin()
        except CodeAgentError as exc:
            yield ErrorEvent(kind="failed", message=one_line(exc))
            return
        except Exception as exc:  # a bug: reported to the client, logged in full here
            log.exception("indexing for %r failed", question)
            yield internal_error(exc)
            return
        stream = self.workspace.ask_stream(
            question, index=pinned.index, notices=pinned.notices, k=k
        )
        try:
            yield from relay(stream, cancel, f"answering {question!r}")
        finally:
            if self.pool is not None:  # parts loaded by this answer count from now on
                self.pool.trim()


def relay(stream: Any, cancel: threading.Event, what: str) -> Generator[Event, None, None]:
    """The events of an answer's ``stream`` until it ends or ``cancel`` is set; a failure as
    an :class:`ErrorEvent` (a bug also logged in full, as ``what`` failed); the stream closed
    whatever happens."""
    try:
        for event in stream:
            if cancel.is_set():
                return
            yield event
    except CodeAgentError as exc:
        yield ErrorEvent(kind="failed", message=one_line(exc))
    except Exception as exc:  # a bug: reported to the client, logged in full here
        log.exception("%s failed", what)
        yield internal_error(exc)
    finally:
        stream.close()


def internal_error(exc: Exception) -> ErrorEvent:
    return ErrorEvent(kind="internal", message=f"internal error: {one_line(exc)}")


def import_agent() -> None:
    import codeagent.agent.graph  # noqa: F401 - the first question need not pay it


__all__ = ["RepoBackend", "has_dense", "import_agent", "internal_error"]
