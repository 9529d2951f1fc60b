"""The first half of a build: every file chunked, and the repository symbol graph, from one
parse of each file (files unchanged since an earlier state keep theirs from there:
:mod:`codeagent.index.reuse`). Fast (no embedding): the answer-first index is made of it too."""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeagent import lang
from codeagent.errors import EmptyRepoError
from codeagent.index.chunking import chunk_file, parse_python
from codeagent.index.reuse import find_previous, text_digest
from codeagent.index.stats import IndexStats
from codeagent.progress import ProgressReporter
from codeagent.pysyntax import scan
from codeagent.records import Chunk
from codeagent.repo.discover import Discovery
from codeagent.store.bm25_build import Earlier
from codeagent.symbols.extract import module_names
from codeagent.symbols.graph import SymbolGraph, extract_record

log = logging.getLogger(__name__)


@dataclass
class Chunked:
    """The chunks of one repository state, in index order, with their symbol graph."""

    chunks: list[Chunk]
    ranges: dict[str, tuple[str, int, int]]  # path -> (digest, first chunk, count)
    symbols: SymbolGraph
    earlier_bm25: Earlier | None = None  # the earlier entry a new BM25 index derives from


def skips(skipped: Counter[str]) -> str:
    if not skipped:
        return " (nothing found)"
    return " (skipped: " + ", ".join(f"{n} {reason}" for reason, n in skipped.most_common()) + ")"


def chunk_repo(
    discovery: Discovery, stats: IndexStats, progress: ProgressReporter, earlier: list[Path]
) -> Chunked:
    """Chunk every file of ``discovery`` and build the symbol graph; files unchanged since
    the first of ``earlier`` (entries of the same repository, most recently used first) keep
    their chunks and symbols from there. ``stats`` gets the counts and the ``chunk`` time."""
    t0 = time.perf_counter()
    previous = find_previous(earlier)
    chunks: list[Chunk] = []
    ranges: dict[str, tuple[str, int, int]] = {}
    records: dict[str, dict[str, Any]] = {}  # path -> symbol record (parsed now or reused)
    unreadable = 0
    with progress.task("chunking", total=len(discovery.files)) as advance:
        for file in discovery.files:
            try:
                text = file.read_text()
            except OSError as exc:
                log.info("skipping %s: %s", file.path, exc)  # counted in the stats
                unreadable += 1
            else:
                digest = text_digest(text)
                own = previous.chunks(file.path, digest) if previous is not None else None
                if own is not None and previous is not None:  # the same text: as before
                    stats.files_reused += 1
                    record = previous.record(file.path)
                    if record is not None:
                        records[file.path] = record
                else:  # new or changed: parse, chunk, extract its symbols
                    tree = parse_python(file.path, text)
                    found = scan(tree) if tree is not None else None  # one walk for both
                    parsed = None if tree is not None else lang.parse_file(file.path, text)
                    own = chunk_file(file.path, text, tree, found, parsed)
                    if tree is not None:  # one tree at a time in memory
                        records[file.path] = extract_record(tree, file.path, discovery.root, found)
                    elif parsed is not None:  # symbols even from a tree with errors
                        records[file.path] = parsed.record(file.path)
                        if parsed.errors:
                            errors = stats.parse_errors
                            errors[parsed.language] = errors.get(parsed.language, 0) + 1
                    del tree, found
                ranges[file.path] = (digest, len(chunks), len(own))
                chunks.extend(own)
            advance(1)
    # The symbol graph (definitions, imports, bases, call sites) from the same parse; a
    # reused record whose module name changed (a package appeared) is extracted again.
    trees: dict[str, Any] = {}
    python = sorted(p for p, rec in records.items() if "l" not in rec)
    modules = module_names(python, discovery.root)
    by_path = {f.path: f for f in discovery.files}
    for path in [p for p in python if records[p].get("m") != modules[p]]:
        del records[path]
        try:
            tree = parse_python(path, by_path[path].read_text())
        except OSError:  # gone since it was read: no symbols, as for a file that fails to parse
            tree = None
        if tree is not None:
            trees[path] = tree
    symbols = SymbolGraph.build(trees, root=discovery.root, reused=records)
    del trees, records
    if unreadable:
        stats.files_indexed -= unreadable
        stats.files_skipped["unreadable"] = stats.files_skipped.get("unreadable", 0) + unreadable
    if not chunks:
        raise EmptyRepoError(
            f"no indexable files in {discovery.root}{skips(Counter(stats.files_skipped))}; "
            f"{stats.files_indexed} files had no content to index"
        )
    stats.chunks = len(chunks)
    stats.seconds["chunk"] = time.perf_counter() - t0
    return Chunked(chunks, ranges, symbols, previous.bm25 if previous is not None else None)
