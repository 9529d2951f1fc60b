"""``LazyIndex``: one repository's index, built or loaded from the cache on first use, then
shared. Thread-safe: two questions that need it at once build it once.

With ``background``, a first index that would take long to embed is answered first
(:mod:`codeagent.index.answer_first`); :meth:`LazyIndex.refresh`, called before each
question, swaps in the full index once the background build has cached it."""

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
        background: bool = False,
    ) -> None:
        self.repo_root = repo_root
        self.settings = settings
        self.background = background  # answer first when embedding would keep one waiting
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
                background=self.background,
            )
            store.check_later(self._damaged)  # opened on its seal: hashed behind the answer
            self._store, self.stats = store, stats
            self._notices.extend(getattr(stats, "notices", None) or [])
            return stats

    @property
    def partial(self) -> bool:
        """Whether the loaded index was answered first (its dense part still being built)."""
        stats = self.stats
        return self.loaded and stats is not None and stats.dense_coverage is not None

    def refresh(self) -> None:
        """Before a question: an index answered first is replaced by the full one once the
        background build has cached it; until then each answer says again what it uses."""
        if not self.partial:
            return
        from codeagent.index import answer_first, background

        with self._lock:
            stats = self.stats
            if stats is None or stats.dense_coverage is None:
                return
            # the build first: one that ends between the two looks has left its entry
            build = background.find(self.settings, stats.repo_id, stats.state_hash)
            if Path(stats.cache_path).is_dir():  # finished: open it (a cache hit)
                self.load(force=False)
                return
            said = answer_first.percent(stats.dense_coverage)
            if build is not None:
                self._notices.append(answer_first.notice(stats.dense_coverage, build))
            else:
                log_file = background.log_path(self.settings, stats.repo_id, stats.state_hash)
                self._notices.append(
                    f"{answer_first.DENSE_NOTICE}{said} of chunks; the background index stopped"
                    f" before it finished (log {log_file}): `codeagent index` builds it"
                )

    def _damaged(self, exc: Exception) -> None:
        """What the background check of the entry found, said with the next answer."""
        with self._lock:
            self._notices.append(f"{exc}; the index is rebuilt at the next run")

    def take_notices(self, *, dense: bool = True) -> list[str]:
        """What the last build had to say (each notice handed out once); ``dense=False``: for
        an answer that used no vectors, without the lines about the dense index being built
        (dropped: :meth:`refresh` says them again before the next question while it is)."""
        from codeagent.index.answer_first import is_dense_notice

        with self._lock:
            notices, self._notices = self._notices, []
            take = getattr(self._store, "take_notices", None)  # a store handed in may not
            if take is not None:  # e.g. its dense backend went away since it opened
                notices.extend(take())
            return notices if dense else [n for n in notices if not is_dense_notice(n)]
