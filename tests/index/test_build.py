"""load_or_build(): caching by state, incremental embedding, interruption, damage, locking."""

from __future__ import annotations

import hashlib
import logging
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.errors import EmptyRepoError
from codeagent.index import build as build_module
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from conftest import GitRepoFactory, git

MODELS = '''"""Models of the shop."""
import dataclasses


def price(item):
    return item.cost * 2


def discount(item, rate):
    return price(item) * (1 - rate)
'''  # chunks: <module> 1-2, price 5-6, discount 9-10

FILES = {
    "shop/models.py": MODELS,
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
    "shop/__init__.py": '"""Shop."""\n',
    "README.md": "# Shop\n\nA tiny shop.\n",
    "tests/test_models.py": "def test_price():\n    assert True\n",
}


class CountingEmbedder(HashEmbedder):
    def __init__(self, dim: int = 32) -> None:
        super().__init__(dim)
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed_documents(texts)


@pytest.fixture
def embedder(monkeypatch: pytest.MonkeyPatch) -> CountingEmbedder:
    counting = CountingEmbedder()
    monkeypatch.setattr(build_module, "make_embedder", lambda spec, settings: counting)
    return counting


def settings(**overrides: object) -> Settings:
    return Settings.load(embed="hash:32", **overrides)


def entries(settings: Settings) -> list[Path]:
    return sorted(p for p in settings.cache_dir.glob("*/*") if p.is_dir())


def embed_hashes(root: Path) -> set[str]:
    """sha256 of every chunk's embedded text, straight from the chunker."""
    out = set()
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".git" not in path.parts:
            rel = path.relative_to(root).as_posix()
            for chunk in chunk_file(rel, path.read_text(encoding="utf-8")):
                out.add(hashlib.sha256(chunk.embed_text.encode()).hexdigest())
    return out


def test_first_build_then_cache_hit(git_repo: GitRepoFactory, embedder: CountingEmbedder) -> None:
    root = git_repo(FILES)
    store, stats = load_or_build(root, settings())
    assert stats.files_indexed == 5
    assert stats.chunks == 3 + 1 + 1 + 1 + 1 == len(store.chunks)
    assert (stats.chunks_embedded, stats.chunks_reused, stats.cache_hit) == (7, 0, False)
    assert Path(stats.cache_path).is_dir()
    assert Path(stats.cache_path).parent.name == stats.repo_id
    assert set(stats.seconds) == {"discover", "chunk", "embed", "bm25", "dense", "save", "total"}
    again, stats2 = load_or_build(root, settings())
    assert stats2.cache_hit
    assert (stats2.chunks, stats2.chunks_embedded, stats2.chunks_reused) == (7, 0, 7)
    assert stats2.state_hash == stats.state_hash
    assert len(embedder.texts) == 7
    assert again.search("discount", k=1)[0].symbol == "discount"


def test_one_function_edit_embeds_only_that_chunk(
    git_repo: GitRepoFactory, embedder: CountingEmbedder
) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, settings())
    before = embed_hashes(root)
    models = root / "shop/models.py"
    models.write_text(MODELS.replace("cost * 2", "cost * 3"), encoding="utf-8")
    embedder.texts.clear()
    store, stats = load_or_build(root, settings())
    changed = embed_hashes(root) - before
    assert stats.chunks_embedded == 1 == len(changed)  # hand-known: only `price` changed
    assert embedder.texts == [c.embed_text for c in store.chunks if c.symbol == "price"]
    assert stats.chunks_reused == 6
    assert stats.state_hash != first.state_hash
    # Committing the edit is another state with the same content: nothing new to embed.
    git(root, "commit", "-qam", "edit")
    _, committed = load_or_build(root, settings())
    assert (committed.cache_hit, committed.chunks_embedded) == (False, 0)


def test_untracked_file_changes_state(git_repo: GitRepoFactory, embedder: CountingEmbedder) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, settings())
    (root / "shop/new.py").write_text("def fresh():\n    return 1\n", encoding="utf-8")
    _, second = load_or_build(root, settings())
    assert second.state_hash != first.state_hash
    assert (second.files_indexed, second.chunks_embedded) == (6, 1)


def test_force_rebuilds_in_place(git_repo: GitRepoFactory, embedder: CountingEmbedder) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, settings())
    _, forced = load_or_build(root, settings(), force=True)
    assert not forced.cache_hit
    assert forced.chunks_reused == 7
    assert [p.name for p in entries(settings())] == [first.state_hash]


def test_bm25_only(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    store, stats = load_or_build(root, Settings.load(embed="none"))
    assert (stats.embedder, stats.chunks_embedded, stats.chunks_reused) == ("none", 0, 0)
    assert store.search("add_to_cart", k=1)[0].path == "shop/cart.py"
    _, again = load_or_build(root, Settings.load(embed="none"))
    assert again.cache_hit


def test_empty_repository(git_repo: GitRepoFactory) -> None:
    root = git_repo({}, commit=False)
    with pytest.raises(EmptyRepoError, match="no indexable files in"):
        load_or_build(root, settings())


def test_only_binaries(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.bin": b"\x00\x01\x02", "b.png": b"\x89PNG\x00\x00"})
    with pytest.raises(EmptyRepoError, match="2 binary"):
        load_or_build(root, settings())


def test_unreadable_file_is_skipped_and_counted(
    git_repo: GitRepoFactory, embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from codeagent.repo.discover import RepoFile

    root = git_repo(FILES)
    original = RepoFile.read_text

    def read_text(self: RepoFile) -> str:
        if self.path == "shop/cart.py":
            raise PermissionError(13, "Permission denied", str(self.abs_path))
        return original(self)

    monkeypatch.setattr(RepoFile, "read_text", read_text)
    _, stats = load_or_build(root, settings())
    assert stats.files_indexed == 4
    assert stats.files_skipped.get("unreadable") == 1
    assert stats.chunks == 6


def test_interrupted_build_leaves_no_entry_and_keeps_finished_batches(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {f"pkg/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(10)}
    root = git_repo(files)

    class Interrupting(CountingEmbedder):
        def embed_documents(self, texts: list[str]) -> np.ndarray:
            if len(self.texts) >= 6:  # after two batches of three
                raise KeyboardInterrupt
            return super().embed_documents(texts)

    monkeypatch.setattr(build_module, "make_embedder", lambda spec, s: Interrupting())
    with pytest.raises(KeyboardInterrupt):
        load_or_build(root, settings(batch_size=3))
    repo_dirs = list(settings().cache_dir.iterdir())
    names = sorted(p.name for p in repo_dirs[0].iterdir())
    assert names == [".codeagent-index", ".gitignore", ".lock"]  # nothing half-written

    rerun = CountingEmbedder()
    monkeypatch.setattr(build_module, "make_embedder", lambda spec, s: rerun)
    _, stats = load_or_build(root, settings(batch_size=3))
    assert (stats.chunks, stats.chunks_embedded, stats.chunks_reused) == (10, 4, 6)


def test_damaged_entry_is_rebuilt(
    git_repo: GitRepoFactory, embedder: CountingEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, settings())
    (Path(first.cache_path) / "chunks.json").write_text("[", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        store, again = load_or_build(root, settings())
    assert not again.cache_hit
    assert "rebuilding" in caplog.text
    assert len(store.chunks) == 7
    _, third = load_or_build(root, settings())
    assert third.cache_hit


def test_old_states_are_pruned(git_repo: GitRepoFactory, embedder: CountingEmbedder) -> None:
    root = git_repo(FILES)
    hashes = []
    for i in range(4):
        (root / "shop/cart.py").write_text(f"def add_to_cart():\n    return {i}\n", "utf-8")
        _, stats = load_or_build(root, settings(keep_states=2))
        hashes.append(stats.state_hash)
        time.sleep(0.01)
    assert {p.name for p in entries(settings())} == set(hashes[-2:])


def test_a_second_builder_waits_for_the_lock(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    root = git_repo(FILES)
    _, stats = load_or_build(root, Settings.load(embed="none"))  # learn the repo's cache dir
    lock_path = Path(stats.cache_path).parent / ".lock"
    ready = tmp_path / "locked"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time, pathlib\n"
            "from filelock import FileLock\n"
            "with FileLock(sys.argv[1]):\n"
            "    pathlib.Path(sys.argv[2]).touch()\n"
            "    time.sleep(1.5)\n",
            str(lock_path),
            str(ready),
        ]
    )
    try:
        while not ready.exists():
            time.sleep(0.05)
        started = time.perf_counter()
        _, waited = load_or_build(root, settings())
        assert time.perf_counter() - started > 0.8  # it waited for the other process
        assert not waited.cache_hit
    finally:
        holder.wait(10)
