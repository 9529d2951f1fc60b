"""Many repositories in one server: indexes opened when first asked, closed least recently
used past a memory budget (``serve --max-memory``), and built one at a time in the background.

:class:`IndexPool` keeps the served repositories in the order they were last used. Each
question touches its repository (:meth:`RepoBackend.pin`); after a touch, and when an answer
ends (parts of an index load at first use), the estimated memory of the open indexes
(:mod:`codeagent.server.memory`) is added up and, while it is over the budget, the least
recently used index other than the one just touched is closed. A closed index reopens from
the cache at its repository's next question (a cache hit: no embedding). One index larger
than the whole budget stays open while it is used.

:class:`Indexer` builds (or finds in the cache) the index of every repository in turn, in
one thread, so that a first question rarely waits for a build; each index it opens counts as
the least recently used, so it is the first closed when the budget is reached.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from codeagent.server.memory import format_size, store_bytes, store_parts

if TYPE_CHECKING:
    from codeagent.index.updates import Updater
    from codeagent.server.repos import ServedRepo
    from codeagent.store.store import IndexStore


class RepoBackend(Protocol):
    """What the pool uses of a served repository (:class:`codeagent.server.backend.RepoBackend`)."""

    repo: ServedRepo
    updater: Updater

    def open_store(self) -> IndexStore | None: ...

    def close(self) -> bool: ...

    def prepare(self) -> None: ...


log = logging.getLogger(__name__)


class IndexPool:
    def __init__(self, budget: int | None) -> None:
        self.budget = budget  # bytes; None: no limit (indexes stay open once opened)
        self.evictions = 0
        self._order: OrderedDict[str, RepoBackend] = OrderedDict()  # least recent first
        self._sizes: dict[str, tuple[int, tuple[int, ...], int]] = {}  # id(store), parts, size
        self._lock = threading.RLock()

    def touch(self, backend: RepoBackend) -> None:
        """``backend`` answers now: the most recently used; close others past the budget."""
        with self._lock:
            self._order[backend.repo.id] = backend
            self._order.move_to_end(backend.repo.id)
        self.trim(keep=backend)

    def add_cold(self, backend: RepoBackend) -> None:
        """``backend``'s index was opened by no question (the background indexer): it is the
        least recently used, closed first."""
        with self._lock:
            if backend.repo.id not in self._order:
                self._order[backend.repo.id] = backend
                self._order.move_to_end(backend.repo.id, last=False)
        self.trim(keep=backend)

    def size_of(self, backend: RepoBackend) -> int:
        """Estimated bytes of ``backend``'s open index (0 when closed); recomputed only when
        another index object is open or more of its parts have loaded."""
        store = backend.open_store()
        if store is None:
            return 0
        parts = store_parts(store)
        with self._lock:
            known = self._sizes.get(backend.repo.id)
            if known is not None and known[0] == id(store) and known[1] == parts:
                return known[2]
        size = store_bytes(store)
        with self._lock:
            self._sizes[backend.repo.id] = (id(store), parts, size)
        return size

    def used(self) -> int:
        with self._lock:
            backends = list(self._order.values())
        return sum(self.size_of(b) for b in backends)

    def trim(self, keep: RepoBackend | None = None) -> list[str]:
        """Close the least recently used indexes (never ``keep``) while over the budget; the
        ids closed."""
        if self.budget is None:
            return []
        closed: list[str] = []
        with self._lock:
            sizes = {rid: self.size_of(b) for rid, b in self._order.items()}
            total = sum(sizes.values())
            for rid, backend in list(self._order.items()):
                if total <= self.budget:
                    break
                if backend is keep or not sizes[rid] or backend.updater.building:
                    continue  # an index being updated is closed once the update is done
                backend.close()
                del self._order[rid]
                self._sizes.pop(rid, None)
                total -= sizes[rid]
                closed.append(rid)
        if closed:
            self.evictions += len(closed)
            log.info(
                "closed the indexes of %s (least recently used; %s open of %s)",
                ", ".join(closed), format_size(total), format_size(self.budget),
            )  # fmt: skip
        return closed

    def recent(self) -> list[str]:
        """The ids of the repositories with an open index, least recently used first."""
        with self._lock:
            return [rid for rid, b in self._order.items() if b.open_store() is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "used": self.used(),
            "open": self.recent(),
            "evictions": self.evictions,
        }


class Indexer:
    """Builds the index of each repository in turn, in one background thread."""

    def __init__(self, backends: Iterable[RepoBackend], pool: IndexPool) -> None:
        self.backends = list(backends)
        self.pool = pool
        self.done = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        for backend in self.backends:
            backend.prepare()
        self._thread = threading.Thread(target=self._run, name="indexer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        for backend in self.backends:
            if self._stop.is_set():
                return
            if backend.updater.built_state is None:  # a question may have built it already
                wanted = backend.updater.request()
                backend.updater.wait(wanted, None)
                if backend.open_store() is not None:
                    self.pool.add_cold(backend)
            self.done += 1
