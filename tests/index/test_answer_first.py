"""Answer first, embed behind: when embedding a first index would take long, an index made in
memory (chunks, BM25, symbols, the vectors already cached) answers at once while a detached
`codeagent index` (a real process) builds the full one; one such process per state."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

from background_builds import wait_for_entry, wait_until_ended
from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index import background
from codeagent.index.answer_first import PartialDense
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from conftest import GitRepoFactory

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n\n\n"
    "def discount(item, rate):\n    return price(item) * (1 - rate)\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
    "README.md": "# Shop\n\nA tiny shop.\n",
}
ORDERS = "def place_order(cart):\n    return len(cart)\n\n\ndef cancel_order(order):\n    pass\n"


class SlowHash(HashEmbedder):
    """The hash embedder (same id, same vectors) with an estimate saying it is slow: the
    background `codeagent index --embed hash:16` builds the very same state."""

    queries = 0

    def estimate_seconds(self, texts: list[str]) -> float:
        return 60.0 * len(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries += 1
        return super().embed_query(text)


def chunk_count(root: Path, paths: list[str]) -> int:
    """Chunks of ``paths``, straight from the chunker."""
    return sum(len(chunk_file(p, (root / p).read_text(encoding="utf-8"))) for p in paths)


def test_the_partial_dense_index_ranks_its_rows_as_brute_force_does() -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(40, 8)).astype(np.float32)
    rows = np.array(sorted(rng.choice(100, size=40, replace=False)), dtype=np.int64)
    query = rng.normal(size=(1, 8)).astype(np.float32)
    scores, ids = PartialDense(rows, vectors).search(query, 50)
    expected = sorted(range(40), key=lambda i: -float(np.dot(vectors[i], query[0])))
    assert ids[0][:40].tolist() == [int(rows[i]) for i in expected]
    assert ids[0][40:].tolist() == [-1] * 10  # padded past its rows
    assert scores[0][0] == pytest.approx(float(np.dot(vectors[expected[0]], query[0])), rel=1e-5)


def test_a_slow_first_index_answers_at_once_and_a_detached_build_finishes_it(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    slow = SlowHash(16)
    store, stats = load_or_build(root, settings, embedder=slow, background=True)
    assert stats.dense_coverage == 0.0
    assert not stats.cache_hit
    [said] = [n for n in stats.notices if n.startswith("dense search:")]
    assert said.startswith("dense search: 0 % of chunks, building in the background (pid ")
    log_file = background.log_path(settings, stats.repo_id, stats.state_hash)
    assert str(log_file) in said
    assert len(store.chunks) == chunk_count(root, list(FILES))
    assert store.search("discount rate", k=1)[0].path == "shop/models.py"
    # no vector cached and too slow to embed any first: BM25 only, no query embedded
    assert store.dense is not None
    assert len(store.dense) == 0
    assert store.dense_scores("discount rate", 10) == []
    assert slow.queries == 0
    assert [d.path for d in store.symbols.definitions("discount")] == ["shop/models.py"]

    entry = Path(stats.cache_path)
    wait_for_entry(entry)
    wait_until_ended(settings, stats.repo_id)
    assert "index built" in log_file.read_text(encoding="utf-8")  # the child's own summary
    full, again = load_or_build(root, settings, embedder=SlowHash(16), background=True)
    assert again.cache_hit
    assert again.dense_coverage is None
    assert again.state_hash == stats.state_hash  # the child built this very state
    assert full.embedder is not None
    assert full.dense is not None
    names = {p.name for p in entry.parent.iterdir()}
    assert not [n for n in names if n.startswith(background.PREFIX)], names  # marks removed


def test_vectors_already_cached_give_a_partial_dense_search(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    load_or_build(root, settings, embedder=HashEmbedder(16))  # caches every vector
    (root / "shop/orders.py").write_text(ORDERS, encoding="utf-8")  # a new, uncommitted file
    store, stats = load_or_build(root, settings, embedder=SlowHash(16), background=True)
    old, new = chunk_count(root, list(FILES)), chunk_count(root, ["shop/orders.py"])
    assert stats.dense_coverage == pytest.approx(old / (old + new), abs=1e-4)
    percent = round(100 * old / (old + new))
    assert any(n.startswith(f"dense search: {percent} % of chunks") for n in stats.notices)
    found = store.dense_scores("price of an item", 50)
    assert len(found) == old  # every cached chunk, and only those
    assert all(store.chunks[i].path != "shop/orders.py" for i, _score in found)
    hits = store.search("place_order", k=3)
    assert "shop/orders.py" in {h.path for h in hits}  # BM25 has every chunk
    wait_for_entry(Path(stats.cache_path))
    wait_until_ended(settings, stats.repo_id)


@pytest.mark.parametrize(
    ("embedder", "after"), [(SlowHash(16), 1e9), (HashEmbedder(16), 0.0)], ids=["quick", "no-guess"]
)
def test_quick_or_unestimated_embedding_builds_in_the_foreground(
    git_repo: GitRepoFactory, embedder: HashEmbedder, after: float
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", background_after=after)
    store, stats = load_or_build(root, settings, embedder=embedder, background=True)
    assert stats.dense_coverage is None
    assert not stats.cache_hit
    assert Path(stats.cache_path, "manifest.json").is_file()  # built here, now
    assert store.dense is not None
    assert not list(settings.cache_dir.glob(f"*/{background.PREFIX}*"))
    assert not (settings.home / "logs").exists()


def test_one_background_build_per_state(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    monkeypatch.setattr(background, "command", lambda _root, _settings: sleeper)
    first = background.start(root, settings, "shop-1", "a" * 64)
    second = background.start(root, settings, "shop-1", "a" * 64)
    other = background.start(root, settings, "shop-1", "b" * 64)  # another state: its own
    assert first is not None
    assert second is not None
    assert other is not None
    try:
        assert first.started_now
        assert not second.started_now
        assert other.started_now
        assert second.pid == first.pid
        assert other.pid != first.pid
        assert second.log == first.log == background.log_path(settings, "shop-1", "a" * 64)
        listed = {b.state: b.pid for b in background.running(settings, "shop-1")}
        assert listed == {"a" * 64: first.pid, "b" * 64: other.pid}
    finally:
        for pid in {first.pid, other.pid}:
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
    assert background.running(settings, "shop-1") == []  # the lock ended with its process
    again = background.start(root, settings, "shop-1", "a" * 64)
    assert again is not None
    assert again.started_now
    assert again.pid != first.pid
    os.kill(again.pid, signal.SIGTERM)
    os.waitpid(again.pid, 0)
