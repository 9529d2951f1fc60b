"""A question in words names the work, and often the function that does it: in each of the
files shown, a chunk scores more the more of its definition's name the question says
(:func:`by_name`; the evidence, the rules it was kept by and their figures: the module
documentation of :mod:`codeagent.rank.retrieve`)."""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING

from codeagent.rank import idle_defs
from codeagent.tokens import name_terms

if TYPE_CHECKING:
    from collections.abc import Sequence

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
    middleware?"; not express' ``redirect.text``, a three-line helper of ``redirect``).
    What a chunk's name is does not depend on the question: it is read once per file and
    index (:func:`_names`), and a question only counts its terms in it."""
    names = _names(store, ranking.table.file_chunks[ranking.table.ids[path]], path)
    said: dict[int, float] = {}
    for i, whole, parts, size in names.named:
        if whole in named:
            said[i] = 1.0
        else:
            hits = len(parts & terms)
            if hits:
                said[i] = hits / size
    lifted = {
        i: max(said.get(j, 0.0) for j in pieces) for i, pieces in names.inherits
    }  # each from the shares before any is lifted, as the outer function's pieces are
    for i, share in lifted.items():
        if share > said.get(i, 0.0):
            said[i] = share
    scores = ranking.chunk_scores
    for i in names.ids:
        share = said.get(i, 0.0)
        if share and not names.stub(store, i):  # a stub does not do what it says
            scores[i] *= 1.0 + NAME_WEIGHT * share


class _FileNames:
    """What :func:`by_name` reads of a file's chunks whatever the question: each named chunk's
    name (id, the name as written, its terms counted, their number), each function chunk
    longer than every piece of the function around it with those pieces, and which chunks are
    stubs (read when first asked)."""

    __slots__ = ("_stubs", "ids", "inherits", "named")

    def __init__(self, store: IndexStore, ids: Sequence[int]) -> None:
        self.ids = list(ids)
        self.named: list[tuple[int, str, frozenset[str], int]] = []
        pieces: dict[str, list[int]] = {}  # a function's pieces, by its symbol
        longest: dict[str, int] = {}
        for i in self.ids:
            chunk = store.chunks[i]
            name = _name_of(chunk)
            if name is not None:
                parts = name_terms(name)
                counted = parts - ACCESSOR_PARTS if len(parts) > 1 else parts
                self.named.append((i, name, counted, max(len(parts), 1)))
            if chunk.kind == "function":
                pieces.setdefault(chunk.symbol, []).append(i)
                longest[chunk.symbol] = max(longest.get(chunk.symbol, 0), _length(store, i))
        self.inherits: list[tuple[int, list[int]]] = []
        for i in self.ids:
            chunk = store.chunks[i]
            outer = chunk.symbol.rpartition(".")[0]
            if outer in pieces and chunk.kind == "function" and _length(store, i) > longest[outer]:
                self.inherits.append((i, pieces[outer]))
        self._stubs: dict[int, bool] = {}

    def stub(self, store: IndexStore, i: int) -> bool:
        found = self._stubs.get(i)
        if found is None:
            found = self._stubs[i] = idle_defs.is_stub(store.chunks[i])
        return found


_NAMES: weakref.WeakKeyDictionary[IndexStore, dict[str, _FileNames]] = weakref.WeakKeyDictionary()


def _names(store: IndexStore, ids: Sequence[int], path: str) -> _FileNames:
    """The names of ``path``'s chunks ``ids`` (:class:`_FileNames`), remembered per index."""
    found = _NAMES.get(store)
    if found is None:
        found = _NAMES[store] = {}
    names = found.get(path)
    if names is None:
        names = found[path] = _FileNames(store, ids)
    return names


def _length(store: IndexStore, i: int) -> int:
    return store.chunks[i].end_line - store.chunks[i].start_line


def _name_of(chunk: Chunk) -> str | None:
    """The name ``chunk``'s definition is asked by (:func:`_said_name`); None for a file's
    head, a window of lines, a constructor: a question that names its class names no step."""
    if not chunk.symbol or chunk.symbol[0] == "<" or chunk.kind == "constructor":
        return None
    return _said_name(chunk.symbol, chunk.text)


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
