"""What ``codeagent serve`` adds to serve many repositories: the repositories file (URLs
cloned at the start, fetched on a schedule), the memory budget's pool of open indexes and the
background indexer (:mod:`codeagent.server.pool`), and what ``GET /v1/repos`` says of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.config import Settings
from codeagent.server.fetching import Fetcher
from codeagent.server.pool import Indexer, IndexPool
from codeagent.server.repolist import RepoEntry, read_repos_file

if TYPE_CHECKING:
    from codeagent.server.backend import RepoBackend


@dataclass
class Many:
    entries: list[RepoEntry] = field(default_factory=list)
    pool: IndexPool | None = None  # None: every index opens at the start and stays open
    fetcher: Fetcher | None = None
    indexer: Indexer | None = None

    @classmethod
    def make(
        cls,
        repos_file: Path | None,
        max_memory: int | None,
        fetch_every: float,
        settings: Settings,
    ) -> Many:
        """Read ``repos_file`` (cloning its URLs); a pool when either option is given."""
        entries = read_repos_file(repos_file, settings) if repos_file is not None else []
        lazy = repos_file is not None or max_memory is not None
        urls = [e.url for e in entries if e.url is not None]
        fetcher = Fetcher(urls, settings, fetch_every) if urls else None
        return cls(entries, IndexPool(max_memory) if lazy else None, fetcher)

    def start(self, backends: dict[str, RepoBackend]) -> None:
        if self.pool is not None:
            self.indexer = Indexer(backends.values(), self.pool)
            self.indexer.start()
        if self.fetcher is not None:
            self.fetcher.start()

    def stop(self) -> None:
        if self.indexer is not None:
            self.indexer.stop()
        if self.fetcher is not None:
            self.fetcher.stop()

    def describe(self) -> dict[str, Any] | None:
        """``memory`` (budget, estimated bytes used, open repositories least recent first,
        evictions), ``indexed`` (repositories the background indexer has been through) and
        ``fetches`` (per URL: when last fetched, the last error)."""
        if self.pool is None and self.fetcher is None:
            return None
        found: dict[str, Any] = {}
        if self.pool is not None:
            found["memory"] = self.pool.to_json()
        if self.indexer is not None:
            found["indexed"] = {"done": self.indexer.done, "of": len(self.indexer.backends)}
        if self.fetcher is not None:
            found["fetches"] = [state.to_json() for state in self.fetcher.states.values()]
        return found
