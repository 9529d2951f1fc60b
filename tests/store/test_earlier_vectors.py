"""An edit takes the vectors of unchanged files from the earlier entry's dense file.

The truth for every row is the embedder itself run on the chunks ``chunk_file`` makes of the
work tree now; the embedding cache is emptied between the builds, so what the second build
had to embed shows where its vectors came from.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index.build import load_or_build
from codeagent.index.reuse import find_previous, text_digest
from codeagent.records import Chunk
from codeagent.store import earlier_vectors
from codeagent.store.entry_files import read_manifest, sha256_file
from codeagent.store.faiss_index import FaissFlatIndex
from conftest import GitRepoFactory, git
from edited_repo import EMBED, FILES, chunks_now, edit, expected_vectors, stored_vectors

FLAT = "its dense index is not a flat FAISS file"


def changed_texts(root: Path, chunks: list[Chunk]) -> int:
    """Distinct embedded texts of the files that differ from the committed state."""
    changed = set(git(root, "ls-files", "--modified", "--others", "--exclude-standard").split())
    return len({c.embed_text for c in chunks if c.path in changed})


def empty_the_embedding_cache(settings: Settings) -> None:
    shutil.rmtree(settings.embed_cache_dir)


def test_an_edit_embeds_only_the_changed_files_and_every_row_is_right(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed=EMBED)
    load_or_build(root, settings)
    empty_the_embedding_cache(settings)
    edit(root)  # one file changed, one added, one deleted: the rows after them move
    _, stats = load_or_build(root, Settings.load(embed=EMBED))
    chunks = chunks_now(root)
    assert stats.chunks == len(chunks)
    # Only the changed and added files' texts were embedded (the cache was empty) ...
    assert 0 < stats.chunks_embedded == changed_texts(root, chunks) < len(chunks)
    assert stats.chunks_embedded + stats.chunks_reused >= len(chunks)
    # ... and every row holds its own chunk's vector.
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("missing", "No such file"),
        ("appended", "dense.faiss is missing or does not match the manifest"),
    ],
)
def test_a_damaged_earlier_dense_file_is_not_used(
    git_repo: GitRepoFactory, damage: str, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed=EMBED)
    _, first = load_or_build(root, settings)
    dense = Path(first.cache_path) / FaissFlatIndex.file_name
    if damage == "missing":
        dense.unlink()
    else:
        with dense.open("ab") as handle:
            handle.write(b"\0" * 64)
    empty_the_embedding_cache(settings)
    edit(root)
    with caplog.at_level(logging.INFO, logger="codeagent.store.earlier_vectors"):
        _, stats = load_or_build(root, Settings.load(embed=EMBED))
    chunks = chunks_now(root)
    assert f"not reusing the vectors of {first.cache_path}: " in caplog.text
    assert reason in caplog.text
    assert stats.chunks_embedded == len({c.embed_text for c in chunks})  # all embedded again
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))


def rewrite_manifest(entry: Path, **fields: object) -> None:
    """Change manifest fields, the sha256 of dense.faiss made to match the file again."""
    manifest = read_manifest(entry)
    manifest.update(fields)
    manifest["files"]["dense.faiss"] = sha256_file(entry / "dense.faiss")
    (entry / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def fewer_rows(entry: Path) -> None:
    """dense.faiss holds one vector less than the entry has chunks (its hash listed)."""
    index = FaissFlatIndex.load(entry / "dense.faiss")
    short = FaissFlatIndex(index.dim)
    short.add(index.vectors()[:-1])
    short.save(entry / "dense.faiss")
    rewrite_manifest(entry)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda e: rewrite_manifest(e, dense_backend="milvus"), FLAT),
        (lambda e: rewrite_manifest(e, dense_file="vectors.faiss"), FLAT),
        (fewer_rows, "it does not hold one vector per chunk of the entry"),
    ],
    ids=["other-backend", "other-file", "fewer-rows"],
)
def test_a_dense_file_that_does_not_fit_the_entry_is_not_used(
    git_repo: GitRepoFactory,
    change: Callable[[Path], None],
    reason: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed=EMBED)
    _, first = load_or_build(root, settings)
    change(Path(first.cache_path))
    empty_the_embedding_cache(settings)
    edit(root)
    with caplog.at_level(logging.INFO, logger="codeagent.store.earlier_vectors"):
        _, stats = load_or_build(root, Settings.load(embed=EMBED))
    chunks = chunks_now(root)
    said = [r.getMessage() for r in caplog.records if r.name == "codeagent.store.earlier_vectors"]
    assert said == [f"not reusing the vectors of {first.cache_path}: {reason}"]
    assert stats.chunks_embedded == len({c.embed_text for c in chunks})
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))


@pytest.mark.parametrize("sealed", [True, False])
def test_a_sealed_entry_s_dense_file_is_not_hashed(
    git_repo: GitRepoFactory, sealed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seal vouches for the file (nothing read to check it); without one it is hashed."""
    root = git_repo(FILES)
    settings = Settings.load(embed=EMBED)
    _, first = load_or_build(root, settings)
    empty_the_embedding_cache(settings)
    if not sealed:
        (Path(first.cache_path) / "seal.json").unlink()
    hashed: list[str] = []

    def recording(path: Path) -> str:
        hashed.append(Path(path).name)
        return sha256_file(path)

    monkeypatch.setattr(earlier_vectors, "sha256_file", recording)
    edit(root)
    _, stats = load_or_build(root, Settings.load(embed=EMBED))
    assert hashed == ([] if sealed else ["dense.faiss"])
    assert stats.chunks_embedded == changed_texts(root, chunks_now(root))  # reused either way


def test_the_lent_vectors_are_float32_and_only_unchanged_rows_are_known(
    git_repo: GitRepoFactory,
) -> None:
    """``reuse`` itself: float32 rows (what the dense index holds), the rows of unchanged files
    known and filled, every other row zero and unknown."""
    root = git_repo(FILES)
    _, first = load_or_build(root, Settings.load(embed=EMBED))
    edit(root)
    previous = find_previous([Path(first.cache_path)])
    assert previous is not None
    assert previous.bm25 is not None
    chunks = chunks_now(root)
    ranges: dict[str, tuple[str, int, int]] = {}  # path -> (text digest, first row, rows)
    for row, chunk in enumerate(chunks):
        digest = text_digest((root / chunk.path).read_text(encoding="utf-8"))
        _, first_row, count = ranges.get(chunk.path, (digest, row, 0))
        ranges[chunk.path] = (digest, first_row, count + 1)
    lent = earlier_vectors.reuse(previous.bm25, ranges, len(chunks), EMBED, 32)
    assert lent is not None
    vectors, known = lent
    assert vectors.dtype == np.float32
    assert known.dtype == bool
    changed = set(git(root, "ls-files", "--modified", "--others", "--exclude-standard").split())
    assert list(known) == [c.path not in changed for c in chunks]
    np.testing.assert_array_equal(vectors[known], expected_vectors(chunks)[known])
    assert not vectors[~known].any()


@pytest.mark.parametrize("before", ["none", "hash:16"])
def test_vectors_of_another_embedder_are_not_used(git_repo: GitRepoFactory, before: str) -> None:
    root = git_repo(FILES)
    load_or_build(root, Settings.load(embed=before))
    settings = Settings.load(embed=EMBED)
    edit(root)
    _, stats = load_or_build(root, settings)
    chunks = chunks_now(root)
    assert stats.chunks_embedded == len({c.embed_text for c in chunks})
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))


def test_a_cold_build_s_vectors_are_float32_rows_of_every_chunk(git_repo: GitRepoFactory) -> None:
    """With no earlier entry every vector comes from the embedder (through the cache), into a
    float32 array: what the dense index stores, at half a float64 array's memory."""
    from codeagent.index.build_steps import chunk_vectors
    from codeagent.index.chunked import chunk_repo
    from codeagent.index.stats import IndexStats
    from codeagent.progress import NullProgress
    from codeagent.repo.discover import discover

    root = git_repo(FILES)
    stats = IndexStats()
    chunked = chunk_repo(discover(root), stats, NullProgress(), [])
    vectors = chunk_vectors(
        chunked, HashEmbedder(32), Settings.load(embed=EMBED), stats, NullProgress()
    )
    assert vectors.dtype == np.float32
    np.testing.assert_array_equal(vectors, expected_vectors(chunks_now(root)))
    assert stats.chunks_embedded == len({c.embed_text for c in chunks_now(root)})
