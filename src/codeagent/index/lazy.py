"""``LazyIndex``: one repository's index, built or loaded from the cache on first use, then
shared. Thread-safe: two questions that need it at once build it once. It never looks at
the repository again: :class:`~codeagent.index.kept.KeptIndex` is the one kept current."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.config import Settings
from codeagent.progress import NullProgress, ProgressReporter

if TYPE_CHECKING:
    from codeagent.index.stats import IndexStats
    from codeagent.store.store import IndexStore


class LazyIndex:
    def __init__(
        self,
        repo_root: Path,
        settings: Settings,
        *,
        store: IndexStore | None = None,
        progress: ProgressReporter | None = None,
        stats: IndexStats | None = None,
    ) -> None:
        self.repo_root = repo_root
        self.settings = settings
        self.progress: ProgressReporter = progress or NullProgress()
        self.stats: IndexStats | None = stats  # given with ``store``: an index already built
        self._store = store
        self._lock = threading.RLock()
        self._notices: list[str] = list(stats.notices) if stats is not None else []

    @property
    def loaded(self) -> bool:
        return self._store is not None

    @property
    def state(self) -> str | None:
        """The state hash of the loaded index (None before it is loaded)."""
        stats = self.stats
        return stats.state_hash or None if stats is not None and self.loaded else None

    def get(self) -> IndexStore:
        """The index, built or loaded on first use, then reused."""
        store = self._store
        if store is not None:
            return store
        with self._lock:
            if self._store is None:
                self.load(force=False)
            assert self._store is not None
            return self._store

    def load(self, *, force: bool) -> IndexStats:
        """Build or load the index now (``force``: rebuild from the current state)."""
        from codeagent.index.build import load_or_build

        with self._lock:
            store, stats = load_or_build(
                self.repo_root,
                self.settings,
                force=force,
                progress=self.progress,
            )
            store.check_later(self._damaged)  # opened on its seal: hashed behind the answer
            self._store, self.stats = store, stats
            self._notices.extend(getattr(stats, "notices", None) or [])
            return stats

    def refresh(self) -> None:
        """Before a question: nothing here (a kept index pins its keeper's index:
        :class:`~codeagent.index.kept.KeptIndex`)."""

    def _damaged(self, exc: Exception) -> None:
        """What the background check of the entry found, said with the next answer."""
        with self._lock:
            self._notices.append(f"{exc}; the index is rebuilt at the next run")

    def take_notices(self, *, dense: bool = True) -> list[str]:
        """What the last build had to say (each notice handed out once); ``dense=False``: for
        an answer that used no vectors, without the lines about the dense index being built
        (dropped: the keeper says them again before the next question while it is)."""
        from codeagent.index.answer_first import is_dense_notice

        with self._lock:
            notices, self._notices = self._notices, []
            take = getattr(self._store, "take_notices", None)  # a store handed in may not
            if take is not None:  # e.g. its dense backend went away since it opened
                notices.extend(take())
            return notices if dense else [n for n in notices if not is_dense_notice(n)]
