"""An edit takes the vectors of unchanged files from the earlier entry's dense file.

The truth for every row is the embedder itself run on the chunks ``chunk_file`` makes of the
work tree now; the embedding cache is emptied between the builds, so what the second build
had to embed shows where its vectors came from.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.records import Chunk
from codeagent.store.faiss_index import FaissFlatIndex
from conftest import GitRepoFactory, git
from index.test_reuse import FILES, edit

EMBED = "hash:32"


def chunks_now(root: Path) -> list[Chunk]:
    """Every tracked or untracked file chunked directly, in path order (the index's order)."""
    listed = git(root, "ls-files", "--cached", "--others", "--exclude-standard").split()
    out: list[Chunk] = []
    for path in sorted(p for p in listed if (root / p).is_file()):
        out.extend(chunk_file(path, (root / path).read_text(encoding="utf-8")))
    return out


def stored_vectors(entry: str) -> np.ndarray:
    return FaissFlatIndex.load(Path(entry) / FaissFlatIndex.file_name).vectors()


def expected_vectors(chunks: list[Chunk]) -> np.ndarray:
    return HashEmbedder(32).embed_documents([c.embed_text for c in chunks])


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


@pytest.mark.parametrize("damage", ["missing", "appended"])
def test_a_damaged_earlier_dense_file_is_not_used(
    git_repo: GitRepoFactory, damage: str, caplog: pytest.LogCaptureFixture
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
    assert "not reusing the vectors" in caplog.text
    assert stats.chunks_embedded == len({c.embed_text for c in chunks})  # all embedded again
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))


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
