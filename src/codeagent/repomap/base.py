"""What every map of one index state shares, computed once per state and kept beside it.

A :class:`MapBase` holds the files of the symbol graph with their kind (code, tests, docs,
vendored, ...), the reference graph between them (:mod:`codeagent.repomap.refgraph`), the
files' PageRank without a focus, and every definition's line as the map prints it, with its
token count. It is built from the index (symbol graph and chunks) the first time a map of
that state is asked for, written as ``repomap.json`` into the state's cache entry (pruned
with it; the entry's seal does not cover it, and a damaged or foreign file is rebuilt), and
kept in memory per state hash: a map of an unchanged repository reads it back, an edit
(a new state) gets its own.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.rank.file_roles import ASSET_SUFFIXES, path_kind, roles
from codeagent.repomap.refgraph import Edges, pagerank, reference_edges
from codeagent.repomap.tokens import TokenCounter, counter

if TYPE_CHECKING:
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

log = logging.getLogger(__name__)

FILE = "repomap.json"
FORMAT = 3
MAX_SIGNATURE = 160  # characters of one definition's line
MEMO_STATES = 8  # states kept in memory by a long-running process
INDENT = "  "
DEFAULT_KINDS = frozenset({"code"})  # what a map shows unless its focus lets more in
_SPACES = re.compile(r"\s+")
_ROLE_CONFIG = frozenset(("pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini"))
_ROLE_ASSETS = frozenset(s.lstrip(".") for s in ASSET_SUFFIXES)


@dataclass
class Def:
    """One definition as the map prints it: ``text`` is its line (indented by its depth)."""

    qualname: str
    kind: str
    line: int
    end_line: int
    depth: int  # nesting inside the definitions of its own file
    parent: int  # index of the enclosing definition in the file's list, -1 at top level
    text: str
    tokens: int
    name: str = field(init=False, compare=False)  # the last part of ``qualname``

    def __post_init__(self) -> None:
        self.name = self.qualname.rpartition(".")[2]


@dataclass
class MapBase:
    paths: list[str]
    kinds: list[str]  # path_kind(), or "vendored"
    edges: Edges
    rank: list[float]  # PageRank without a focus
    defs: list[list[Def]]  # per file, in source order
    header_tokens: list[int]
    tokenizer: str
    # tables made at first use and kept with the base in memory (codeagent.repomap.select)
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "tokenizer": self.tokenizer,
            "paths": self.paths,
            "kinds": self.kinds,
            "edges": self.edges.to_json(),
            "rank": self.rank,
            "header_tokens": self.header_tokens,
            "defs": [
                [
                    [d.qualname, d.kind, d.line, d.end_line, d.depth, d.parent, d.text, d.tokens]
                    for d in defs
                ]
                for defs in self.defs
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MapBase:
        return cls(
            paths=data["paths"],
            kinds=data["kinds"],
            edges=Edges(**data["edges"]),
            rank=data["rank"],
            defs=[[Def(*row) for row in defs] for defs in data["defs"]],
            header_tokens=data["header_tokens"],
            tokenizer=data["tokenizer"],
        )


def rows_named(base: MapBase) -> dict[str, list[int]]:
    """Definition name -> its rows: definitions numbered through the files in order, each
    file's in order, a file without any counting as one row (made once per base)."""
    found: dict[str, list[int]] | None = base.memo.get("named")
    if found is None:
        found = {}
        row = 0
        for defs in base.defs:
            row += not defs
            for d in defs:
                found.setdefault(d.name, []).append(row)
                row += 1
        base.memo["named"] = found
    return found


def _file_defs(rows: list[list[Any]]) -> list[tuple[str, str, int, int, int, int, str]]:
    """A file's definitions with their depth and parent, and their line's text."""
    out: list[tuple[str, str, int, int, int, int, str]] = []
    open_: dict[str, list[int]] = {}  # qualname -> indices of definitions so named
    for q, kind, line, _start, end, sig, *_ in rows:
        parent, depth = -1, 0
        for k in reversed(open_.get(q.rpartition(".")[0], []) if "." in q else []):
            if out[k][2] <= line <= out[k][3]:
                parent, depth = k, out[k][4] + 1
                break
        text = _SPACES.sub(" ", sig or q).strip()
        if len(text) > MAX_SIGNATURE:
            text = text[: MAX_SIGNATURE - 1] + "…"
        open_.setdefault(q, []).append(len(out))
        out.append((q, kind, line, end, depth, parent, INDENT * (depth + 1) + text))
    return out


def _role_chunks(chunks: list[Chunk]) -> list[Chunk]:
    """What :func:`~codeagent.rank.file_roles.roles` reads of the chunks: each file's head,
    the test-path configuration files, and every chunk of a script or style asset (their
    longest line); the rest of a large index's chunks need not be looked at."""
    out: list[Chunk] = []
    seen: set[str] = set()
    for chunk in chunks:
        path = chunk.path
        if (
            path not in seen
            or chunk.start_line == 1
            or path in _ROLE_CONFIG
            or path.rpartition(".")[2].lower() in _ROLE_ASSETS
        ):
            out.append(chunk)
        seen.add(path)
    return out


def compute(store: IndexStore, tokens: TokenCounter | None = None) -> MapBase:
    """The base of the maps of ``store``'s state (reads its symbol graph and chunks)."""
    import numpy as np

    tokens = tokens or counter()
    graph = store.symbols
    paths = sorted(graph.files)
    found = roles(paths, _role_chunks(store.chunks))
    kinds = ["vendored" if found.vendored[i] else path_kind(p) for i, p in enumerate(paths)]
    edges = reference_edges(graph)
    code = np.asarray([kind in DEFAULT_KINDS for kind in kinds], dtype=bool)
    rank = pagerank(len(paths), edges, active=code)  # what a map without a focus shows
    rows = [_file_defs(graph.files[p]["d"]) for p in paths]
    flat = [r[6] for defs in rows for r in defs]
    distinct = sorted(set(flat))  # ``def __init__(self)`` and its like, counted once
    counted = dict(zip(distinct, tokens.counts(distinct), strict=True))
    counts = iter([counted[text] for text in flat])
    defs = [[Def(*r, tokens=next(counts)) for r in file_rows] for file_rows in rows]
    return MapBase(
        paths=paths,
        kinds=kinds,
        edges=edges,
        rank=[float(x) for x in np.round(rank, 12)],
        defs=defs,
        header_tokens=tokens.counts(paths),
        tokenizer=tokens.name,
    )


_memo: OrderedDict[str, MapBase] = OrderedDict()
_by_store: weakref.WeakKeyDictionary[Any, MapBase] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _read(entry: Path, name: str) -> MapBase | None:
    try:
        data = json.loads((entry / FILE).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("tokenizer") != name:
            return None
        return MapBase.from_json(data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError) as exc:  # damaged: made again
        log.info("%s: unreadable map base (%s); computed again", entry / FILE, exc)
        return None


def _write(entry: Path, base: MapBase) -> None:
    partial = entry / f".{FILE}.{os.getpid()}.{threading.get_ident()}.partial"
    try:
        with partial.open("w", encoding="utf-8") as out:  # the umask's mode, as the entry's
            json.dump(base.to_json(), out, ensure_ascii=False, separators=(",", ":"))
        os.replace(partial, entry / FILE)
    except OSError as exc:  # a read-only cache: every fresh process computes it
        log.info("could not keep the map base in %s: %s", entry, exc)
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def map_base(store: IndexStore, *, state: str | None = None, entry: Path | None = None) -> MapBase:
    """The base of ``store``'s maps: from memory (per ``state``, or per store when the state
    is not known), else from ``entry``'s ``repomap.json``, else computed (and kept there)."""
    with _lock:
        if state is not None and state in _memo:
            _memo.move_to_end(state)
            return _memo[state]
        if state is None and store in _by_store:
            return _by_store[store]
    tokens = counter()
    base = _read(entry, tokens.name) if entry is not None else None
    if base is None:
        base = compute(store, tokens)
        if entry is not None and entry.is_dir():
            _write(entry, base)
    with _lock:
        if state is None:
            _by_store[store] = base
        else:
            _memo[state] = base
            while len(_memo) > MEMO_STATES:
                _memo.popitem(last=False)
    return base


def forget() -> None:
    """Drop what this process remembers (tests: as a fresh process would start)."""
    with _lock:
        _memo.clear()
        _by_store.clear()
