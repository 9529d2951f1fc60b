"""The index a served repository answers from while its first full index is built: chunks,
BM25, the symbol graph and the vectors already cached, in memory (as ``codeagent ask`` answers
first, :mod:`codeagent.index.answer_first`; made by :func:`~codeagent.index.build.quick_index`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.config import Settings
from codeagent.index.lazy import LazyIndex
from codeagent.index.stats import IndexStats

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
        self,
        root: Path,
        repo_id: str,
        settings: Settings,
        embedder: Callable[[], Embedder | None],
    ) -> None:
        super().__init__(root, settings)
        self._repo_id = repo_id  # as the server names the repository
        self._embedder = embedder
        self._coverage = 0.0
        self._used = threading.local()

    def load(self, *, force: bool) -> IndexStats:
        from codeagent.index.build import quick_index

        with self._lock:
            self._store, self._coverage, stats = quick_index(
                self.repo_root, self.settings, self._embedder()
            )
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
