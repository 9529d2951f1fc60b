"""Keeping the index of a repository current while it is edited (``codeagent watch``).

The first index goes through the cached build path, as ``codeagent index`` does. Then every
batch of file-system events (:class:`~codeagent.repo.watch.RepoWatch`) is checked with a
probe (:mod:`codeagent.repo.probe`, one ``git status``): when the probe agrees with the one
taken before the last build, nothing discovery sees changed (a file ``.gitignore`` excludes,
an editor's temporary file it skips, a save that wrote the same bytes) and nothing is done.
Otherwise it waits until two probes ``SETTLE`` s apart agree (at most ``MAX_SETTLE`` s), the
idea of the server's updater, so a burst of saves or a ``git checkout`` writing many files is
indexed once, when it is done. Events that arrive during a build are gathered by the watcher
meanwhile and come as the next batch: a burst costs one build, or two when it overlaps one.
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
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.repo.probe import Probe, Prober, changed_paths
from codeagent.repo.watch import RepoWatch

if TYPE_CHECKING:
    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder
    from codeagent.index.stats import IndexStats

log = logging.getLogger(__name__)

SETTLE = 0.1
MAX_SETTLE = 2.0


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
        self.prober = Prober(self.root)
        self.state = ""  # the state hash of the last index built or loaded
        self.updates = 0
        self._probe: Probe | None = None

    def first(self, progress: ProgressReporter = NullProgress()) -> IndexStats:  # noqa: B008
        """Index the repository as it is now (a failure raises)."""
        self._probe = self.prober.probe()  # before the build: what changes during it is seen
        _store, stats = load_or_build(
            self.root, self.settings, progress=progress, embedder=self.embedder
        )
        self.state = stats.state_hash
        return stats

    def follow(self) -> Iterator[Update]:
        """One :class:`Update` per batch of events that changed the indexed state, until the
        watch stops."""
        for batch in self.watch.batches():
            update = self.on_batch(batch)
            if update is not None:
                yield update

    def on_batch(self, batch: set[str]) -> Update | None:
        """Update the index after ``batch``; None when nothing indexed changed."""
        probe = self.prober.probe()
        if self._probe is not None and probe.key == self._probe.key:
            log.debug("no indexed change in %s", sorted(batch))
            return None
        probe = self._settled(probe)
        if self.watch.stopped:
            return None
        changed = (
            changed_paths(self.root, self._probe, probe) if self._probe is not None else []
        ) or sorted(p for p in batch if not p.startswith(".git/"))
        self._probe = probe
        started = time.perf_counter()
        try:
            _store, stats = load_or_build(self.root, self.settings, embedder=self.embedder)
        except CodeAgentError as exc:  # a repository that cannot be indexed now: said, kept
            return Update(changed, error=one_line(exc), seconds=time.perf_counter() - started)
        seconds = time.perf_counter() - started
        if stats.state_hash == self.state:
            return None  # e.g. `git add`: the state git reports moved, the content did not
        self.state = stats.state_hash
        self.updates += 1
        return Update(changed, stats, seconds=seconds, notices=list(stats.notices))

    def _settled(self, probe: Probe) -> Probe:
        """The first of two probes ``SETTLE`` s apart that agree (or the last one after
        ``MAX_SETTLE`` s, or once the watch stops)."""
        deadline = time.monotonic() + MAX_SETTLE
        while time.monotonic() < deadline and not self.watch.stopped:
            time.sleep(SETTLE)
            again = self.prober.probe()
            if again.key == probe.key:
                break
            probe = again
        return probe
