"""The question's candidate files embedded first, while the full dense index is built behind.

An index answered first (:mod:`codeagent.index.answer_first`) has vectors only for the chunks
the embedding cache already held: on a repository seen for the first time, none, so its first
answers came from BM25 alone. :class:`FirstVectors` gives such an index dense search where it
matters: before a question is ranked, the chunks of the question's best BM25 files that have
no vector yet are embedded (best file first, as many whole files as fit in
``settings.first_embed_seconds`` by the embedder's own estimate, :mod:`codeagent.embed.speed`),
stored in the embedding cache (the next process finds them) and added to the in-memory dense
index; the answer says how many. Nothing is embedded when the model is not ready (its first
export alone takes longer than the budget) or when the budget is 0.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.embed.embedders import Embedder

log = logging.getLogger(__name__)

# How every line about the candidates embedded first starts (a dense notice: an answer that
# used no vectors does not say it).
FIRST_NOTICE = "dense search: "


class Growing(Protocol):
    """A dense index of some chunks that takes more (``index.answer_first.PartialDense``)."""

    @property
    def rows(self) -> np.ndarray: ...

    def extend(self, rows: list[int], vectors: np.ndarray) -> None: ...


class FirstVectors:
    """Embeds, on request, the chunks of candidate files that ``dense`` has no vector for."""

    def __init__(
        self, dense: Growing, texts: list[str], embedder: Embedder, settings: Settings
    ) -> None:
        self.dense = dense
        self.texts = texts  # every chunk's embedding text, by chunk id
        self.embedder = embedder
        self.settings = settings
        self.notices: list[str] = []
        self._lock = threading.Lock()

    def embed_first(self, files: Sequence[Sequence[int]]) -> int:
        """Embed the chunks of ``files`` (chunk ids per file, the best file first) that have
        no vector, whole files while the estimate stays within the budget; returns how many
        chunks were embedded."""
        budget = self.settings.first_embed_seconds
        estimate = getattr(self.embedder, "estimate_seconds", None)
        if budget <= 0 or estimate is None:
            return 0
        with self._lock:  # two questions at once (a server): each chunk embedded once
            return self._embed_first(files, budget, estimate)

    def _embed_first(
        self, files: Sequence[Sequence[int]], budget: float, estimate: Callable[[list[str]], float]
    ) -> int:
        have = set(self.dense.rows.tolist())
        chosen: list[int] = []
        taken = 0
        for ids in files:
            wanted = [i for i in ids if i not in have and i not in chosen]
            if not wanted:
                continue
            if estimate([self.texts[i] for i in chosen + wanted]) > budget:
                break  # a first export counts in the estimate: never paid here
            chosen += wanted
            taken += 1
        if not chosen:
            return 0
        started = time.perf_counter()
        vectors = self._embed(chosen)
        self.dense.extend(chosen, vectors)
        seconds = time.perf_counter() - started
        log.debug(
            "%d chunks of %d candidate files embedded first in %.2fs", len(chosen), taken, seconds
        )
        files_said = "file" if taken == 1 else "files"
        self.notices.append(
            f"{FIRST_NOTICE}the question's {taken} best BM25 {files_said} embedded first"
            f" ({len(chosen)} chunks, {seconds:.1f} s)"
        )
        return len(chosen)

    def _embed(self, chosen: list[int]) -> np.ndarray:
        from codeagent.embed.cache import EmbedCache

        texts = [self.texts[i] for i in chosen]
        with EmbedCache(self.settings.embed_cache_dir, home=self.settings.home) as cache:
            return cache.embed(self.embedder, texts).vectors

    def take_notices(self) -> list[str]:
        notices, self.notices = self.notices, []
        return notices
