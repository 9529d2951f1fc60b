"""Which files and definitions a map shows, cut to its token budget exactly.

Files are ranked by PageRank over the reference graph (personalised towards the focus, and
mixed with the focus weights: :func:`ranks`);
each definition's score is the rank that flows into it through the edges that name it,
plus an even share of its file's rank (so a file's definitions nobody calls still come in
its order), times ten for a name the question holds and five for a definition among the
question's best chunks. Definitions are taken best first while they fit, each with the
lines it needs to be read (its file's path, its enclosing class); whatever budget is left
goes to a last line naming the next files, cut at a token boundary. The counts are the
tokenizer's (:mod:`codeagent.repomap.tokens`); the text is counted once more at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codeagent.repomap.base import DEFAULT_KINDS, Def, MapBase, rows_named
from codeagent.repomap.refgraph import definition_scores, pagerank

if TYPE_CHECKING:
    import numpy as np

    from codeagent.repomap.focus import Focus

FOCUS_SHARE = 0.95  # of the personalisation on the focus files; the rest spread evenly
FOCUS_MIX = 0.5  # a focused file's score: this much its focus weight, the rest its PageRank
NAMED_BOOST = 10.0
CHUNK_BOOST = 5.0
MAX_MISSES = 5_000  # items in a row that do not fit: the rest of the budget is the last line's
MORE = "… more files:"


@dataclass
class Picked:
    """The files shown (best first) with the definitions shown of each (file order)."""

    files: list[int] = field(default_factory=list)
    defs: dict[int, set[int]] = field(default_factory=dict)
    tokens: int = 0
    rest: list[int] = field(default_factory=list)  # files eligible but not shown, best first


def ranks(base: MapBase, focus: Focus | None, shown: list[bool]) -> np.ndarray:
    """The files' scores: the stored PageRank without a focus; with one, PageRank
    personalised towards it, half and half with the focus weights themselves (a hub every
    file imports would otherwise come before the files the focus names)."""
    import numpy as np

    n = len(base.paths)
    active = np.asarray(shown, dtype=bool)
    if focus is None or focus.empty:
        if focus is None or focus.kinds == DEFAULT_KINDS:
            return np.asarray(base.rank, dtype=np.float64)  # computed with these files
        return pagerank(n, base.edges, active=active)
    personal = np.zeros(n)
    for i, weight in focus.files.items():
        personal[i] += weight
    personal /= personal.sum()
    floor = active / max(int(active.sum()), 1)
    rank = pagerank(n, base.edges, FOCUS_SHARE * personal + (1 - FOCUS_SHARE) * floor,
                    active=active)  # fmt: skip
    return np.asarray((1 - FOCUS_MIX) * rank + FOCUS_MIX * personal)


def eligible(base: MapBase, focus: Focus | None) -> list[bool]:
    kinds = focus.kinds if focus is not None else DEFAULT_KINDS
    named = focus.named if focus is not None else set()
    return [kind in kinds or i in named for i, kind in enumerate(base.kinds)]


def _def_table(base: MapBase) -> tuple[np.ndarray, ...]:
    """Per definition (files in order, each file's definitions in order; a file with none
    counts as one row with ``k = -1``): its file, its index ``k``, and its (file, name)'s
    place in :meth:`~codeagent.repomap.refgraph.Edges.targets` (-1: no edge names it).
    Made once per base."""
    import numpy as np

    found = base.memo.get("defs")
    if found is None:
        width = max(len(base.edges.names), 1)
        ids = {name: n for n, name in enumerate(base.edges.names)}
        rows: list[tuple[int, int, int]] = []
        for i, defs in enumerate(base.defs):
            if not defs:
                rows.append((i, -1, -1))
            for k, d in enumerate(defs):
                n = ids.get(d.name)
                rows.append((i, k, -1 if n is None else i * width + n))
        files, ks, keys = zip(*rows, strict=True) if rows else ((), (), ())
        targets, _inverse = base.edges.targets()
        wanted = np.asarray(keys, dtype=np.int64)
        place = np.searchsorted(targets, wanted).clip(0, max(len(targets) - 1, 0))
        hit = (wanted >= 0) & (len(targets) > 0)
        if len(targets):
            hit &= targets[place] == wanted
        found = (np.asarray(files, dtype=np.int64), np.asarray(ks, dtype=np.int64),
                 np.where(hit, place, -1))  # fmt: skip
        base.memo["defs"] = found
    return found


def scored_items(
    base: MapBase, rank: np.ndarray, shown: list[bool], focus: Focus | None
) -> list[tuple[float, int, int]]:
    """``(score, file, definition index or -1 for a file with none)``, best first (those of
    a map without a focus made once per base)."""
    import numpy as np

    if focus is None and "plain" in base.memo:
        plain: list[tuple[float, int, int]] = base.memo["plain"]
        return plain
    active = np.asarray(shown, dtype=bool)
    flow = definition_scores(rank, base.edges, active)
    files, ks, place = _def_table(base)
    counts = np.asarray([len(defs) for defs in base.defs], dtype=np.float64)
    score = rank[files] / (counts[files] + 1.0)  # a file's even share (its rank: no defs)
    score = np.where(ks < 0, rank[files], score)
    if len(flow):
        score = score + np.where(place >= 0, flow[place.clip(0)], 0.0)
    if focus is not None and (focus.names or focus.defs):
        named = rows_named(base)
        for name in focus.names:
            score[named.get(name, [])] *= NAMED_BOOST
        starts = np.searchsorted(files, np.arange(len(base.defs)))
        for i, qualname in focus.defs:
            for k, d in enumerate(base.defs[i]):
                if d.qualname == qualname:
                    score[starts[i] + k] *= CHUNK_BOOST
    keep = active[files]
    order = np.lexsort((ks[keep], files[keep], -score[keep]))  # paths sort as files do
    items = list(
        zip(score[keep][order].tolist(), files[keep][order].tolist(), ks[keep][order].tolist(),
            strict=True)
    )  # fmt: skip
    if focus is None:
        base.memo["plain"] = items
    return items


def _needed(defs: list[Def], k: int, taken: set[int]) -> list[int]:
    """``k`` and its enclosing definitions not yet taken."""
    out = []
    while k >= 0 and k not in taken:
        out.append(k)
        k = defs[k].parent
    return out


def pick(base: MapBase, items: list[tuple[float, int, int]], budget: int) -> Picked:
    """Take items best first while they fit in ``budget`` tokens (with what they need)."""
    picked = Picked()
    smallest = min((d.tokens for defs in base.defs for d in defs), default=1)
    misses = 0
    for _score, i, k in items:
        if budget - picked.tokens < smallest or misses > MAX_MISSES:
            break
        taken = picked.defs.get(i)
        need = [] if k < 0 else _needed(base.defs[i], k, taken or set())
        cost = sum(base.defs[i][j].tokens for j in need)
        cost += base.header_tokens[i] if taken is None else 0
        if (taken is not None and not need) or picked.tokens + cost > budget:
            misses += 1
            continue
        misses = 0
        if taken is None:
            picked.files.append(i)
            taken = picked.defs[i] = set()
        taken.update(need)
        picked.tokens += cost
    return picked


def lines(base: MapBase, picked: Picked, rank: np.ndarray) -> list[tuple[str, int]]:
    """The map's lines with their token counts: files best first, definitions in order."""
    out: list[tuple[str, int]] = []
    order = sorted(picked.files, key=lambda i: (-float(rank[i]), base.paths[i]))
    picked.files = order
    for i in order:
        out.append((base.paths[i], base.header_tokens[i]))
        out += [(base.defs[i][k].text, base.defs[i][k].tokens) for k in sorted(picked.defs[i])]
    return out
