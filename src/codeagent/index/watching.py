"""Watching kept indexes (the server's repositories): a file-system event asks the repository's
:class:`~codeagent.index.keeper.IndexKeeper` for an update, so the index is current before
the next question arrives.

One thread per repository reads its batches of events
(:class:`~codeagent.repo.watch.RepoWatch`) and calls :meth:`Updater.request
<codeagent.index.updates.Updater.request>`: the updater probes, does nothing when the served
index matches (a file ``.gitignore`` excludes), else waits for the repository to settle and
updates once for the whole burst. The per-question check stays: it is what makes every answer
current; watching only makes the update start earlier. ``codeagent serve --no-watch`` turns
it off.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from pathlib import Path

from codeagent.errors import one_line
from codeagent.index.keeper import IndexKeeper
from codeagent.repo.watch import RepoWatch

log = logging.getLogger(__name__)

JOIN_TIMEOUT = 2.0


class Watching:
    """File-system watches of kept indexes' repositories, started and stopped together."""

    def __init__(self, keepers: Iterable[IndexKeeper], *, ignore: Iterable[Path] = ()) -> None:
        self.keepers = list(keepers)
        self.ignore = list(ignore)
        self._watches: list[RepoWatch] = []
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for keeper in self.keepers:
            try:
                watch = RepoWatch(keeper.root, ignore=self.ignore)
            except Exception as exc:  # the questions' own check still keeps answers current
                log.warning("not watching %s: %s", keeper.name, one_line(exc))
                continue
            name = f"watch-{keeper.name}"
            thread = threading.Thread(
                target=self._run, args=(watch, keeper), name=name, daemon=True
            )
            self._watches.append(watch)
            self._threads.append(thread)
            thread.start()

    def stop(self) -> None:
        for watch in self._watches:
            watch.stop()
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT)

    @staticmethod
    def _run(watch: RepoWatch, keeper: IndexKeeper) -> None:
        try:
            for batch in watch.batches():  # the first may be empty: edits made before it
                log.debug("%s: %d paths changed", keeper.name, len(batch))
                keeper.updater.request()
        except Exception as exc:  # a watch that fails leaves the per-question check
            log.warning("stopped watching %s: %s", keeper.name, one_line(exc))
