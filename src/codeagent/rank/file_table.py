"""Per-index lookup tables for ranking files: which chunks each file holds, its kind, which
file defines which name, dotted module names, import neighbours and the per-file columns of the
learned ranker; built once per store, at its first question."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codeagent.collector import gc_paused
from codeagent.lang import PYTHON_AST, suffixes_read_by
from codeagent.rank import evidence, file_roles, named_files
from codeagent.rank.evidence import Definers
from codeagent.rank.file_roles import KINDS, path_kind

if TYPE_CHECKING:
    import numpy as np

    from codeagent.store.store import IndexStore


def module_names(path: str) -> list[str]:
    """Dotted module names of a Python file, longest first (``src.flask.app``, ``flask.app``, …)."""
    pure = PurePosixPath(path)
    if pure.suffix not in suffixes_read_by(PYTHON_AST):
        return []
    parts = list(pure.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return [".".join(parts[i:]) for i in range(len(parts)) if parts[i:]]


@dataclass
class FileTable:
    """Per-index lookup tables, built once per store (lazily, at the first question)."""

    paths: list[str]
    ids: dict[str, int]  # path -> file id
    chunk_file: np.ndarray  # file id of each chunk
    file_chunks: list[list[int]]  # chunk ids of each file
    kind_ids: np.ndarray  # index into KINDS of each file
    symbol_chunks: dict[str, list[int]]  # each part of a chunk's symbol -> chunk ids
    defines: Definers  # who defines which name
    modules: dict[str, int]  # dotted module (and every suffix of it) -> file id; -1 if ambiguous
    neighbours: dict[int, set[int]]  # file id -> the files it imports or is imported by
    # per file, for the learned ranker's columns (codeagent.rank.features)
    vendored: np.ndarray
    test_tree: np.ndarray
    script: np.ndarray
    init: np.ndarray
    file_chunk_count: np.ndarray
    file_lines: np.ndarray
    depth: np.ndarray
    importers: np.ndarray
    names: dict[str, list[int]]  # file name -> the ids of the files so named (resolve_path)
    named: dict[str, list[int]]  # stem or folder name -> the few files it names (named_files)
    starts: np.ndarray | None  # first chunk of each file when each file's chunks are adjacent


_TABLES: weakref.WeakKeyDictionary[IndexStore, FileTable] = weakref.WeakKeyDictionary()


def file_table(store: IndexStore) -> FileTable:
    table = _TABLES.get(store)
    if table is None:
        with gc_paused():  # a full collection in its middle: 0.3 s at 50,000 chunks
            table = _build_table(store)
        _TABLES[store] = table
    return table


def _build_table(store: IndexStore) -> FileTable:
    import numpy as np

    ids: dict[str, int] = {}
    chunk_file = np.empty(len(store.chunks), dtype=np.int64)
    file_chunks: list[list[int]] = []
    symbol_chunks: dict[str, list[int]] = {}
    for i, chunk in enumerate(store.chunks):
        fid = ids.setdefault(chunk.path, len(ids))
        if fid == len(file_chunks):
            file_chunks.append([])
        file_chunks[fid].append(i)
        chunk_file[i] = fid
        names = set(chunk.symbol.split(".")) if chunk.symbol and chunk.symbol[0] != "<" else set()
        for name in names:
            symbol_chunks.setdefault(name, []).append(i)
    paths = list(ids)
    modules: dict[str, int] = {}
    for fid, path in enumerate(paths):
        for dotted in module_names(path):
            modules[dotted] = -1 if modules.get(dotted, fid) != fid else fid
    graph = getattr(store, "symbols", None)
    neighbours = evidence.import_neighbours(graph, ids)
    found = file_roles.roles(paths, store.chunks)
    lines = np.zeros(len(paths), dtype=np.float32)
    np.maximum.at(lines, chunk_file, np.array([c.end_line for c in store.chunks], np.float32))

    def floats(values: list[float]) -> np.ndarray:
        return np.asarray(values, dtype=np.float32)

    return FileTable(
        paths=paths,
        ids=ids,
        chunk_file=chunk_file,
        file_chunks=file_chunks,
        kind_ids=np.array([KINDS.index(path_kind(p)) for p in paths], dtype=np.int64),
        symbol_chunks=symbol_chunks,
        defines=evidence.definers(store.chunks, ids, graph),
        modules=modules,
        neighbours=neighbours,
        vendored=floats(found.vendored),
        test_tree=floats(found.test_tree),
        script=floats(found.script),
        init=floats(found.init),
        file_chunk_count=floats([len(c) for c in file_chunks]),
        file_lines=lines,
        depth=floats([p.count("/") for p in paths]),
        importers=floats([len(neighbours.get(f, ())) for f in range(len(paths))]),
        names=evidence.by_name(paths),
        named=named_files.name_keys(paths),
        starts=_starts(chunk_file),
    )


def _starts(chunk_file: np.ndarray) -> np.ndarray | None:
    """The first chunk of each file if the chunks come file by file (as an index stores
    them), so per-file reductions are one ``reduceat``; None otherwise."""
    import numpy as np

    steps = np.diff(chunk_file)
    if not len(chunk_file) or chunk_file[0] != 0 or ((steps != 0) & (steps != 1)).any():
        return None
    return np.flatnonzero(np.r_[True, chunk_file[1:] != chunk_file[:-1]])


def best_chunks(table: FileTable, chunk_scores: np.ndarray, fid: int) -> list[int]:
    """Chunk ids of file ``fid``, best first."""
    return sorted(table.file_chunks[fid], key=lambda i: -float(chunk_scores[i]))
