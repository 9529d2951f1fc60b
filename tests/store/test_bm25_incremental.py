"""After edits, adds, deletes and a rename in a real git repository (a copy of the project's
own code), the BM25 index derived from the previous state scores every query as an index
built from scratch does, and only the chunks of changed files are tokenised."""

from __future__ import annotations

import json
import logging
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.store import seal
from codeagent.store.entry_files import CorruptIndexError
from codeagent.store.store import IndexStore
from conftest import git

SRC = Path(__file__).resolve().parents[2] / "src" / "codeagent"
QUERIES = [
    "parse the manifest and check every sha256",
    "seal damaged entry rebuild",
    "chunk a python file into functions",
    "reciprocal rank fusion",
    "brand new widget frobnicate",  # words only the added file holds
]
TOKENISED = re.compile(r"BM25: (\d+) of (\d+) chunks tokenised")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for folder in ("store", "index", "symbols"):
        shutil.copytree(SRC / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def scratch(root: Path, tmp_path: Path, step: int) -> IndexStore:
    """The index of the same state built in a fresh home (nothing earlier to reuse)."""
    store, stats = load_or_build(root, Settings.load(embed="none", home=tmp_path / f"s{step}"))
    assert stats.files_reused == 0
    return store


def assert_same_scores(derived: IndexStore, fresh: IndexStore) -> None:
    assert derived.chunks == fresh.chunks
    for query in QUERIES:
        ours, theirs = derived.bm25_scores(query), fresh.bm25_scores(query)
        if theirs is None:
            assert ours is None
            continue
        assert ours is not None
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
        assert [h.path for h in derived.search(query, k=8)] == [
            h.path for h in fresh.search(query, k=8)
        ]


def tokenised(caplog: pytest.LogCaptureFixture) -> tuple[int, int]:
    found = [TOKENISED.search(r.getMessage()) for r in caplog.records]
    [match] = [m for m in found if m]
    caplog.clear()
    return int(match[1]), int(match[2])


def test_a_sequence_of_changes_scores_as_a_rebuild(
    repo: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="codeagent.store.bm25_build")
    settings = Settings.load(embed="none")
    load_or_build(repo, settings)
    assert not any(TOKENISED.search(r.getMessage()) for r in caplog.records)  # nothing earlier

    fusion = repo / "store" / "fusion.py"
    steps = [
        lambda: fusion.write_text(fusion.read_text() + "\n\ndef extra(x):\n    return x\n"),
        lambda: (repo / "index" / "widget.py").write_text(
            '"""Brand new widget."""\n\n\ndef frobnicate(widget):\n    return widget.frob()\n'
        ),
        lambda: (repo / "store" / "seal.py").unlink(),
        lambda: (repo / "index" / "chunking.py").rename(repo / "index" / "chunks_of.py"),
        lambda: (repo / "store" / "cache.py").write_text("def cache():\n    pass\n"),
    ]
    for step, change in enumerate(steps):
        change()
        derived, stats = load_or_build(repo, settings)
        assert not stats.cache_hit
        done, total = tokenised(caplog)
        assert total == stats.chunks
        assert done < total / 4  # the changed files' chunks only
        assert (done > 0) == (step != 2)  # a deletion tokenises nothing
        assert_same_scores(derived, scratch(repo, tmp_path, step))
        # and as read back from the entry, in a fresh store
        assert_same_scores(IndexStore.load(Path(stats.cache_path), None), derived)


def test_an_earlier_index_that_does_not_match_its_manifest_is_not_used(
    repo: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="codeagent.store.bm25_build")
    settings = Settings.load(embed="none")
    _, first = load_or_build(repo, settings)
    folder = Path(first.cache_path) / "bm25"
    docs, freqs = np.load(folder / "docs.npy"), np.load(folder / "freqs.npy") + 1
    lengths = np.bincount(docs, weights=freqs, minlength=first.chunks).astype(np.int32)
    np.save(folder / "freqs.npy", freqs)  # counts that agree with each other (they load),
    np.save(folder / "lengths.npy", lengths)  # not those the manifest lists
    (repo / "store" / "fusion.py").write_text("def fused():\n    pass\n")
    derived, stats = load_or_build(repo, settings)
    assert stats.files_reused > 0  # the chunks still come from there
    assert any("not reusing the BM25 index" in r.getMessage() for r in caplog.records)
    assert not any(TOKENISED.search(r.getMessage()) for r in caplog.records)
    assert_same_scores(derived, scratch(repo, tmp_path, 0))


def test_bm25_files_that_disagree_behind_a_valid_seal_mark_the_entry(repo: Path) -> None:
    """Damage the kernel does not see: the counts changed, the seal re-written over them. The
    first search says the BM25 part is unreadable and marks the entry; the next open rebuilds."""
    settings = Settings.load(embed="none")
    _, stats = load_or_build(repo, settings)
    entry = Path(stats.cache_path)
    freqs = entry / "bm25" / "freqs.npy"
    np.save(freqs, np.load(freqs) + 1)
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    assert seal.write_seal(entry, seal.signatures(entry, manifest))
    store = IndexStore.load(entry, None)
    assert store.sealed
    with pytest.raises(CorruptIndexError, match=r"unreadable bm25: chunk lengths differ"):
        store.search("seal damaged entry")
    assert "damaged" in json.loads((entry / "seal.json").read_text(encoding="utf-8"))
    again, rebuilt = load_or_build(repo, settings)
    assert not rebuilt.cache_hit
    assert again.search("seal damaged entry", k=1)
