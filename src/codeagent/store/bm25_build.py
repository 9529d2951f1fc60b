"""Make the BM25 index of a repository state: from the previous state's, or from scratch.

A file whose text is unchanged since the previous entry has the same chunks, hence the same
terms (:func:`~codeagent.store.fusion.bm25_tokens` depends on nothing else), so its postings
are taken from the previous index with the chunk numbers moved to where its chunks are now;
only the chunks of new and changed files are tokenised, and the postings of removed or
changed files are dropped. The merge is a few passes over the postings arrays (tens of
milliseconds for 50,000 chunks), so every entry holds one whole index: nothing to merge or
skip at query time. Scores are computed at query time from these counts
(:mod:`codeagent.store.bm25_index`), so they equal a rebuild's.

The previous index is used only when its files are those its manifest lists (sha256, or the
entry's seal vouches for them), it loads whole, it covers the previous entry's chunks, and
every file range fits; anything else is logged and every chunk is tokenised.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.store.bm25_index import FILES, Bm25Index
from codeagent.store.entry_files import BM25_DIR, Parts, sha256_file
from codeagent.store.fusion import bm25_tokens

if TYPE_CHECKING:
    import numpy as np

    from codeagent.records import Chunk

log = logging.getLogger(__name__)

Ranges = dict[str, tuple[str, int, int]]  # path -> (text digest, first chunk, chunk count)


@dataclass(frozen=True)
class Earlier:
    """An earlier entry of the same repository whose BM25 index may be reused."""

    directory: Path
    manifest: dict[str, Any]
    sealed: bool  # its seal vouches for its files: nothing to hash
    ranges: Ranges
    _moved: list[Any] = field(default_factory=list, compare=False, repr=False)

    def moved(self, now: Ranges, n_before: int, n_now: int) -> tuple[np.ndarray, list[int]] | None:
        """:func:`moved_chunks` from this entry's ranges to ``now``'s, worked out once per
        ``now`` (the vectors and the BM25 index of an edit both ask; read, never written)."""
        for ranges, before, count, found in self._moved:
            if ranges is now and before == n_before and count == n_now:
                return found  # type: ignore[no-any-return]
        found = moved_chunks(self.ranges, now, n_before, n_now)
        self._moved.append((now, n_before, n_now, found))
        return found

    def load(self) -> Bm25Index | None:
        """Its index, or None (logged) when it cannot be trusted."""
        listed = self.manifest.get("files") or {}
        try:
            for name in FILES:
                key = f"{BM25_DIR}/{name}"
                if key not in listed or not (
                    self.sealed or sha256_file(self.directory / key) == listed[key]
                ):
                    raise ValueError(f"{key} is missing or does not match the manifest")
            index = Bm25Index.load(self.directory / BM25_DIR)
            if index.num_docs != self.manifest.get("chunks"):
                raise ValueError("it does not cover the entry's chunks")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.info("not reusing the BM25 index of %s: %s", self.directory, exc)
            return None
        return index


def index_chunks(
    chunks: list[Chunk] | Parts,
    ranges: Ranges | None = None,
    earlier: Earlier | None = None,
    terms: list[list[str] | None] | None = None,
) -> Bm25Index:
    """The index of ``chunks`` (laid out by file as ``ranges`` says), from ``earlier``'s
    where it can be trusted. ``terms``: chunks' :func:`bm25_tokens` already made (None where
    not: those are made here)."""

    def tokens(i: int) -> list[str]:
        made = terms[i] if terms is not None else None
        return made if made is not None else bm25_tokens(chunks[i])

    base = earlier.load() if earlier is not None and ranges is not None else None
    if base is not None and earlier is not None and ranges is not None:
        found = earlier.moved(ranges, base.num_docs, len(chunks))
        if found is not None:
            moved, fresh = found
            log.info(
                "BM25: %d of %d chunks tokenised, the rest from %s",
                len(fresh),
                len(chunks),
                earlier.directory.name,
            )
            return derive(base, moved, [(i, tokens(i)) for i in fresh], len(chunks))
    return build([tokens(i) for i in range(len(chunks))])


def moved_chunks(
    before: Ranges, now: Ranges, n_before: int, n_now: int
) -> tuple[np.ndarray, list[int]] | None:
    """Where each earlier chunk is now (-1: gone) and the chunks to tokenise; None when the
    ranges do not tile the chunks of either state."""
    import numpy as np

    moved = np.full(n_before, -1, dtype=np.int32)
    fresh: list[int] = []
    covered = 0
    for path, (digest, first, count) in now.items():
        covered += count
        old = before.get(path)
        if old is not None and old[0] == digest and old[2] == count:
            if not 0 <= old[1] <= n_before - count or np.any(moved[old[1] : old[1] + count] >= 0):
                return None
            moved[old[1] : old[1] + count] = np.arange(first, first + count, dtype=np.int32)
        else:
            fresh.extend(range(first, first + count))
    if covered != n_now or sum(c for _, _, c in before.values()) != n_before:
        return None
    return moved, fresh


def build(token_lists: list[list[str]]) -> Bm25Index:
    """The index of chunks with these terms, from scratch."""
    import numpy as np

    empty = Bm25Index(
        [],
        np.zeros(1, dtype=np.int64),
        np.zeros(0, dtype=np.int32),
        np.zeros(0, dtype=np.int32),
        np.zeros(0, dtype=np.int32),
    )
    moved = np.zeros(0, dtype=np.int32)
    return derive(empty, moved, list(enumerate(token_lists)), len(token_lists))


def derive(
    base: Bm25Index, moved: np.ndarray, added: list[tuple[int, list[str]]], n_docs: int
) -> Bm25Index:
    """``base`` with chunk ``i`` renumbered ``moved[i]`` (dropped where -1) and the chunks
    ``added`` (number, terms) put in; terms left in no chunk are dropped."""
    import numpy as np

    vocab = dict(base.vocab_dict)  # ids in order: new terms get the next ones
    new_term: list[int] = []
    new_doc: list[int] = []
    new_freq: list[int] = []
    lengths = np.zeros(n_docs, dtype=np.int32)
    kept = moved >= 0
    lengths[moved[kept]] = base.lengths[kept]
    for doc, tokens in added:
        lengths[doc] = len(tokens)
        counts = Counter(tokens)
        new_term.extend([vocab.setdefault(t, len(vocab)) for t in counts])
        new_freq.extend(counts.values())
        new_doc.extend([doc] * len(counts))

    # Postings as (term, chunk) keys, sorted: the base's keep their order when the kept
    # chunks keep theirs (files are listed in the same order in every state).
    old_term = np.repeat(np.arange(len(base.terms), dtype=np.int64), np.diff(base.starts))
    old_doc = moved[base.docs] if len(base.docs) else np.zeros(0, dtype=np.int32)
    keep = old_doc >= 0
    old_key = old_term[keep] * n_docs + old_doc[keep]
    old_freq = base.freqs[keep]
    add_key = np.asarray(new_term, dtype=np.int64) * n_docs + np.asarray(new_doc, dtype=np.int64)
    add_freq = np.asarray(new_freq, dtype=np.int32)
    if len(old_key) < 2 or bool(np.all(old_key[1:] > old_key[:-1])):
        order = np.argsort(add_key, kind="stable")
        add_key, add_freq = add_key[order], add_freq[order]
        at = np.searchsorted(old_key, add_key)
        key, freqs = np.insert(old_key, at, add_key), np.insert(old_freq, at, add_freq)
    else:
        key = np.concatenate([old_key, add_key])
        order = np.argsort(key, kind="stable")
        key, freqs = key[order], np.concatenate([old_freq, add_freq])[order]

    term_of = key // max(n_docs, 1)
    per_term = np.bincount(term_of, minlength=len(vocab))
    present = per_term > 0
    terms = [t for t, here in zip(vocab, present.tolist(), strict=True) if here]
    starts = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum(per_term[present], out=starts[1:])
    docs = (key - term_of * n_docs).astype(np.int32)
    return Bm25Index(terms, starts, docs, freqs.astype(np.int32, copy=False), lengths)
