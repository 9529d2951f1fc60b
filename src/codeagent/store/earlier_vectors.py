"""The vectors an edit need not look up: those of unchanged files, from the previous entry.

A file whose text is unchanged since the previous entry has the same chunks, hence the same
embedded texts and, under the same embedder, the same vectors. Reading them from that entry's
dense file, moved to where the chunks are now, costs one file read (77 MB at 50,000 chunks,
a few hundredths of a second); asking the embedding cache for each costs one database
lookup per chunk (about 0.9 s at 50,000 chunks) and every chunk decoded to hash its text.

The previous vectors are used only when that entry was built with the same embedder into the
flat FAISS file, that file is the one its manifest lists (sha256, or the entry's seal
vouches for it), it holds one vector per chunk of the entry, and every file range fits
(:func:`~codeagent.store.bm25_build.moved_chunks`); anything else is logged, and every
chunk's vector comes from the embedding cache as in a cold build.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from codeagent.store.bm25_build import Earlier, Ranges
from codeagent.store.entry_files import sha256_file
from codeagent.store.faiss_index import FaissFlatIndex

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)


def reuse(
    earlier: Earlier | None, ranges: Ranges, n_now: int, embedder_id: str, dim: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """``(vectors, known)``: an ``(n_now, dim)`` float32 array holding the vector of every
    chunk of an unchanged file (laid out by file as ``ranges`` says) and a boolean mask of
    those rows; None when ``earlier`` lends none it can be trusted for."""
    import numpy as np

    if earlier is None:
        return None
    manifest = earlier.manifest
    if manifest.get("embedder") != embedder_id:
        return None  # built without vectors, or with another embedder's
    try:
        name = manifest.get("dense_file")
        if manifest.get("dense_backend") != FaissFlatIndex.backend or name != (
            FaissFlatIndex.file_name
        ):
            raise ValueError("its dense index is not a flat FAISS file")
        listed = manifest.get("files") or {}
        path = earlier.directory / name
        if name not in listed or not (earlier.sealed or sha256_file(path) == listed[name]):
            raise ValueError(f"{name} is missing or does not match the manifest")
        index = FaissFlatIndex.load(path)
        n_before = manifest.get("chunks")
        if not isinstance(n_before, int) or len(index) != n_before or index.dim != dim:
            raise ValueError("it does not hold one vector per chunk of the entry")
        found = earlier.moved(ranges, n_before, n_now)
        if found is None:
            raise ValueError("its file ranges do not tile the chunks")
        before = index.vectors()
    except (OSError, ValueError, RuntimeError) as exc:  # faiss reports a bad file so
        log.info("not reusing the vectors of %s: %s", earlier.directory, exc)
        return None
    moved = found[0]
    kept = moved >= 0
    vectors = np.zeros((n_now, dim), dtype=np.float32)
    vectors[moved[kept]] = before[kept]
    known = np.zeros(n_now, dtype=bool)
    known[moved[kept]] = True
    return vectors, known
