"""What a served answer knows about the repository's state: the shared per-question check and
the index state it answers from.

Every question starts with a probe of the repository (:mod:`codeagent.repo.probe`: one
``git status``, a few milliseconds). Questions that arrive while a probe runs share the next
one, so a burst of questions costs one or two probes, and none of them can be answered from a
look taken before it arrived. When the probe differs from the one taken when the served index
was built, an update is asked for (:mod:`codeagent.index.updates`).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from codeagent.index.lazy import LazyIndex
from codeagent.repo.probe import Probe, Prober, changed_paths

log = logging.getLogger(__name__)

NAMED_PATHS = 3  # changed files a notice names before it says "…"


@dataclass(frozen=True)
class Snapshot:
    """One served state: its index (loaded), the probe taken when its build began (None when
    the repository changed while it was built), the number of the update that made it (1 for
    the first index), and ``began``: that first probe kept in any case, so that what changed
    since can still be named."""

    index: LazyIndex
    probe: Probe | None
    generation: int
    began: Probe | None = None

    @property
    def state(self) -> str:
        return self.index.state or ""


class SharedCheck:
    """Probes on demand, one at a time. A caller always gets a probe that began after it asked;
    the callers that ask while one runs share the next one."""

    def __init__(self, root: Path, index_copies: Path | None = None) -> None:
        self.root = Path(root)
        self.index_copies = index_copies  # git's index read refreshed from there (repo.index_copy)
        self._prober: Prober | None = None
        self._cond = threading.Condition()
        self._started = 0
        self._finished = 0
        self._running = False
        self._last: Probe | None = None
        self.probes = 0  # how many probes ran (for the status and the tests)

    def get(self) -> Probe | None:
        """A fresh probe; None when the repository cannot be looked at (then nothing is said
        about its state and the last index keeps answering)."""
        with self._cond:
            wanted = self._started + 1
            while self._finished < wanted:
                if self._running:
                    self._cond.wait()
                    continue
                self._started += 1
                self._running = True
                mine = self._started
                self._cond.release()
                result: Probe | None = None
                try:
                    result = self._probe()
                finally:
                    self._cond.acquire()
                    self._running = False
                    self._finished = mine
                    self._last = result
                    self.probes += 1
                    self._cond.notify_all()
            return self._last

    def _probe(self) -> Probe | None:
        try:
            if self._prober is None:
                self._prober = Prober(self.root, self.index_copies)
            return self._prober.probe()
        except Exception:  # an unreadable repository must not fail the question
            log.exception("cannot look at the state of %s", self.root)
            return None


def catching_up_notice(root: Path, served: Snapshot, now: Probe, error: str | None) -> str:
    """What an answer from ``served`` says when the repository has moved on to ``now``."""
    since = served.probe or served.began
    paths = changed_paths(root, since, now) if since is not None else []
    what = "the repository's last changes"
    if paths:
        named = ", ".join(paths[:NAMED_PATHS]) + (", …" if len(paths) > NAMED_PATHS else "")
        what = f"{len(paths)} changed file{'s' if len(paths) != 1 else ''} ({named})"
    if error is not None:
        return (
            f"answering from the state before {what} (state {served.state[:12]}): the index"
            f" could not be updated: {error}"
        )
    return (
        f"answering from the state before {what} (state {served.state[:12]}); the index is"
        " catching up"
    )
