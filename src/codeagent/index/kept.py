"""``KeptIndex``: the index of a workspace (``codeagent ask``, the REPL, ``codeagent map``, the
library's :class:`~codeagent.workspace.Workspace`), kept by an
:class:`~codeagent.index.keeper.IndexKeeper` by the rules a served or watched repository's
index follows.

It is loaded on first use, as a :class:`~codeagent.index.lazy.LazyIndex` is (a question that
reads no index builds none). With ``background`` (``ask`` and the REPL without ``--wait``) a
first index that would take long to embed is answered first, the full one built by a
detached ``codeagent index`` (:mod:`codeagent.index.answer_first`); without it every index
is built in full before it answers. Before each later question :meth:`KeptIndex.refresh`
takes the keeper's index: the current state's (after an update of at most
``settings.update_wait`` s, itself answered first when it would take long with
``background``), or the last one with a notice naming what is out of date; an index
answered first is replaced by the full one once the background build has cached it, and
until then each answer says again what dense search covers.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.config import Settings
from codeagent.index.keeper import IndexKeeper, Pinned
from codeagent.index.lazy import LazyIndex
from codeagent.progress import ProgressReporter

if TYPE_CHECKING:
    from codeagent.embed.embedders import Embedder
    from codeagent.index.stats import IndexStats
    from codeagent.store.store import IndexStore


class KeptIndex(LazyIndex):
    """A workspace's index, kept current by its :attr:`keeper` (one per workspace, shared by
    its threads); with ``background``, answered first when embedding would keep a question
    waiting."""

    def __init__(
        self,
        repo_root: Path,
        settings: Settings,
        *,
        progress: ProgressReporter | None = None,
        background: bool = True,
    ) -> None:
        super().__init__(repo_root, settings, progress=progress)
        self.background = background
        root = Path(repo_root)
        self.keeper = IndexKeeper(root.name, root, settings, self._build, _no_embedder)
        self.keeper.updater.on_damage = self._damaged  # said with the next answer

    def _build(self, force: bool) -> tuple[IndexStore, IndexStats]:
        from codeagent.index.build import load_or_build

        return load_or_build(
            self.repo_root,
            self.settings,
            force=force,
            progress=self.progress,
            background=self.background,
        )

    def load(self, *, force: bool) -> IndexStats:
        with self._lock:
            self._take(Pinned(self.keeper.updater.update_now(force=force).index))
            assert self.stats is not None
            return self.stats

    def refresh(self) -> None:
        if not self.loaded:
            return  # the first question that reads it loads it
        pinned = self.keeper.pin()
        with self._lock:
            self._take(pinned)

    def _take(self, pinned: Pinned) -> None:
        """Answer from ``pinned``'s index from now on, and say what it says."""
        index = pinned.index
        self._store, self.stats = index.get(), index.stats
        self._notices.extend(index.take_notices())  # once: its build's, the first time
        self._notices.extend(pinned.notices)


def _no_embedder() -> Embedder | None:
    return None  # no stand-in is built here: the keeper's is the server's
