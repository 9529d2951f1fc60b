"""Following a repository's file-system events: the one loop that hands each batch of events
to the repository's :class:`~codeagent.index.keeper.IndexKeeper`, for ``codeagent watch``
(:class:`Follower`, which prints each update) and for ``codeagent serve`` (:class:`Watching`,
a thread per served repository).

A batch (:class:`~codeagent.repo.watch.RepoWatch`: events gathered until the repository was
quiet, junk folders and git's objects left out) asks the keeper's updater for an update
(:meth:`~codeagent.index.updates.Updater.request`, as a question does) and waits for it: the
updater probes the repository (one ``git status``), does nothing when the probe agrees with
the one taken before the last build (nothing discovery sees changed: a file ``.gitignore``
excludes, an editor's temporary file it skips, a save that wrote the same bytes), else waits
until two probes agree (the repository settled: a burst of saves or a ``git checkout``
writing many files is indexed once, when it is done) and builds in the background. Events
that arrive meanwhile are gathered by the watcher and come as the next batch: a burst costs
one build, or two when it overlaps one. In the server the per-question check stays: it is
what makes every answer current; watching only makes the update start earlier.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.errors import one_line
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

POLL = 0.1  # how often a wait for an update looks whether the watch was stopped
STOP_WAIT = 0.5  # how long a stopped watch waits for the cancelled update to end
JOIN_TIMEOUT = 2.0


@dataclass
class Update:
    """One update: the files that changed, and the new index's statistics or why it failed."""

    changed: list[str]
    stats: IndexStats | None = None
    error: str | None = None
    seconds: float = 0.0
    notices: list[str] = field(default_factory=list)


class Follow:
    """``keeper``'s index, kept current from ``watch``'s batches of events."""

    def __init__(self, keeper: IndexKeeper, watch: RepoWatch) -> None:
        self.keeper = keeper
        self.root = keeper.root
        self.watch = watch
        self.state = ""  # the state hash of the last index built or loaded
        self.updates = 0
        self._cancelled = False

    def follow(self) -> Iterator[Update]:
        """One :class:`Update` per batch of events that changed the indexed state, until the
        watch stops."""
        for batch in self.watch.batches():  # the first may be empty: edits made before it
            update = self.on_batch(batch)
            if update is not None:
                yield update

    def on_batch(self, batch: set[str]) -> Update | None:
        """Update the index after ``batch``; None when nothing indexed changed."""
        log.debug("%s: %d paths changed", self.keeper.name, len(batch))
        updater = self.keeper.updater
        before = updater.snapshot
        started = time.perf_counter()
        wanted = updater.request()
        while not updater.wait(wanted, POLL):
            if self.watch.stopped:
                if self._cancelled:  # it ends at its next check: let it clean up
                    updater.wait(wanted, STOP_WAIT)
                return None
        seconds = time.perf_counter() - started
        after = updater.snapshot
        if self.watch.stopped:
            return None  # an update cut short by the stop is not reported
        if updater.error is not None and (after is None or after.generation < wanted):
            # a repository that cannot be indexed now: said, the last index kept
            changed = sorted(p for p in batch if not p.startswith(".git/"))
            return Update(changed, error=updater.error, seconds=seconds)
        if after is None:
            return None
        if before is not None and after.index is before.index:
            log.debug("no indexed change in %s", sorted(batch))
            return None
        stats = after.index.stats
        assert stats is not None
        if stats.state_hash == self.state:
            return None  # e.g. `git add`: the state git reports moved, the content did not
        old = (before.probe or before.began) if before is not None else None
        changed = (
            changed_paths(self.root, old, after.probe)
            if old is not None and after.probe is not None
            else []
        ) or sorted(p for p in batch if not p.startswith(".git/"))
        self.state = stats.state_hash
        self.updates += 1
        return Update(changed, stats, seconds=seconds, notices=list(stats.notices))

    def stop(self) -> None:
        """Stop following, and the update under way at its next check (safe from a signal
        handler)."""
        self._cancelled = True
        self.keeper.updater.stop()
        self.watch.stop()


class Follower(Follow):
    """``codeagent watch``: the index of ``root``, built with ``embedder``, kept current from
    ``watch``'s events; each update's failure is said by its :class:`Update`."""

    def __init__(
        self, root: Path, settings: Settings, watch: RepoWatch, embedder: Embedder | None
    ) -> None:
        root = Path(root)
        self.settings = settings
        self.embedder = embedder
        self._progress: ProgressReporter = NullProgress()
        keeper = IndexKeeper(root.name, root, settings, self._build, self._made)
        keeper.updater.says_failures = False  # each update's line says it
        super().__init__(keeper, watch)

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


class Watching:
    """``codeagent serve``: the kept indexes' repositories followed, a thread each, started
    and stopped together. ``serve --no-watch`` makes none."""

    def __init__(self, keepers: Iterable[IndexKeeper], *, ignore: Iterable[Path] = ()) -> None:
        self.keepers = list(keepers)
        self.ignore = list(ignore)
        self._follows: list[Follow] = []
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for keeper in self.keepers:
            try:
                watch = RepoWatch(keeper.root, ignore=self.ignore)
            except Exception as exc:  # the questions' own check still keeps answers current
                log.warning("not watching %s: %s", keeper.name, one_line(exc))
                continue
            follow = Follow(keeper, watch)
            name = f"watch-{keeper.name}"
            thread = threading.Thread(target=_run, args=(follow,), name=name, daemon=True)
            self._follows.append(follow)
            self._threads.append(thread)
            thread.start()

    def stop(self) -> None:
        """Stop watching; an update under way finishes (the server exits after it anyway)."""
        for follow in self._follows:
            follow.watch.stop()
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT)


def _run(follow: Follow) -> None:
    try:
        for update in follow.follow():  # a failure is logged by the keeper's updater
            log.debug("%s: %d files changed", follow.keeper.name, len(update.changed))
    except Exception as exc:  # a watch that fails leaves the per-question check
        log.warning("stopped watching %s: %s", follow.keeper.name, one_line(exc))
