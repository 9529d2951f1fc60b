"""Served clones of git URLs are fetched again on a schedule (``serve --fetch-every SECONDS``).

One thread walks the URL repositories every period and fetches each (shallow, the remote's
``HEAD``, checked out detached: :func:`codeagent.repo.remote.resolve_repo`). Nothing else is
needed to serve the new commit: each question checks its repository's state and updates the
index when it moved (:mod:`codeagent.index.freshness`). A failed fetch is logged and kept for
``GET /v1/repos``; the clone keeps serving what it holds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from codeagent.config import Settings
from codeagent.errors import CodeAgentError, one_line

log = logging.getLogger(__name__)

DEFAULT_FETCH_EVERY = 300.0


@dataclass
class FetchState:
    """What the last fetch of one URL did (for ``GET /v1/repos``)."""

    url: str
    fetched_at: float | None = None  # time.time() of the last successful fetch
    error: str | None = None  # why the last fetch failed (None once one succeeds)
    fetches: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "url": self.url,
            "fetched_at": self.fetched_at,
            "fetch_error": self.error,
            "fetches": self.fetches,
        }


class Fetcher:
    """Fetches every URL in ``urls`` every ``every`` seconds until stopped."""

    def __init__(self, urls: Iterable[str], settings: Settings, every: float) -> None:
        now = time.time()
        self.states = {url: FetchState(url, fetched_at=now) for url in urls}  # cloned at start
        self.settings = settings
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.states and self.every > 0:
            self._thread = threading.Thread(target=self._run, name="fetch", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)

    def fetch_all(self) -> None:
        """Fetch each URL once, now."""
        from codeagent.repo.remote import resolve_repo

        for state in self.states.values():
            if self._stop.is_set():
                return
            try:
                resolve_repo(state.url, self.settings)
            except CodeAgentError as exc:
                state.error = one_line(exc)
                log.warning("fetching %s failed: %s", state.url, state.error)
                continue
            state.fetched_at, state.error = time.time(), None
            state.fetches += 1

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.fetch_all()
