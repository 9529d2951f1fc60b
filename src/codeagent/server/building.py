"""The index a served repository answers from while its first full index is built: chunks,
BM25, the symbol graph and the vectors already cached, in memory (as ``codeagent ask`` answers
first, :mod:`codeagent.index.answer_first`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from codeagent.config import Settings
from codeagent.index.lazy import LazyIndex
from codeagent.index.stats import IndexStats
from codeagent.progress import NullProgress
from codeagent.server.repos import ServedRepo

if TYPE_CHECKING:
    from codeagent.embed.embedders import Embedder
    from codeagent.store.store import IndexStore


def building_notice(repo_id: str, coverage: float) -> str:
    from codeagent.index.answer_first import DENSE_NOTICE, percent

    return (
        f"{DENSE_NOTICE}{percent(coverage)} of chunks: the index of {repo_id} is still being"
        " built in the background"
    )


class BuildingIndex(LazyIndex):
    """The index answered from while the first full one is built: chunks, BM25, the symbol
    graph and the vectors already cached, in memory (seconds: no embedding, no cache lock);
    every answer that used it carries a notice saying so."""

    def __init__(
        self, repo: ServedRepo, settings: Settings, embedder: Callable[[], Embedder | None]
    ) -> None:
        super().__init__(repo.root, settings)
        self._repo_id = repo.id
        self._embedder = embedder
        self._coverage = 0.0
        self._used = threading.local()

    def load(self, *, force: bool) -> IndexStats:
        from codeagent.index.answer_first import quick_store
        from codeagent.index.build import fingerprint, pool_settings
        from codeagent.index.chunked import chunk_repo
        from codeagent.repo.discover import discover
        from codeagent.repo.state import repo_id, state_hash
        from codeagent.store.cache import states

        with self._lock:
            discovery = discover(self.repo_root, max_bytes=self.settings.max_file_bytes)
            stats = IndexStats(repo=str(self.repo_root), files_indexed=len(discovery.files))
            earlier = states(self.settings.cache_dir / repo_id(discovery.root))
            chunked = chunk_repo(
                discovery, stats, NullProgress(), earlier, **pool_settings(self.settings)
            )
            self._store, self._coverage = quick_store(chunked, self._embedder(), self.settings)
            stats.state_hash = state_hash(discovery, fingerprint(None))
            self.stats = stats
            return stats

    def get(self) -> IndexStore:
        self._used.flag = True
        return super().get()

    def take_notices(self, *, dense: bool = True) -> list[str]:
        notices = super().take_notices(dense=dense)
        if getattr(self._used, "flag", False):  # this thread's answer used it
            self._used.flag = False
            if dense:  # an answer that used no vectors does not say it
                notices.append(building_notice(self._repo_id, self._coverage))
        return notices
