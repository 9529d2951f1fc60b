"""An edit that changes how many chunks the repository has still takes every unchanged file's
vectors from the earlier entry: only the edited file's chunks are embedded.

Truth: ``chunk_file`` run on the work tree now (how many chunks, and which are the edited
file's), the embedder itself run on them (every stored row), and an emptied embedding cache
between the builds (what had to be embedded shows where each vector came from).
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory
from edited_repo import EMBED, FILES, chunks_now, expected_vectors, stored_vectors


@pytest.mark.parametrize(
    "added",
    [
        "\n\ndef discount(item):\n    return price(item)\n",  # one chunk more
        "\n\ndef a(x):\n    return x\n\n\ndef b(x):\n    return x\n\n\ndef c(x):\n    return x\n",
    ],
)
def test_an_edit_that_adds_chunks_reuses_every_other_vector(
    git_repo: GitRepoFactory, added: str
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed=EMBED)
    _, first = load_or_build(root, settings)
    shutil.rmtree(settings.embed_cache_dir)
    models = root / "shop/models.py"
    models.write_text(models.read_text() + added)
    _, stats = load_or_build(root, Settings.load(embed=EMBED))
    chunks = chunks_now(root)
    edited = {c.embed_text for c in chunks if c.path == "shop/models.py"}
    assert stats.chunks == len(chunks) > first.chunks  # the count changed
    assert stats.chunks_embedded == len(edited)  # the edited file's chunks, and only those
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))


def test_an_edit_that_keeps_the_count_embeds_the_edited_file_again(
    git_repo: GitRepoFactory,
) -> None:
    """Same chunk count, other text: the earlier vectors of that file are not reused."""
    root = git_repo(FILES)
    settings = Settings.load(embed=EMBED)
    _, first = load_or_build(root, settings)
    shutil.rmtree(settings.embed_cache_dir)
    (root / "lib/util.py").write_text("def helper():\n    return price(2) + 40\n")
    _, stats = load_or_build(root, Settings.load(embed=EMBED))
    chunks = chunks_now(root)
    assert stats.chunks == first.chunks == len(chunks)
    assert stats.chunks_embedded == len({c.embed_text for c in chunks if c.path == "lib/util.py"})
    np.testing.assert_array_equal(stored_vectors(stats.cache_path), expected_vectors(chunks))
