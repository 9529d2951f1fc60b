"""The files of one stored index entry: names, the manifest, integrity checks, chunk rows.

On disk (one directory per repository state)::

    chunks.json     [[path, start_line, end_line, symbol, kind, text], ...], a file's rows together
    bm25/           term counts BM25 scores from (:mod:`codeagent.store.bm25_index`)
    <dense file>    the dense index's own file, named by its backend (absent for BM25 only;
                    see store/dense.py)
    symbols.json    the repository symbol graph (:mod:`codeagent.symbols.graph`)
    files.json      each file's text digest, chunk range and where its rows and its symbol
                    record lie in chunks.json and symbols.json (:mod:`codeagent.store.fragments`)
    manifest.json   format, counts, embedder, dense backend, a sha256 per file; written last

A directory whose manifest is missing, unreadable or disagrees with the files, or whose BM25
files do not parse (as a format change would cause), raises
:class:`CorruptIndexError`, so the entry is rebuilt. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from codeagent.errors import IndexBuildError
from codeagent.records import Chunk
from codeagent.store.bm25_index import FILES as BM25_FILES

if TYPE_CHECKING:
    from codeagent.symbols.graph import SymbolGraph

FORMAT = 7  # 2: symbols.json; 4: stemmed BM25 terms (3 was a measured, unreleased layout);
# 5: BM25 as term counts scored at query time (was bm25s's precomputed scores); 6: each file's
# rows and symbol record are one stretch whose place files.json gives (an edit copies them);
# 7: BM25 terms read an irregular form as its base word (tokens 2)
MANIFEST = "manifest.json"
CHUNKS = "chunks.json"
BM25_DIR = "bm25"


class CorruptIndexError(IndexBuildError):
    """A stored index is incomplete or damaged (the caller rebuilds it)."""


class Parts(Protocol):
    """The chunks and symbol records a build made, file by file, not yet necessarily decoded
    (:class:`codeagent.store.fragments.Content`)."""

    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> Chunk: ...
    def chunks(self) -> list[Chunk]: ...
    def graph(self) -> SymbolGraph: ...
    def decoded(self) -> tuple[list[Chunk] | None, SymbolGraph | None]:
        """The chunks and the symbol graph if decoded whole by now."""

    def write(self, directory: Path) -> None:
        """Write chunks.json, symbols.json and files.json."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def hashes(paths: list[Path]) -> list[str]:
    """The sha256 of each file, in order: the larger ones hashed side by side in threads
    (hashlib lets go of the GIL while it hashes; the same digests as one by one)."""
    if len(paths) < 2:
        return [sha256_file(p) for p in paths]
    from concurrent.futures import ThreadPoolExecutor

    workers = min(len(paths), os.cpu_count() or 1, 4)
    by_size = sorted(range(len(paths)), key=lambda i: -paths[i].stat().st_size)
    with ThreadPoolExecutor(workers, thread_name_prefix="codeagent-sha256") as pool:
        found = dict(zip(by_size, pool.map(sha256_file, [paths[i] for i in by_size]), strict=True))
    return [found[i] for i in range(len(paths))]


def check_bm25_files(folder: Path) -> None:
    """:class:`CorruptIndexError` unless every BM25 file is there and parses as what it should
    be (JSON objects; ``.npy`` arrays), checked without importing numpy."""
    for name in BM25_FILES:
        path = folder / name
        try:
            if name.endswith(".json"):
                ok = isinstance(json.loads(path.read_bytes()), dict)
            else:
                with path.open("rb") as handle:
                    ok = handle.read(6) == b"\x93NUMPY"
        except (OSError, ValueError) as exc:
            raise CorruptIndexError(f"index at {folder.parent}: unreadable bm25/{name}") from exc
        if not ok:
            raise CorruptIndexError(f"index at {folder.parent}: bm25/{name} is not in the format")


def chunk_rows(chunks: list[Chunk]) -> list[list[object]]:
    """The rows of chunks.json: six fields, and the header as a seventh when there is one."""
    return [
        [c.path, c.start_line, c.end_line, c.symbol, c.kind, c.text, *([c.header] * bool(c.header))]
        for c in chunks
    ]


def to_chunks(rows: list[Any]) -> list[Chunk]:
    """The chunks of chunks.json's rows (:func:`chunk_rows` read back)."""
    return [Chunk(p, s, e, text, symbol, kind, *h) for p, s, e, symbol, kind, text, *h in rows]


def write_chunks(directory: Path, chunks: list[Chunk]) -> None:
    text = json.dumps(chunk_rows(chunks), ensure_ascii=False)
    (directory / CHUNKS).write_text(text, encoding="utf-8")


def write_manifest(directory: Path, fields: dict[str, Any]) -> dict[str, Any]:
    """Write the manifest last: ``fields`` plus the format and a sha256 of every other file."""
    paths = [p for p in sorted(directory.rglob("*")) if p.is_file() and p.name != MANIFEST]
    names = [p.relative_to(directory).as_posix() for p in paths]
    files = dict(zip(names, hashes(paths), strict=True))
    manifest = {"format": FORMAT, **fields, "files": files, "complete": True}
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of a stored index; :class:`CorruptIndexError` if unusable."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CorruptIndexError(f"index at {directory} has no manifest") from exc
    except (OSError, ValueError) as exc:
        raise CorruptIndexError(f"index at {directory}: unreadable manifest: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("complete") is not True:
        raise CorruptIndexError(f"index at {directory} is incomplete")
    if manifest.get("format") != FORMAT:
        raise CorruptIndexError(f"index at {directory} has format {manifest.get('format')}")
    return manifest


def verify_files(directory: Path, manifest: dict[str, Any]) -> None:
    """:class:`CorruptIndexError` unless every file the manifest lists has its sha256."""
    files = manifest.get("files")
    if not isinstance(files, dict) or CHUNKS not in files:
        raise CorruptIndexError(f"index at {directory}: manifest lists no files")
    for name, digest in files.items():
        try:
            actual = sha256_file(directory / name)
        except OSError as exc:
            raise CorruptIndexError(f"index at {directory}: cannot read {name}") from exc
        if actual != digest:
            raise CorruptIndexError(f"index at {directory}: {name} is damaged")


def read_chunks(directory: Path, expected: object) -> list[Chunk]:
    """The chunks of an entry; :class:`CorruptIndexError` unless there are ``expected``."""
    try:
        chunks = to_chunks(json.loads((directory / CHUNKS).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as exc:
        raise CorruptIndexError(f"index at {directory}: unreadable chunks: {exc}") from exc
    if len(chunks) != expected:
        raise CorruptIndexError(f"index at {directory}: chunk count mismatch")
    return chunks
