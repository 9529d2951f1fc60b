"""Keeping the index of a repository current while it is edited (``codeagent watch``).

The index is kept by an :class:`~codeagent.index.keeper.IndexKeeper`, as a served
repository's is: the first index goes through the cached build path, as ``codeagent index``
does. Then every batch of file-system events (:class:`~codeagent.repo.watch.RepoWatch`) asks
the keeper for an update: it probes the repository (:mod:`codeagent.repo.probe`, one ``git
status``), does nothing when the probe agrees with the one taken before the last build
(nothing discovery sees changed: a file ``.gitignore`` excludes, an editor's temporary file
it skips, a save that wrote the same bytes), else waits until two probes agree (the
repository settled: a burst of saves or a ``git checkout`` writing many files is indexed
once, when it is done) and builds. Events that arrive during a build are gathered by the
watcher meanwhile and come as the next batch: a burst costs one build, or two when it
overlaps one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.errors import CodeAgentError, one_line
from codeagent.index.build import load_or_build
from codeagent.index.keeper import IndexKeeper
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.repo.probe import changed_paths
from codeagent.repo.watch import RepoWatch

if TYPE_CHECKING:
    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.index.stats import IndexStats
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)


@dataclass
class Update:
    """One update: the files that changed, and the new index's statistics or why it failed."""

    changed: list[str]
    stats: IndexStats | None = None
    error: str | None = None
    seconds: float = 0.0
    notices: list[str] = field(default_factory=list)


class Follower:
    """The index of ``root``, kept current from ``watch``'s events."""

    def __init__(
        self, root: Path, settings: Settings, watch: RepoWatch, embedder: Embedder | None
    ) -> None:
        self.root = Path(root)
        self.settings = settings
        self.watch = watch
        self.embedder = embedder
        self.keeper = IndexKeeper(self.root.name, self.root, settings, self._build, self._made)
        self.state = ""  # the state hash of the last index built or loaded
        self.updates = 0
        self._progress: ProgressReporter = NullProgress()

    def _build(self, force: bool) -> tuple[IndexStore, IndexStats]:
        return load_or_build(
            self.root, self.settings, force=force, progress=self._progress, embedder=self.embedder
        )

    def _made(self) -> Embedder | None:
        return self.embedder

    def first(self, progress: ProgressReporter = NullProgress()) -> IndexStats:  # noqa: B008
        """Index the repository as it is now (a failure raises)."""
        self._progress = progress
        try:
            snapshot = self.keeper.updater.update_now(force=False)
        finally:
            self._progress = NullProgress()
        assert snapshot.index.stats is not None
        self.state = snapshot.index.stats.state_hash
        return snapshot.index.stats

    def follow(self) -> Iterator[Update]:
        """One :class:`Update` per batch of events that changed the indexed state, until the
        watch stops."""
        for batch in self.watch.batches():
            update = self.on_batch(batch)
            if update is not None:
                yield update

    def on_batch(self, batch: set[str]) -> Update | None:
        """Update the index after ``batch``; None when nothing indexed changed."""
        before = self.keeper.updater.snapshot
        started = time.perf_counter()
        try:
            after = self.keeper.updater.update_now(force=False)
        except CodeAgentError as exc:  # a repository that cannot be indexed now: said, kept
            changed = sorted(p for p in batch if not p.startswith(".git/"))
            return Update(changed, error=one_line(exc), seconds=time.perf_counter() - started)
        seconds = time.perf_counter() - started
        if self.watch.stopped or (before is not None and after.index is before.index):
            log.debug("no indexed change in %s", sorted(batch))
            return None
        stats = after.index.stats
        assert stats is not None
        if stats.state_hash == self.state:
            return None  # e.g. `git add`: the state git reports moved, the content did not
        old = before.probe if before is not None else None
        changed = (
            changed_paths(self.root, old, after.probe)
            if old is not None and after.probe is not None
            else []
        ) or sorted(p for p in batch if not p.startswith(".git/"))
        self.state = stats.state_hash
        self.updates += 1
        return Update(changed, stats, seconds=seconds, notices=list(stats.notices))
