"""The index of one repository, kept current: what each question is answered from (``serve``,
``watch``, and a workspace's index answered first: :mod:`codeagent.index.kept`).

Every question is answered from the repository's current state: it starts with a cheap
check of the repository (:mod:`codeagent.index.freshness`); when the repository changed, an
index update is asked for (:mod:`codeagent.index.updates`) and waited for up to
``settings.update_wait`` seconds; past that the question is answered from the last state with
a notice naming what is out of date. Every answer carries the state hash of the index it came
from. Between questions, file-system events ask for updates too (:mod:`codeagent.index.follow`,
the loop ``watch`` and ``serve`` share), so the index is usually current before a question comes.

While the first dense (semantic) index is being built in the background, questions are
answered from an index built in memory in seconds (:class:`~codeagent.index.building.
BuildingIndex`), with a notice saying how much dense search covers; the full index takes over
as soon as it is ready. An index answered first by ``codeagent ask`` (the full one built by a
detached process, :mod:`codeagent.index.answer_first`) is replaced by the full one once that
process has cached it; until then each answer says again what dense search covers.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.config import Settings
from codeagent.index.answer_first import said_again
from codeagent.index.building import BuildingIndex
from codeagent.index.freshness import SharedCheck, Snapshot, catching_up_notice
from codeagent.index.lazy import LazyIndex
from codeagent.index.updates import Build, Updater

if TYPE_CHECKING:
    from codeagent.embed.embedders import Embedder
    from codeagent.store.store import IndexStore


@dataclass
class Pinned:
    """The index one question is answered from, and what its answer must say about it."""

    index: LazyIndex
    notices: list[str] = field(default_factory=list)

    @property
    def state(self) -> str | None:
        return self.index.state


class IndexKeeper:
    """The served index of the repository at ``root`` (named ``name``), its updates and the
    stand-in answered from while the first dense index builds. ``build(force)`` makes the
    index of the current state; ``embedder()`` is the one it made (None until then)."""

    def __init__(
        self,
        name: str,
        root: Path,
        settings: Settings,
        build: Build,
        embedder: Any,
    ) -> None:
        self.name = name
        self.root = root
        self.settings = settings
        self.check = SharedCheck(root, settings.git_index_dir)
        self.updater = Updater(name, root, settings, build, self.check)
        self.dense_first = False  # answer from a stand-in while the first index builds
        self._embedder = embedder
        self._building: BuildingIndex | None = None
        self._lock = threading.Lock()

    def update_now(self, *, force: bool) -> dict[str, Any]:
        """Build or load the index of the current state now; its statistics."""
        snapshot = self.updater.update_now(force=force)
        assert snapshot.index.stats is not None
        stats: dict[str, Any] = snapshot.index.stats.to_json()
        return stats

    def pin(self) -> Pinned:
        """The index a question that arrives now is answered from: the current state's (after
        an update of at most ``settings.update_wait`` s), or the last one with a notice."""
        if self.updater.snapshot is None:  # the first index: nothing to compare a probe with
            if self.dense_first and self.updater.running:
                return Pinned(self._building_index())  # it adds its own notice when used
            return Pinned(self.updater.update_now(force=False).index)
        probe = self.check.get()
        served = self.updater.snapshot
        if served is None:  # dropped meanwhile: opened again through the cache
            return Pinned(self.updater.update_now(force=False).index)
        self._building = None  # the stand-in is no longer needed once an index is served
        if probe is None or (served.probe is not None and probe.key == served.probe.key):
            return self._finished(served)  # current (or the repository cannot be looked at)
        if probe.key != self.updater.failed_key:  # a failed state is not retried per question
            wanted = self.updater.request()
            if self.updater.wait(wanted, self.settings.update_wait):
                newer = self.updater.snapshot
                if newer is not None and newer.generation >= wanted:
                    return Pinned(newer.index)
            served = self.updater.snapshot or served
        notice = catching_up_notice(self.root, served, probe, self.updater.error)
        return Pinned(served.index, [notice])

    def _finished(self, served: Snapshot) -> Pinned:
        """``served``; for an index answered first (:mod:`codeagent.index.answer_first`), the
        full index of its state once the background build has cached it, and until then the
        line saying again what dense search covers."""
        stats = served.index.stats
        if stats is None or stats.dense_coverage is None:
            return Pinned(served.index)
        said = said_again(self.settings, stats)
        if said is None:
            return Pinned(self.updater.update_now(force=False, reload=True).index)
        return Pinned(served.index, [said])

    def served(self) -> Pinned | None:
        """The index served now, without looking at the repository (None when none is)."""
        served = self.updater.snapshot
        return Pinned(served.index) if served is not None else None

    def _building_index(self) -> BuildingIndex:
        with self._lock:
            if self._building is None:
                self._building = BuildingIndex(self.root, self.name, self.settings, self._made)
            return self._building

    def _made(self) -> Embedder | None:
        made: Embedder | None = self._embedder()
        return made

    def open_store(self) -> IndexStore | None:
        """The index held in memory now (None when closed or never opened)."""
        served = self.updater.snapshot
        index = served.index if served is not None else self._building
        return index._store if index is not None else None

    def drop(self) -> bool:
        """Let go of the index held in memory (reopened from the cache at the next question;
        a question answering now finishes on it); whether one was held."""
        dropped = self.updater.drop()
        with self._lock:
            held, self._building = self._building is not None, None
        return dropped or held

    def status(self) -> dict[str, Any]:
        """The index (ready, building, failed), the state it answers from, its updates."""
        served = self.updater.snapshot
        running = self.updater.running
        state = "ready" if served is not None else "building" if running else ""
        building = self.updater.building
        built = self.updater.built_state
        progress = "building" if building else "ready" if built else "missing"
        return {
            "index": self.updater.error or state or "not loaded",
            "state": served.state if served is not None else built,
            "updating": running and served is not None,
            "updates": self.updater.updates,
            "open": self.open_store() is not None,
            "progress": progress if self.updater.error is None or building else "failed",
        }
