"""Reuse an earlier state's chunks and symbols for the files whose content is unchanged.

Each index entry also saves ``files.json``: for every file it chunked, a digest of its text and
the range of its chunks in ``chunks.json``, with the chunker and symbol-graph versions. A build
opens the most recently used earlier entry of the same repository (any embedder: chunks do
not depend on it) and, for a file whose digest is the same, takes its chunks and its symbol
record from there instead of parsing it again; only changed files are parsed. Chunking and
symbol extraction depend only on a file's path, its text and (for symbols) its module name,
so the result is the same as a build from scratch. The same entry lends its BM25 index, from
which the new one is derived (:mod:`codeagent.store.bm25_build`, which checks its files).

The earlier entry is trusted only when its manifest is complete and of this format, the
sha256 of ``files.json``, ``chunks.json`` and ``symbols.json`` match the manifest (or its
seal vouches for them, :mod:`codeagent.store.seal`), both
versions match, and every range lies inside the chunks of its own path. Anything else
(missing, damaged, older) is logged and the build parses every file.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from codeagent.index.chunking import CHUNKER_VERSION
from codeagent.records import Chunk
from codeagent.store.bm25_build import Earlier
from codeagent.store.entry_files import (
    CHUNKS,
    CorruptIndexError,
    read_chunks,
    read_manifest,
    sha256_file,
)
from codeagent.store.seal import unsealed
from codeagent.symbols.graph import FORMAT as SYMBOLS_FORMAT
from codeagent.symbols.graph import SYMBOLS, SymbolGraph

log = logging.getLogger(__name__)

FILES = "files.json"


def text_digest(text: str) -> str:
    """The digest a file's text is recognised by."""
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def save_files(directory: Path, ranges: dict[str, tuple[str, int, int]]) -> None:
    """Write ``files.json``: ``{path: (digest, first chunk, chunk count)}`` of one build."""
    data = {"chunker": CHUNKER_VERSION, "symbols": SYMBOLS_FORMAT, "files": ranges}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    (directory / FILES).write_text(text, encoding="utf-8")


class Previous:
    """What an earlier entry lends, by path and digest: chunks and symbol records."""

    def __init__(
        self,
        digests: dict[str, str],
        chunks: dict[str, list[Chunk]],
        records: dict[str, dict[str, Any]],
        bm25: Earlier | None = None,
    ) -> None:
        self._digests = digests
        self._chunks = chunks
        self._records = records
        self.bm25 = bm25  # the entry, for its BM25 index (checked when it is read)

    def chunks(self, path: str, digest: str) -> list[Chunk] | None:
        """The file's chunks if it had exactly this text then, else None."""
        if self._digests.get(path) != digest:
            return None
        return self._chunks[path]

    def record(self, path: str) -> dict[str, Any] | None:
        """The file's symbol record (with call sites), None if it did not parse then."""
        return self._records.get(path)

    @classmethod
    def load(cls, entry: Path) -> Previous:
        """The reusable part of ``entry``; ValueError/OSError when it cannot be trusted."""
        manifest = read_manifest(entry)
        listed = manifest.get("files") or {}
        sealed = unsealed(entry, manifest) is None  # its seal vouches: nothing to hash
        for name in (FILES, CHUNKS, SYMBOLS):
            if name not in listed or not (sealed or sha256_file(entry / name) == listed[name]):
                raise ValueError(f"{name} is missing or does not match the manifest")
        data = json.loads((entry / FILES).read_text(encoding="utf-8"))
        if data.get("chunker") != CHUNKER_VERSION or data.get("symbols") != SYMBOLS_FORMAT:
            raise ValueError("built by another chunker or symbol-graph version")
        stored = read_chunks(entry, manifest.get("chunks"))
        digests: dict[str, str] = {}
        chunks: dict[str, list[Chunk]] = {}
        ranges: dict[str, tuple[str, int, int]] = {}
        for path, (digest, first, count) in data["files"].items():
            own = stored[first : first + count]
            if first < 0 or len(own) != count or any(c.path != path for c in own):
                raise ValueError(f"the chunk range of {path} is wrong")
            digests[path] = str(digest)
            chunks[path] = own
            ranges[path] = (str(digest), first, count)
        records = SymbolGraph.load(entry).records()
        return cls(digests, chunks, records, Earlier(entry, manifest, sealed, ranges))


def find_previous(entries: list[Path]) -> Previous | None:
    """The reusable part of the first entry (most recently used first) that can be trusted."""
    for entry in entries[:1]:
        try:
            return Previous.load(entry)
        except (CorruptIndexError, OSError, ValueError, TypeError, KeyError, IndexError) as exc:
            log.info("not reusing chunks of %s: %s", entry, exc)
    return None
