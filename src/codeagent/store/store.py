"""The searchable index of one repository state: BM25 + a dense index, fused by RRF.

BM25 over code-aware, stemmed terms of each chunk's path, symbol and code (scored at query time
from stored term counts, :mod:`codeagent.store.bm25_index`, so a new state's index is derived
from the previous state's, :mod:`codeagent.store.bm25_build`); an inner product index over
L2-normalised vectors; the top of each fused (k = 60), ``per_file`` kept.

Entry files and checks: :mod:`codeagent.store.entry_files`; an entry whose seal vouches for
it opens without reading them (:mod:`codeagent.store.seal`), and the chunks, BM25, the dense
index (any :class:`~codeagent.store.dense.DenseIndex` backend) and the symbol graph load at
first use; a part that fails to load marks the entry damaged, rebuilt at the next open.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from codeagent.errors import BackendUnavailableError, CodeAgentError
from codeagent.records import Chunk
from codeagent.store.bm25_build import Earlier, Ranges, index_chunks
from codeagent.store.bm25_index import Bm25Index
from codeagent.store.dense import (
    DEFAULT_BACKEND,
    DenseIndex,
    DenseIndexType,
    NamesEmbedder,
    backend_class,
    backend_with_id,
)
from codeagent.store.entry_files import (
    BM25_DIR,
    CorruptIndexError,
    Parts,
    read_chunks,
    read_manifest,
    write_chunks,
    write_manifest,
)
from codeagent.store.seal import check_in_background, mark_damaged, open_checked, signatures
from codeagent.store.seal import write_seal as seal
from codeagent.store.search import Searching
from codeagent.symbols.graph import SymbolGraph

if TYPE_CHECKING:
    import numpy as np

    from codeagent.embed.embedders import Embedder

log = logging.getLogger(__name__)

__all__ = ["IndexStore"]

T = TypeVar("T")


class IndexStore(Searching):
    """Chunks plus their BM25 and (optionally) dense indexes."""

    def __init__(
        self,
        chunks: list[Chunk] | None,
        embedder: Embedder | None,
        *,
        bm25: Bm25Index | None = None,
        dense: DenseIndex | None = None,
        dense_type: DenseIndexType | None = None,
        directory: Path | None = None,
        manifest: dict[str, Any] | None = None,
        symbols: SymbolGraph | None = None,
        sealed: bool = False,
    ) -> None:
        self._chunks = chunks  # None: read from ``directory`` at first use
        self.embedder = embedder
        self.embedder_id: str | None = embedder.id if embedder is not None else None
        self.manifest: dict[str, Any] = manifest or {}
        self._bm25 = bm25
        self._dense = dense
        self._dense_type = dense_type
        self._directory = directory
        self._symbols = symbols
        self.sealed = sealed  # opened on its seal: the content was not read
        self._dense_off = False  # the dense backend could not be reached: BM25 + symbols
        self.notices: list[str] = []  # said once by take_notices()
        self._parts: Parts | None = None  # what a build made, until saved (save writes it)

    @classmethod
    def build(
        cls,
        chunks: list[Chunk] | Parts,
        embedder: Embedder | None,
        vectors: np.ndarray | None,
        *,
        dense: DenseIndexType | None = None,
        seconds: dict[str, float] | None = None,
        symbols: SymbolGraph | None = None,
        ranges: Ranges | None = None,
        earlier: Earlier | None = None,
        terms: list[list[str] | None] | None = None,
    ) -> IndexStore:
        """Index ``chunks``; ``vectors`` (n, dim) normalised rows, or None for BM25 only.

        ``dense`` is the dense index class (default: the default backend); ``seconds`` gets
        the time of the ``bm25`` and ``dense`` phases added. With ``ranges`` (each file's
        digest and chunk range) and an ``earlier`` entry, the BM25 index is derived from
        that entry's: only the chunks of changed files are tokenised. ``terms``: the chunks'
        BM25 terms where already made (by the pool of a build). ``chunks`` may be a build's
        :class:`~codeagent.store.entry_files.Parts`: decoded only where needed, written by
        :meth:`save` as they are (the symbol graph is then theirs).
        """
        seconds = seconds if seconds is not None else {}
        start = time.perf_counter()
        bm25 = index_chunks(chunks, ranges, earlier, terms)
        middle = time.perf_counter()
        seconds["bm25"] = seconds.get("bm25", 0.0) + middle - start
        index = None
        if embedder is not None and vectors is not None:
            index = (dense or backend_class(DEFAULT_BACKEND))(embedder.dim)
            if isinstance(index, NamesEmbedder):  # e.g. a database naming its collections
                index.embedder_id = embedder.id
            index.add(vectors)
        seconds["dense"] = seconds.get("dense", 0.0) + time.perf_counter() - middle
        if isinstance(chunks, list):
            return cls(chunks, embedder, bm25=bm25, dense=index, symbols=symbols)
        store = cls(None, embedder, bm25=bm25, dense=index, symbols=symbols)
        store._parts = chunks
        return store

    @property
    def chunks(self) -> list[Chunk]:
        """The chunks, in index order (read at first use when the entry opened on its seal)."""
        if self._chunks is None and self._parts is not None:
            self._chunks = self._parts.chunks()
        if self._chunks is None:
            expected = self.manifest.get("chunks")
            self._chunks = self._load_part("chunks", lambda d: read_chunks(d, expected))
        return self._chunks

    @property
    def symbols(self) -> SymbolGraph:
        """The repository symbol graph (loaded at first use; empty when none was built)."""
        if self._symbols is None:
            if self._parts is not None:
                self._symbols = self._parts.graph()
            elif self._directory is None:
                self._symbols = SymbolGraph({})
            else:
                self._symbols = self._load_part("the symbol graph", SymbolGraph.load)
        return self._symbols

    def _load_part(self, what: str, load: Callable[[Path], T]) -> T:
        """``load(directory)``; a failure marks the entry damaged (rebuilt at the next open)."""
        directory = self._directory
        assert directory is not None
        try:
            return load(directory)
        except CorruptIndexError as exc:
            reason = str(exc)
        except (MemoryError, CodeAgentError):  # not the entry's fault: raised as they are
            raise
        except Exception as exc:  # whatever a damaged file makes a third-party loader raise
            reason = f"index at {directory}: unreadable {what}: {exc}"
        mark_damaged(directory, reason)
        raise CorruptIndexError(f"{reason}; it is rebuilt at the next run")

    def check_later(self, on_damage: Callable[[Exception], None] | None = None) -> Any:
        """Hash the files of an entry opened on its seal in a (started) background thread."""
        if not self.sealed or self._directory is None:
            return None
        return check_in_background(self._directory, self.manifest, on_damage)

    # -- search ---------------------------------------------------------------------------

    @property
    def bm25(self) -> Bm25Index:
        if self._bm25 is None:
            self._bm25 = self._load_part("bm25", lambda d: Bm25Index.load(d / BM25_DIR))
        return self._bm25

    def _dense_kind(self) -> DenseIndexType | None:
        """The class of the stored dense index (None for BM25 only)."""
        backend, kind = self.manifest.get("dense_backend"), self._dense_type
        if not backend or (kind is not None and kind.backend == backend):
            return kind if backend else None
        return backend_with_id(backend)

    @property
    def dense(self) -> DenseIndex | None:
        """The dense index (opened at first use); None for BM25 only, or once it failed."""
        if self._dense is None and self._directory is not None and not self._dense_off:
            kind = self._dense_kind()
            if kind is not None:
                path = self._directory / (self.manifest.get("dense_file") or kind.file_name)
                if path.is_file():
                    try:
                        self._dense = self._load_part("the dense index", lambda _d: kind.load(path))
                    except BackendUnavailableError as exc:
                        self.drop_dense(str(exc))
        return self._dense

    def drop_dense(self, reason: str) -> None:
        """Search without the dense index from now on (its backend failed with ``reason``)."""
        log.info("dense index unavailable: %s", reason)
        self._dense, self._dense_off = None, True
        self.notices.append(f"{reason}; answering from BM25 + symbols without dense search")

    def take_notices(self) -> list[str]:
        """What searching had to say since the last call (each said once), the dense
        index's own included (an index answered first says what it embedded first)."""
        notices, self.notices = self.notices, []
        take = getattr(self._dense, "take_notices", None)
        return notices + (take() if take is not None else [])

    # -- persistence ----------------------------------------------------------------------

    def save(self, directory: Path, *, meta: dict[str, Any] | None = None) -> None:
        """Write the index into ``directory`` (created); the manifest is written last."""
        directory.mkdir(parents=True, exist_ok=True)
        if self._parts is not None:  # chunks.json, symbols.json and files.json
            self._parts.write(directory)
        else:
            write_chunks(directory, self.chunks)
            self.symbols.save(directory)
        self.bm25.save(directory / BM25_DIR)
        if self.dense is not None:
            self.dense.save(directory / self.dense.file_name)
        fields = {
            "chunks": len(self._parts if self._parts is not None else self.chunks),
            "embedder": self.embedder_id,
            "dim": self.embedder.dim if self.embedder is not None else None,
            "dense_backend": self.dense.backend if self.dense is not None else None,
            "dense_file": self.dense.file_name if self.dense is not None else None,
            **(meta or {}),
        }
        self.manifest = write_manifest(directory, fields)
        seal(directory, signatures(directory, self.manifest))  # as written: no need to hash

    def moved_to(self, directory: Path) -> None:
        """The saved entry is now ``directory``: what a build made and nothing has decoded
        yet is read from there at first use (memory is not held twice)."""
        self._directory = directory
        if self._parts is not None:
            chunks, symbols = self._parts.decoded()
            self._chunks = self._chunks if chunks is None else chunks
            self._symbols = self._symbols if symbols is None else symbols
        self._parts = None

    @classmethod
    def load(
        cls,
        directory: Path,
        embedder: Embedder | None,
        dense: DenseIndexType | None = None,
        *,
        verify: bool = False,
    ) -> IndexStore:
        """Open a saved index; :class:`CorruptIndexError` if it is incomplete or damaged. Its
        files are hashed unless its seal vouches for them (``verify``: hashed anyway)."""
        manifest = read_manifest(directory)
        expected = embedder.id if embedder is not None else None
        if manifest.get("embedder") != expected:
            raise CorruptIndexError(
                f"index at {directory} was built with embedder {manifest.get('embedder')},"
                f" not {expected}"
            )
        chunks = open_checked(directory, manifest, verify=verify)  # None: opened on its seal
        store = cls(
            chunks,
            embedder,
            dense_type=dense,
            directory=directory,
            manifest=manifest,
            sealed=chunks is None,
        )
        if getattr(store._dense_kind(), "external", False):
            store.dense  # noqa: B018 - rows kept outside the entry are checked when it opens
        return store
