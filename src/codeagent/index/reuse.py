"""Reuse an earlier state's chunks and symbols for the files whose content is unchanged.

Each index entry also saves ``files.json``: for every file it chunked, a digest of its text,
the range of its chunks and where its rows and its symbol record lie in ``chunks.json`` and
``symbols.json`` (:mod:`codeagent.store.fragments`), with the chunker and symbol-graph
versions. A build opens the most recently used earlier entry of the same repository (any
embedder: chunks do not depend on it) and, for a file whose digest is the same, takes its
rows and its symbol record from there as bytes, copied into the new entry without being
decoded; only changed files are parsed. Chunking and symbol extraction depend only on a
file's path, its text and (for symbols) its module name, so the result is the same as a build
from scratch, byte for byte. The same entry lends its BM25 index, from which the new one is
derived (:mod:`codeagent.store.bm25_build`, which checks its files).

The earlier entry is trusted only when its manifest is complete and of this format, the
sha256 of ``files.json``, ``chunks.json`` and ``symbols.json`` match the manifest (hashed
even when the entry's seal vouches for them: their bytes go into the new entry, whose
manifest would vouch for any damage they carried), both versions match, and the layout is
sound (:func:`codeagent.store.fragments.borrow`). Anything else (missing, damaged, older) is
logged and the build parses every file.

The entry also keeps each chunked file's stamp (``stamps.json``, :mod:`codeagent.repo.stamps`,
hashed in its manifest like the rest). A file whose stamp now is the one kept there is taken
over without being read or hashed: its text is the one the digest was made of. Any other file
(no stamp: new, changed, changed too recently to trust its stamp, a symlink) is read and
recognised by its digest as before. A process reads and hashes ``stamps.json`` once
(discovery's hint and the build share it) while its own stamp stays the one it was read with.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from codeagent.index.chunking import CHUNKER_VERSION
from codeagent.repo.discover import SNIFF_RULES
from codeagent.repo.stamps import now_ns, stamp
from codeagent.store.bm25_build import Earlier
from codeagent.store.entry_files import CHUNKS, CorruptIndexError, read_manifest
from codeagent.store.fragments import FILES, FilePart, borrow
from codeagent.store.seal import unsealed
from codeagent.symbols.graph import SYMBOLS

log = logging.getLogger(__name__)

STAMPS = "stamps.json"


def text_digest(text: str) -> str:
    """The digest a file's text is recognised by."""
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


class Previous:
    """What an earlier entry lends, by path and digest: each file's rows and symbol record."""

    def __init__(
        self,
        parts: list[FilePart],
        bm25: Earlier | None = None,
        stamps: dict[str, str] | None = None,
    ) -> None:
        self._parts = {part.path: part for part in parts}
        self.bm25 = bm25  # the entry, for its BM25 index (checked when it is read)
        self._stamps = stamps or {}

    def part(self, path: str, digest: str) -> FilePart | None:
        """The file's part if it had exactly this text then, else None."""
        part = self._parts.get(path)
        return part if part is not None and part.digest == digest else None

    def unchanged(self, path: str, stamp: str | None) -> FilePart | None:
        """The file's part if its stamp is the one kept then (unread: the same text), else
        None."""
        if stamp is None or self._stamps.get(path) != stamp:
            return None
        return self._parts.get(path)

    @classmethod
    def load(cls, entry: Path) -> Previous:
        """The reusable part of ``entry``; ValueError/OSError when it cannot be trusted."""
        manifest = read_manifest(entry)
        listed = manifest.get("files") or {}
        data = _all_checked(entry, (FILES, CHUNKS, SYMBOLS), listed)
        layout = json.loads(data[FILES])
        parts = borrow(
            layout, data[CHUNKS], data[SYMBOLS], manifest.get("chunks"), chunker=CHUNKER_VERSION
        )
        ranges = {p.path: (p.digest, first, p.count) for p, first in _firsts(parts)}
        sealed = unsealed(entry, manifest) is None  # its BM25 files need no hashing
        return cls(parts, Earlier(entry, manifest, sealed, ranges), _kept(entry, listed))


def _all_checked(entry: Path, names: tuple[str, ...], listed: dict[str, str]) -> dict[str, bytes]:
    """:func:`_checked` of each name, hashed side by side in threads (hashlib lets go of the
    GIL while it hashes)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(names), thread_name_prefix="codeagent-sha256") as pool:
        found = pool.map(lambda name: _checked(entry, name, listed), names)
        return dict(zip(names, found, strict=True))


def _checked(entry: Path, name: str, listed: dict[str, str]) -> bytes:
    """The bytes of the entry's file ``name``; ValueError unless the manifest vouches."""
    data = (entry / name).read_bytes() if name in listed else b""
    if hashlib.sha256(data).hexdigest() != listed.get(name):
        raise ValueError(f"{name} is missing or does not match the manifest")
    return data


_KEPT: dict[tuple[str, str, str], dict[str, str]] = {}  # the last one read


def _kept(entry: Path, listed: dict[str, str]) -> dict[str, str]:
    """The entry's ``stamps.json`` (none when it has none), read and hashed once per process:
    taken again while the file's own stamp (:mod:`codeagent.repo.stamps`, racy rule included)
    and its listed sha256 are the ones it was checked with (a write changes its change time)."""
    if STAMPS not in listed:
        return {}
    since = now_ns()
    try:
        own = stamp((entry / STAMPS).stat(), since)
    except OSError as exc:
        raise ValueError(f"{STAMPS} is missing") from exc
    key = (str(entry), listed[STAMPS], own or "")
    if own is not None and key in _KEPT:
        return _KEPT[key]
    stamps = _stamps(_checked(entry, STAMPS, listed))
    if own is not None:
        _KEPT.clear()
        _KEPT[key] = stamps
    return stamps


def _stamps(data: bytes) -> dict[str, str]:
    """stamps.json's stamps; none when discovery's rules changed since (ValueError: damaged)."""
    loaded = json.loads(data)
    stamps = loaded["stamps"]
    if not isinstance(stamps, dict) or not all(isinstance(v, str) for v in stamps.values()):
        raise ValueError(f"{STAMPS} is not of this format")
    return stamps if loaded.get("rules") == SNIFF_RULES else {}


def write_stamps(directory: Path, stamps: dict[str, str]) -> None:
    """Write ``stamps.json`` (path -> stamp of each file chunked with a stamp to trust)."""
    data = {"rules": SNIFF_RULES, "stamps": stamps}
    (directory / STAMPS).write_bytes(json.dumps(data, separators=(",", ":")).encode())


def known_stamps(entries: list[Path]) -> dict[str, str]:
    """The stamps the first entry (most recently used first) kept, if its manifest vouches
    for them (discovery's hint: those files need no sniffing); else none."""
    for entry in entries[:1]:
        try:
            return _kept(entry, read_manifest(entry).get("files") or {})
        except (CorruptIndexError, OSError, ValueError, TypeError, KeyError) as exc:
            log.info("not using the stamps of %s: %s", entry, exc)
    return {}


def _firsts(parts: list[FilePart]) -> list[tuple[FilePart, int]]:
    out, first = [], 0
    for part in parts:
        out.append((part, first))
        first += part.count
    return out


def find_previous(entries: list[Path]) -> Previous | None:
    """The reusable part of the first entry (most recently used first) that can be trusted."""
    for entry in entries[:1]:
        try:
            return Previous.load(entry)
        except (CorruptIndexError, OSError, ValueError, TypeError, KeyError, IndexError) as exc:
            log.info("not reusing chunks of %s: %s", entry, exc)
    return None
