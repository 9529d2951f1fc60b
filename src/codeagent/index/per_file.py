"""One file's share of a build: parsed once, cut into chunks, its symbols extracted and,
in a worker of the pool (:mod:`codeagent.index.pool`), its chunks' BM25 terms made.

A path, a text and the repository root in; plain records out (picklable, so a worker process
does it as the builder would): the result depends on nothing else, which is what makes a
build in a pool equal to a serial one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeagent import lang
from codeagent.index.chunking import chunk_file, parse_python, window_chunks
from codeagent.pysyntax import scan
from codeagent.records import Chunk
from codeagent.store.fusion import bm25_tokens
from codeagent.symbols.graph import extract_record
from codeagent.symbols.types import pack_calls

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileResult:
    """What one file gives the index."""

    chunks: list[Chunk]
    record: dict[str, Any] | None  # its symbol-graph record; None: no symbols
    error: str | None = None  # the language of a file that did not parse (counted), else None
    terms: list[list[str]] | None = None  # each chunk's BM25 terms, when asked for


def parse_one(path: str, text: str, root: Path, *, terms: bool = False) -> FileResult:
    """Chunks and symbols of one file (and its chunks' BM25 terms with ``terms``). An
    exception on the way is that file's parse error: it is cut into line windows."""
    try:
        result = _parse(path, text, root)
    except Exception as exc:  # a bug on one file must not stop the build
        log.warning("cannot parse %s (%s: %s): line windows", path, type(exc).__name__, exc)
        result = crashed(path, text)
    if not terms:
        return result
    made = [bm25_tokens(chunk) for chunk in result.chunks]
    return FileResult(result.chunks, result.record, result.error, made)


def crashed(path: str, text: str) -> FileResult:
    """A file whose parse failed outright (an exception, a worker process that died on it,
    or Python that ``ast`` refuses): line windows, no symbols, counted as a parse error of its
    language."""
    return FileResult(window_chunks(path, text), None, lang.language_name(path))


def _parse(path: str, text: str, root: Path) -> FileResult:
    tree = parse_python(path, text)
    if tree is None and path.endswith(lang.suffixes_read_by(lang.PYTHON_AST)):  # no parse
        return crashed(path, text)
    found = scan(tree) if tree is not None else None  # one walk for both
    parsed = None if tree is not None else lang.parse_file(path, text)
    chunks = chunk_file(path, text, tree, found, parsed)
    if tree is not None:
        return FileResult(chunks, extract_record(tree, path, root, found))
    if parsed is not None:  # symbols even from a tree with errors
        record = parsed.record(path)
        record["c"] = pack_calls(record["c"])  # as the symbol graph keeps them
        return FileResult(chunks, record, parsed.language if parsed.errors else None)
    return FileResult(chunks, None)
