"""The repository map: the files that matter, ranked, with their definitions, in a budget.

    from codeagent.repomap import build_map

    found = build_map(store, budget=1024, focus=["why does the retry loop never stop?"])
    print(found.text)            # counted by the embedder's tokenizer: <= 1024 tokens

Files are ranked by personalised PageRank over the reference graph the symbol graph gives
(imports, calls, inheritance: :mod:`codeagent.repomap.refgraph`), towards the focus when
there is one (:mod:`codeagent.repomap.focus`); what every map of a state shares is computed
once and kept beside the index entry (:mod:`codeagent.repomap.base`); the selection fills
the budget to within a few tokens (:mod:`codeagent.repomap.select`). See docs/map.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.errors import ConfigError
from codeagent.repomap.result import MapDefinition, MapFile, RepoMap

if TYPE_CHECKING:
    from codeagent.index.lazy import LazyIndex
    from codeagent.store.store import IndexStore

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "MIN_BUDGET",
    "MapFile",
    "RepoMap",
    "build_map",
    "map_of",
]

DEFAULT_BUDGET = 1024
MIN_BUDGET = 32
MAX_BUDGET = 65_536
MORE_FILES = 200  # files named at most on the last line


def check_budget(budget: int) -> int:
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise ConfigError(f"the budget must be {MIN_BUDGET} to {MAX_BUDGET} tokens, not {budget}")
    return budget


def build_map(
    store: IndexStore,
    *,
    budget: int = DEFAULT_BUDGET,
    focus: Sequence[str] = (),
    state: str | None = None,
    entry: Path | None = None,
) -> RepoMap:
    """The map of ``store``'s repository in at most ``budget`` tokens, personalised towards
    ``focus`` (paths and questions); ``state`` and ``entry`` (the index's state hash and
    cache entry) let the per-state part be remembered and kept beside the entry."""
    from codeagent.repomap.base import map_base
    from codeagent.repomap.focus import read_focus
    from codeagent.repomap.select import MORE, eligible, lines, pick, ranks, scored_items
    from codeagent.repomap.tokens import counter

    check_budget(budget)
    focus = [f for f in focus if f.strip()]
    base = map_base(store, state=state, entry=entry)
    found = read_focus(base, store, list(focus)) if focus else None
    shown = eligible(base, found)
    rank = ranks(base, found, shown)
    picked = pick(base, scored_items(base, rank, shown, found), budget)
    rows = lines(base, picked, rank)
    order = sorted(range(len(base.paths)), key=lambda i: (-float(rank[i]), base.paths[i]))
    rest = [i for i in order if shown[i] and i not in picked.defs]
    tokens = counter()
    left = budget - picked.tokens
    if rest and left > tokens.count(MORE) + 1:
        more = _more_line(" ".join([MORE, *(base.paths[i] for i in rest[:MORE_FILES])]), left)
        if len(more) > len(MORE) + 2:  # a file named, if only in part
            rows.append((more, tokens.count(more)))
    text = "\n".join(t for t, _ in rows)
    counted = tokens.count(text)
    while counted > budget and rows:  # never with a tokenizer that splits on whitespace
        rows.pop()
        text = "\n".join(t for t, _ in rows)
        counted = tokens.count(text)
    files = [
        MapFile(
            base.paths[i],
            base.kinds[i],
            round(float(rank[i]), 6),
            [
                MapDefinition(d.qualname, d.kind, d.line, d.end_line, d.text.strip())
                for d in (base.defs[i][k] for k in sorted(picked.defs[i]))
            ],
        )
        for i in picked.files
    ]
    return RepoMap(
        text=text,
        tokens=counted,
        budget=budget,
        tokenizer=tokens.name,
        files=files,
        more=[base.paths[i] for i in rest[:MORE_FILES]],
        more_count=len(rest),
        focus=list(focus),
        state=state,
    )


def _more_line(full: str, left: int) -> str:
    """``full`` in at most ``left`` tokens: whole, or cut at a token boundary and ending
    with an ellipsis."""
    from codeagent.repomap.tokens import counter

    tokens = counter()
    if tokens.count(full) <= left:
        return full
    for room in range(left - 1, 0, -1):
        cut = tokens.cut(full, room) + "…"
        if tokens.count(cut) <= left:
            return cut
    return ""


def map_of(index: LazyIndex, **kw: Any) -> RepoMap:
    """:func:`build_map` of the index a :class:`~codeagent.index.lazy.LazyIndex` holds (a
    workspace's, a server's), remembered per state and kept beside its cache entry."""
    store = index.get()
    stats = index.stats
    state = (stats.state_hash or None) if stats is not None else None
    entry = Path(stats.cache_path) if stats is not None and stats.cache_path else None
    return build_map(store, state=state, entry=entry, **kw)
