"""How much memory an open index holds, estimated from what it has loaded.

An index opened from the cache loads its parts at first use (:mod:`codeagent.store.store`),
so the estimate counts only the parts loaded so far:

- BM25: the ``nbytes`` of its postings arrays, its per-term score cache, and the term strings;
- the dense index: rows x dimension x 4 bytes (float32; 0 when the rows live in a database);
- chunks: each chunk object and its strings (``sys.getsizeof``);
- the symbol graph: a walk of its dicts, lists and strings (``sys.getsizeof`` of each).

It leaves out what Python and the allocator add around these (fragmentation, freed memory not
returned to the system) and the ranker's per-index tables; ``bench/bench_many_repos.py``
compares the sum with the server's RSS.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes in ``2G``, ``500M``, ``1.5g``, ``800MB``, ``1024`` (powers of 1024); ValueError
    otherwise."""
    match = _SIZE.match(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (e.g. 2G, 500M)")
    size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if size <= 0:
        raise ValueError(f"not a size: {text!r} (e.g. 2G, 500M)")
    return size


def format_size(size: int) -> str:
    for unit in ("G", "M", "K"):
        if size >= _UNITS[unit.lower()]:
            return f"{size / _UNITS[unit.lower()]:.1f}{unit}"
    return f"{size}B"


def deep_size(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes of ``obj`` and what it holds: dicts, lists, tuples, sets, strings, numbers."""
    seen = seen if seen is not None else set()
    stack = [obj]
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return total


def _array_bytes(*arrays: Any) -> int:
    return sum(int(getattr(a, "nbytes", 0)) for a in arrays if a is not None)


def bm25_bytes(bm25: Any) -> int:
    total = _array_bytes(bm25.starts, bm25.docs, bm25.freqs, bm25.lengths, bm25._norm)
    total += sum(sys.getsizeof(t) + 8 for t in bm25.terms)
    if bm25._vocab is not None:
        total += sys.getsizeof(bm25._vocab)
    for docs, scores in list(bm25._parts.values()):
        total += _array_bytes(docs, scores) + 100
    return total


def dense_bytes(dense: Any) -> int:
    if getattr(type(dense), "external", False):
        return 0  # the rows live in the database, not in this process
    dim = int(getattr(dense, "dim", 0) or 0)
    return len(dense) * dim * 4


def chunks_bytes(chunks: list[Any]) -> int:
    total = sys.getsizeof(chunks)
    for chunk in chunks:
        values = (getattr(chunk, name, None) for name in type(chunk).__slots__)
        total += sys.getsizeof(chunk) + sum(sys.getsizeof(v) for v in values if isinstance(v, str))
    return total


def store_parts(store: Any) -> tuple[int, ...]:
    """Which parts of ``store`` are loaded, and how many terms' scores BM25 keeps, in steps of
    64 (the estimate is made again only when this changes)."""
    names = ("_chunks", "_bm25", "_dense", "_symbols")
    loaded = [int(getattr(store, name, None) is not None) for name in names]
    bm25 = getattr(store, "_bm25", None)
    return (*loaded, len(bm25._parts) // 64 if bm25 is not None else 0)


def store_bytes(store: Any) -> int:
    """The estimated bytes of the loaded parts of one :class:`IndexStore`."""
    total = 0
    if getattr(store, "_bm25", None) is not None:
        total += bm25_bytes(store._bm25)
    if getattr(store, "_dense", None) is not None:
        total += dense_bytes(store._dense)
    if getattr(store, "_chunks", None) is not None:
        total += chunks_bytes(store._chunks)
    symbols = getattr(store, "_symbols", None)
    if symbols is not None:
        built = getattr(symbols, "__dict__", {})  # the tables built so far (at first use)
        total += deep_size((symbols.files, built.get("calls"), built.get("paths")))
    return total
