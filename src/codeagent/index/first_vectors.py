"""The question's candidate files embedded first, while the full dense index is built behind.

An index answered first (:mod:`codeagent.index.answer_first`) has vectors only for the chunks
the embedding cache already held: on a repository seen for the first time, none, so its first
answers came from BM25 alone. :class:`FirstVectors` gives such an index dense search where it
matters: before a question is ranked, the best chunks of the question's best BM25 files
(:func:`codeagent.rank.features.candidate_files`) that have no vector yet are embedded, stored
in the embedding cache (the next process finds them) and added to the in-memory dense index;
the answer says how many. All of them or none: when the embedder's own estimate
(:mod:`codeagent.embed.speed`, this machine's measured rate) is past
``settings.first_embed_seconds``, nothing is embedded first, because vectors for only some of
the candidates would lift those over the others by their dense score alone. So nothing is
embedded when the model is not ready (its first export alone is past the budget), before
this machine's embedding rate has been measured (the background build of a first index
measures it), on a machine too slow or busy for the budget, or when the budget is 0.
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
BATCH = 32  # chunks embedded between two looks at the clock


class Growing(Protocol):
    """A dense index of some chunks that takes more (``index.answer_first.PartialDense``)."""

    @property
    def rows(self) -> np.ndarray: ...

    def extend(self, rows: list[int], vectors: np.ndarray) -> None: ...


class FirstVectors:
    """Embeds, on request, the chunks of candidate files that ``dense`` has no vector for.

    The estimate decides before; the clock decides while it runs (``deadline``): past the
    budget between two batches, nothing is added."""

    deadline = True

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
        """Embed the chunks of ``files`` (chunk ids per file) that have no vector, all of them
        or, when the estimate says they would take longer than the budget, none; returns how
        many chunks were embedded."""
        budget = self.settings.first_embed_seconds
        estimate = getattr(self.embedder, "estimate_seconds", None)
        if budget <= 0 or estimate is None:
            return 0
        known = getattr(self.embedder, "rate_known", None)
        if known is not None and not known():
            # the shipped rate may be five times this machine's: spend nothing on a guess
            # until an embedding job here (the background build) has measured it
            return 0
        with self._lock:  # two questions at once (a server): each chunk embedded once
            return self._embed_first(files, budget, estimate)

    def _embed_first(
        self, files: Sequence[Sequence[int]], budget: float, estimate: Callable[[list[str]], float]
    ) -> int:
        have = set(self.dense.rows.tolist())
        chosen = list(dict.fromkeys(i for ids in files for i in ids if i not in have))
        if not chosen:
            return 0
        expected = estimate([self.texts[i] for i in chosen])
        if expected > budget:
            # All or none: vectors for a few of the candidates only would lift those few over
            # the rest by their dense score alone (a first export counts here too: never paid).
            log.debug("candidate files not embedded first: %.1fs expected", expected)
            return 0
        import numpy as np

        taken = sum(1 for ids in files if any(i not in have for i in ids))
        started = time.perf_counter()
        parts: list[np.ndarray] = []
        for at in range(0, len(chosen), BATCH):
            if self.deadline and parts and time.perf_counter() - started > budget:
                # the estimate was wrong (a rate not yet measured here, a busy machine): none
                # of them, as above; what was embedded stays in the cache for what follows
                log.debug("candidate files not embedded first: past %.1fs", budget)
                self.notices.append(
                    f"{FIRST_NOTICE}the question's candidate files took longer than"
                    f" {budget:g} s to embed: answered without them"
                )
                return 0
            parts.append(self._embed(chosen[at : at + BATCH]))
        vectors = np.vstack(parts)
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
