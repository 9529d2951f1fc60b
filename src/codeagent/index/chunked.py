"""The first half of a build: every file chunked, and the repository symbol graph, from one
parse of each file (files unchanged since an earlier state keep theirs from there:
:mod:`codeagent.index.reuse`). Fast (no embedding): the answer-first index is made of it too."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from codeagent.errors import EmptyRepoError
from codeagent.index.chunking import CHUNKER_VERSION, parse_python
from codeagent.index.per_file import FileResult
from codeagent.index.pool import Item, parse_all
from codeagent.index.reuse import find_previous, text_digest
from codeagent.index.stats import IndexStats
from codeagent.progress import ProgressReporter
from codeagent.records import Chunk
from codeagent.repo.discover import Discovery
from codeagent.store.bm25_build import Earlier
from codeagent.store.fragments import Content, FilePart, Ranges, part_of
from codeagent.symbols.extract import module_names
from codeagent.symbols.graph import SymbolGraph, record_for

log = logging.getLogger(__name__)


@dataclass
class Chunked:
    """The chunks of one repository state, in index order, with their symbol graph: file by
    file, those of unchanged files still the earlier entry's bytes (decoded at first use)."""

    content: Content
    earlier_bm25: Earlier | None = None  # the earlier entry a new BM25 index derives from
    terms: list[list[str] | None] | None = None  # chunks' BM25 terms made by the pool, if any
    stamps: dict[str, str] | None = None  # path -> stamp of each chunked file that has one

    @property
    def chunks(self) -> list[Chunk]:
        return self.content.chunks()

    @property
    def symbols(self) -> SymbolGraph:
        return self.content.graph()

    @property
    def ranges(self) -> Ranges:
        return self.content.ranges


def skips(skipped: Counter[str]) -> str:
    if not skipped:
        return " (nothing found)"
    return " (skipped: " + ", ".join(f"{n} {reason}" for reason, n in skipped.most_common()) + ")"


def chunk_repo(
    discovery: Discovery,
    stats: IndexStats,
    progress: ProgressReporter,
    earlier: list[Path],
    *,
    workers: int = 1,
    min_files: int = 0,
) -> Chunked:
    """Chunk every file of ``discovery`` and build the symbol graph; files unchanged since
    the first of ``earlier`` (entries of the same repository, most recently used first) keep
    their chunks and symbols from there. ``stats`` gets the counts and the ``chunk`` time.

    With ``workers`` > 1 and at least ``min_files`` files to parse, they are parsed in a
    pool of processes (:mod:`codeagent.index.pool`), which also makes their BM25 terms; the
    result is the same as a serial build's."""
    t0 = time.perf_counter()
    previous = find_previous(earlier)
    files = discovery.files
    digests: list[str | None] = [None] * len(files)  # None: unreadable
    results: list[FileResult | FilePart | None] = [None] * len(files)
    with progress.task("chunking", total=len(files)) as advance:

        def to_parse() -> Iterator[Item]:
            """Each file read; those unchanged since ``previous`` taken from there."""
            for number, file in enumerate(files):
                own = previous.unchanged(file.path, file.stamp) if previous is not None else None
                if own is not None:  # the stamp kept then: the same text, not read again
                    digests[number] = own.digest
                    stats.files_reused += 1
                    results[number] = own
                    advance(1)
                    continue
                try:
                    text = file.read_text()
                except OSError as exc:
                    log.info("skipping %s: %s", file.path, exc)  # counted in the stats
                    advance(1)
                    continue
                digest = digests[number] = text_digest(text)
                own = previous.part(file.path, digest) if previous is not None else None
                if own is not None:  # the same text: its rows and record as they were
                    stats.files_reused += 1
                    results[number] = own
                    advance(1)
                else:  # new or changed: parse, chunk, extract its symbols
                    yield number, file.path, text

        used: list[int] = []
        for number, parsed in parse_all(to_parse(), discovery.root, workers, min_files, used):
            results[number] = parsed
            advance(1)
        stats.workers = used[0] if used else 1
    parts: list[FilePart] = []
    terms: list[list[str] | None] = []
    for file, digest, result in zip(files, digests, results, strict=True):
        if digest is None or result is None:  # unreadable
            continue
        if isinstance(result, FilePart):
            parts.append(result)
            terms.extend([None] * result.count)
            continue
        parts.append(part_of(file.path, digest, result.chunks, result.record))
        terms.extend(result.terms or [None] * len(result.chunks))
        if result.error is not None:
            stats.parse_errors[result.error] = stats.parse_errors.get(result.error, 0) + 1
    unreadable = digests.count(None)
    _check_modules(parts, discovery)
    content = Content(parts, chunker=CHUNKER_VERSION)
    if unreadable:
        stats.files_indexed -= unreadable
        stats.files_skipped["unreadable"] = stats.files_skipped.get("unreadable", 0) + unreadable
    if not len(content):
        raise EmptyRepoError(
            f"no indexable files in {discovery.root}{skips(Counter(stats.files_skipped))}; "
            f"{stats.files_indexed} files had no content to index"
        )
    stats.chunks = len(content)
    stats.seconds["chunk"] = time.perf_counter() - t0
    earlier_bm25 = previous.bm25 if previous is not None else None
    made = terms if any(t is not None for t in terms) else None
    stamps = {
        file.path: file.stamp
        for file, digest in zip(files, digests, strict=True)
        if digest is not None and file.stamp is not None
    }
    return Chunked(content, earlier_bm25, made, stamps)


def _check_modules(parts: list[FilePart], discovery: Discovery) -> None:
    """The symbol records of Python files whose module name is no longer what it was when
    they were extracted (a package appeared or went) are extracted again."""
    python = sorted(p.path for p in parts if p.module is not None)
    modules = module_names(python, discovery.root)
    by_path = {f.path: f for f in discovery.files}
    for part in parts:
        if part.module is None or part.module == modules[part.path]:
            continue
        try:
            tree = parse_python(part.path, by_path[part.path].read_text())
        except OSError:  # gone since it was read: no symbols, as for a file that fails to parse
            tree = None
        module = modules[part.path] if tree is not None else None
        part.record = record_for(tree, part.path, module) if module is not None else None
        part.module = module
