"""The one seam between the server and the agent: a served repository that answers as events.

Every front end of the server (HTTP, SSE, NDJSON, MCP, the web page) goes through
:class:`RepoBackend`, a thin layer over one shared, thread-safe :class:`Workspace`. Events
are the workspace's events as JSON objects (``route``, ``notice``, ``sources``, ``token``,
then ``result``, always last), plus ``error`` when an answer fails.

Every question is answered from the repository's current state: it starts with a cheap
check of the repository (:mod:`codeagent.server.freshness`); when the repository changed, an
index update is asked for (:mod:`codeagent.server.updates`) and waited for up to
``settings.update_wait`` seconds; past that the question is answered from the last state with
a notice naming what is out of date. Every answer carries the state hash of the index it came
from (``state`` in the result). Between questions, file-system events ask for updates too
(:mod:`codeagent.server.watching`), so the index is usually current before a question comes.

While the first dense (semantic) index of a repository is being built in the background,
questions are answered from an index built in memory in seconds, as ``codeagent ask`` answers
first (:mod:`codeagent.index.answer_first`): BM25, the symbol graph and dense search over the
chunks whose vectors are already cached, with a notice saying how much dense search covers;
the full index takes over as soon as it is ready.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from codeagent.config import Settings
from codeagent.errors import CodeAgentError, one_line
from codeagent.events import ErrorEvent, Event
from codeagent.index.lazy import LazyIndex
from codeagent.index.stats import IndexStats
from codeagent.server.building import BuildingIndex
from codeagent.server.freshness import SharedCheck, catching_up_notice
from codeagent.server.repos import ServedRepo
from codeagent.server.updates import Updater
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
    from codeagent.tools.rag_tool import retrieve

    try:
        retrieve(store, "how does this work?", 1)
    except Exception:  # any failure: the first question that meets it says it
        log.debug("warming up the search failed", exc_info=True)


@dataclass
class Pinned:
    """The index one question is answered from, and what its answer must say about it."""

    index: LazyIndex
    notices: list[str] = field(default_factory=list)

    @property
    def state(self) -> str | None:
        return self.index.state


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
        self.check = SharedCheck(repo.root)
        self.updater = Updater(
            repo.id, repo.root, settings, lambda force: self.build_index(force), self.check
        )
        self._building: BuildingIndex | None = None
        self._lock = threading.Lock()
        self._dense_first = False
        self._embedder: tuple[Embedder | None, list[str]] | None = None
        self._paths: tuple[Any, set[str]] | None = None

    # -- the index ---------------------------------------------------------------------------

    def start_background_index(self) -> None:
        """Warm up in a thread: import the agent, build (or load) the index. Until an index
        with a dense part is ready, questions are answered from a stand-in (BuildingIndex)."""
        self.prepare()
        threading.Thread(target=_import_agent, name="import-agent", daemon=True).start()
        self.updater.request()

    def prepare(self) -> None:
        """Say whether questions asked while the first index builds are answered from a
        stand-in (only when the index has a dense part, which takes long to embed)."""
        self._dense_first = has_dense(self.settings)

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
        snapshot = self.updater.update_now(force=force)
        if self.pool is not None:
            self.pool.touch(self)
        assert snapshot.index.stats is not None
        stats: dict[str, Any] = snapshot.index.stats.to_json()
        return stats

    def pin(self) -> Pinned:
        """The index a question that arrives now is answered from: the current state's (after
        an update of at most ``settings.update_wait`` s), or the last one with a notice."""
        pinned = self._pin()
        if self.pool is not None:
            self.pool.touch(self)
        return pinned

    def unchecked(self) -> Pinned:
        """The index served now, without looking at the repository (the first, coarse pass
        of a question asked across many repositories); a question's when none is open."""
        served = self.updater.snapshot
        if served is None:
            return self.pin()
        if self.pool is not None:
            self.pool.touch(self)
        return Pinned(served.index)

    def _pin(self) -> Pinned:
        probe = self.check.get()
        served = self.updater.snapshot
        if served is None:
            if self._dense_first and self.updater.running:
                return Pinned(self._building_index())  # it adds its own notice when used
            return Pinned(self.updater.update_now(force=False).index)
        self._building = None  # the stand-in is no longer needed once an index is served
        if probe is None or (served.probe is not None and probe.key == served.probe.key):
            return Pinned(served.index)  # current (or the repository cannot be looked at)
        if probe.key != self.updater.failed_key:  # a failed state is not retried per question
            wanted = self.updater.request()
            if self.updater.wait(wanted, self.settings.update_wait):
                newer = self.updater.snapshot
                if newer is not None and newer.generation >= wanted:
                    return Pinned(newer.index)
            served = self.updater.snapshot or served
        notice = catching_up_notice(self.repo.root, served, probe, self.updater.error)
        return Pinned(served.index, [notice])

    def _building_index(self) -> BuildingIndex:
        with self._lock:
            if self._building is None:
                self._building = BuildingIndex(self.repo, self.settings, self._made_embedder)
            return self._building

    def _made_embedder(self) -> Embedder | None:
        """The embedder of the index being built (None until the build has made it)."""
        made = self._embedder
        return made[0] if made is not None else None

    def served_store(self) -> IndexStore:
        """The index served now, without a check (the stand-in while the first builds)."""
        served = self.updater.snapshot
        if served is not None:
            return served.index.get()
        return self.pin().index.get()

    def open_store(self) -> IndexStore | None:
        """The index held in memory now (None when closed or never opened)."""
        served = self.updater.snapshot
        index = served.index if served is not None else self._building
        return index._store if index is not None else None

    def close(self) -> bool:
        """Let go of the index held in memory (reopened from the cache at the next question;
        a question answering now finishes on it); whether one was held."""
        dropped = self.updater.drop()
        with self._lock:
            held, self._building = self._building is not None, None
        self._paths = None
        return dropped or held

    def indexed_paths(self) -> set[str]:
        """The files the index holds (the only ones ``/v1/file`` shows)."""
        store = self.served_store()
        if self._paths is None or self._paths[0] is not store:
            self._paths = (store, {chunk.path for chunk in store.chunks})
        return self._paths[1]

    def status(self) -> dict[str, Any]:
        """The repository, its index, the state it answers from and whether an update runs."""
        served = self.updater.snapshot
        running = self.updater.running
        state = "ready" if served is not None else "building" if running else ""
        building = self.updater.building
        built = self.updater.built_state
        progress = "building" if building else "ready" if built else "missing"
        status = {
            **self.repo.to_json(),
            "index": self.updater.error or state or "not loaded",
            "state": served.state if served is not None else built,
            "updating": running and served is not None,
            "updates": self.updater.updates,
            "open": self.open_store() is not None,
            "progress": progress if self.updater.error is None or building else "failed",
        }
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
            for event in stream:
                if cancel.is_set():
                    return
                yield event
        except CodeAgentError as exc:
            yield ErrorEvent(kind="failed", message=one_line(exc))
        except Exception as exc:  # a bug: reported to the client, logged in full here
            log.exception("answering %r failed", question)
            yield internal_error(exc)
        finally:
            stream.close()  # type: ignore[attr-defined]
            if self.pool is not None:  # parts loaded by this answer count from now on
                self.pool.trim()


def internal_error(exc: Exception) -> ErrorEvent:
    return ErrorEvent(kind="internal", message=f"internal error: {one_line(exc)}")


def _import_agent() -> None:
    import codeagent.agent.graph  # noqa: F401 - the first question need not pay it
