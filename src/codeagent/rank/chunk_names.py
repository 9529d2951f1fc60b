"""A question in words names the work, and often the function that does it: in each of the
files shown, a chunk scores more the more of its definition's name the question says
(:func:`by_name`; the evidence, the rules it was kept by and their figures: the module
documentation of :mod:`codeagent.rank.retrieve`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codeagent.rank import idle_defs
from codeagent.tokens import name_terms

if TYPE_CHECKING:
    from codeagent.rank.ranking import Ranking
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

NAME_WEIGHT = 0.5  # a question in words: a chunk's score x (1 + this x its name's share said)
# an accessor's verb says nothing of what a name does: "how does a command get its arguments
# rearranged?" is not about ``get_namespaces`` (counted as not said; a name of one part keeps it)
ACCESSOR_PARTS = frozenset({"get", "set"})
# an instance's ``__call__``: ``self`` its first parameter (after the decorators, a comment);
# not a metaclass's (``cls``), nor a later window of a long one (which holds no signature)
_INSTANCE_CALL = re.compile(
    r"(?:\s*@[^\n]*\n)*\s*(?:async\s+)?def\s+__call__\s*\((?:\s*#[^\n]*)?\s*self\b"
)


def by_name(
    store: IndexStore,
    ranking: Ranking,
    terms: frozenset[str],
    path: str,
    named: frozenset[str] = frozenset(),
) -> None:
    """Score up, in place, each chunk of ``path`` by the share of its definition's name (the
    last part of its symbol) that ``terms`` hold; wholly when the question gives the name as
    code (``named``: yup's ``when`` for "how does when() decide ...", a name BM25 reads as a
    stopword and no term holds). A file's chunks are weighed as it is reached:
    a question in words looks at no later file's chunks before (only a bug report does). A
    function nested in another, longer than each piece of it, is its body: named by its own
    name or the outer one's (hono's ``compose.dispatch``: "how does compose call the next
    middleware?"; not express' ``redirect.text``, a three-line helper of ``redirect``)."""
    scores, ids = ranking.chunk_scores, ranking.table.file_chunks[ranking.table.ids[path]]
    said = {i: _name_share(store.chunks[i], terms, named) for i in ids}
    outer: dict[str, tuple[float, int]] = {}  # a function's share, its longest piece
    for i in (i for i in ids if store.chunks[i].kind == "function"):
        share, longest = outer.get(store.chunks[i].symbol, (0.0, 0))
        outer[store.chunks[i].symbol] = (max(share, said[i]), max(longest, _length(store, i)))
    for i in ids:
        chunk = store.chunks[i]
        share, longest = outer.get(chunk.symbol.rpartition(".")[0], (0.0, 0))
        if chunk.kind == "function" and _length(store, i) > longest:
            said[i] = max(said[i], share)
        if said[i] and not idle_defs.is_stub(chunk):  # a stub does not do what it says
            scores[i] *= 1.0 + NAME_WEIGHT * said[i]


def _length(store: IndexStore, i: int) -> int:
    return store.chunks[i].end_line - store.chunks[i].start_line


def _name_share(chunk: Chunk, terms: frozenset[str], named: frozenset[str]) -> float:
    """The share of ``chunk``'s definition's name that ``terms`` hold (none for a file's head, a
    window of lines, a constructor: a question that names its class names no step)."""
    if not chunk.symbol or chunk.symbol[0] == "<" or chunk.kind == "constructor":
        return 0.0
    said_name = _said_name(chunk.symbol, chunk.text)
    if said_name in named:
        return 1.0
    name = name_terms(said_name)
    said = len((name - ACCESSOR_PARTS if len(name) > 1 else name) & terms)
    return said / len(name) if said else 0.0


def _said_name(symbol: str, text: str) -> str:
    """The name a definition is asked by: its own, but a callable class's ``__call__`` by its
    class's (``TimeStamper.__call__`` stamps the time; its own name says nothing). A
    metaclass's ``__call__`` (its first parameter ``cls``) makes the instances of other classes:
    filelock's ``FileLockMeta.__call__`` is no answer to how a lock is released; nor is a later
    window of a long ``__call__``, which does not say whose it is."""
    parts = symbol.rsplit(".", 2)
    if parts[-1] != "__call__" or len(parts) < 2 or _INSTANCE_CALL.match(text) is None:
        return parts[-1]
    return parts[-2]
