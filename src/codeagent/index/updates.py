"""Index updates of one repository (served, or watched): at most one running, at most one pending.

:meth:`Updater.request` asks for the index of the repository as it is when the next update
begins, and returns that update's number; any number of requests made while an update runs
are served by the one update that follows it, so a burst of saves leads to one or two builds,
not one per save. An update probes the repository first and builds nothing when the served
index already matches. Otherwise it waits until the repository has been still for ``SETTLE``
seconds (two probes that agree; at most ``MAX_SETTLE`` s), so that an editor's burst of saves
or a ``git checkout`` writing many files is indexed once it is done, not halfway. Then it goes
through the cached build path (:func:`~codeagent.index.build.load_or_build`): files unchanged
since an earlier state keep their chunks and symbols, only new chunks are embedded, BM25 and
the symbol graph are made for the new state. The new index replaces the served one in one
assignment; questions already running finish on the index they started with.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.cancel import CancelToken, cancellable
from codeagent.config import Settings
from codeagent.errors import CodeAgentError, one_line
from codeagent.index.freshness import SharedCheck, Snapshot
from codeagent.index.lazy import LazyIndex
from codeagent.repo.probe import Probe

if TYPE_CHECKING:
    from codeagent.index.stats import IndexStats
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)

SETTLE = 0.05
MAX_SETTLE = 1.0
Build = Callable[[bool], "tuple[IndexStore, IndexStats]"]  # force -> the index and its stats


class Updater:
    def __init__(
        self, name: str, root: Path, settings: Settings, build: Build, check: SharedCheck
    ) -> None:
        self.name = name
        self.root = root
        self.settings = settings
        self.snapshot: Snapshot | None = None  # the index questions are answered from
        self.updates = 0  # new states indexed after the first index
        self.error: str | None = None  # why the last update failed (None once one succeeds)
        self.failed_key: str | None = None  # the probe that update saw
        self.built_state: str | None = None  # the state of the last index made (kept if closed)
        self._build = build
        self._check = check
        self.on_damage: Callable[[Exception], None] = self._damaged  # an entry found damaged
        self.says_failures = True  # False: whoever asked says them (`codeagent watch` does)
        self._cancel = CancelToken()  # the background updates'
        self._cond = threading.Condition()
        self._build_lock = threading.Lock()
        self._started = 0
        self._finished = 0
        self._pending = False
        self._worker: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether an update is running or waiting to run."""
        with self._cond:
            return self._worker is not None

    @property
    def building(self) -> bool:
        """Whether an update runs or waits to run, in the background or in a caller's thread."""
        return self.running or self._build_lock.locked()

    def drop(self) -> bool:
        """Stop holding the served index (after any running update); the next question
        opens it again through the cache. Whether one was held."""
        with self._build_lock:
            held, self.snapshot = self.snapshot is not None, None
            return held

    def request(self) -> int:
        """Ask for an update (in the background); the number :meth:`wait` takes."""
        with self._cond:
            self._pending = True
            wanted = self._started + 1
            if self._worker is None:
                self._worker = threading.Thread(
                    target=self._run, name=f"update-{self.name}", daemon=True
                )
                self._worker.start()
            return wanted

    def wait(self, wanted: int, timeout: float | None) -> bool:
        """Whether update ``wanted`` (or a later one) finished within ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(lambda: self._finished >= wanted, timeout)

    def stop(self) -> None:
        """Cancel the background update under way (at its next check) and every later one:
        nobody follows the repository any more (safe from a signal handler)."""
        self._cancel.cancel()

    def update_now(self, *, force: bool, reload: bool = False) -> Snapshot:
        """Update in this thread (after any running build); a failure raises. ``reload``: go
        through the build path even when the probe agrees with the served index's (its cache
        entry was finished by another process since)."""
        with self._cond:
            self._started += 1
            number = self._started
        try:
            snapshot = self._update(number, force=force, quiet=False, reload=reload)
            assert snapshot is not None  # not quiet: a failure raised
            return snapshot
        finally:
            self._finish(number)

    def _run(self) -> None:
        with cancellable(self._cancel):
            self._serve_requests()

    def _serve_requests(self) -> None:
        while True:
            with self._cond:
                if not self._pending:
                    self._worker = None
                    self._cond.notify_all()
                    return
                self._pending = False
                self._started += 1
                number = self._started
            try:
                self._update(number, force=False, quiet=True)
            finally:
                self._finish(number)

    def _finish(self, number: int) -> None:
        with self._cond:
            self._finished = max(self._finished, number)
            self._cond.notify_all()

    def _settled(self, probe: Probe | None) -> Probe | None:
        """The first of two probes ``SETTLE`` s apart that agree (or the last one after
        ``MAX_SETTLE`` s); ``probe`` itself when it matches the served index."""
        served = self.snapshot
        if probe is None or (served is not None and served.probe == probe):
            return probe
        deadline = time.monotonic() + MAX_SETTLE
        while time.monotonic() < deadline:
            time.sleep(SETTLE)
            again = self._check.get()
            if again is None or again.key == probe.key:
                break
            probe = again
        return probe

    def _damaged(self, exc: Exception) -> None:
        """What the background check of an entry opened on its seal found."""
        log.warning("%s; it is rebuilt when the index is next opened", exc)

    def _update(
        self, number: int, *, force: bool, quiet: bool, reload: bool = False
    ) -> Snapshot | None:
        """Index the repository's state now (``quiet``: a failure is logged, not raised)."""
        probe = self._check.get()  # taken after the request: it sees what the asker saw
        if self.snapshot is not None and not force:
            probe = self._settled(probe)
        with self._build_lock:
            current = self.snapshot
            if (
                not (force or reload)
                and current is not None
                and probe is not None
                and current.probe is not None
                and probe.key == current.probe.key
            ):
                self.snapshot = replace(current, generation=number)  # nothing changed
                return self.snapshot
            started = time.perf_counter()
            try:
                store, stats = self._build(force)
            except Exception as exc:
                self.error = one_line(exc)
                self.failed_key = probe.key if probe is not None else None
                if isinstance(exc, CodeAgentError):  # said by the caller unless in the background
                    (log.warning if quiet and self.says_failures else log.info)(
                        "indexing %s failed: %s", self.name, self.error
                    )
                else:  # a bug: logged in full
                    log.exception("indexing %s failed", self.name)
                    self.error = f"internal error: {self.error}"
                if quiet:
                    return current
                raise
            store.check_later(self.on_damage)  # opened on its seal: hashed behind the answers
            index = LazyIndex(self.root, self.settings, store=store, stats=stats)
            after = self._check.get()
            began = probe
            if probe is not None and (after is None or after.key != probe.key):
                probe = None  # changed while it was read: the next question updates again
            self.snapshot = Snapshot(index, probe, number, began)
            self.built_state = stats.state_hash or None
            if current is not None and not reload:  # a reload is the same state
                self.updates += 1
            self.error = self.failed_key = None
            log.info(
                "index of %s now at state %s (update %d, %.2f s: %d files reused, %d chunks"
                " embedded)",
                self.name, stats.state_hash[:12], self.updates, time.perf_counter() - started,
                stats.files_reused, stats.chunks_embedded,
            )  # fmt: skip
            return self.snapshot
