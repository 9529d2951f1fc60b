"""Builds side by side, with real processes: a build that waited for the lock while another
process finished the same state opens that entry instead of building it again; a cache hit
never waits for a build in progress; an answer-first call that ends up building here chunks
once. Each on the default dense backend and on Milvus Lite at a path of its own (a backend
whose class carries its configuration)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index import build as build_module
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n\n\n"
    "def discount(item, rate):\n    return price(item) * (1 - rate)\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
    "README.md": "# Shop\n\nA tiny shop.\n",
}

HOLDER = """
import os, sys, time, pathlib
from filelock import FileLock
lock, ready, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
with FileLock(lock):
    pathlib.Path(ready).touch()
    time.sleep(seconds)
    if len(sys.argv) > 4:  # finish "building": the entry appears while the lock is held
        os.replace(sys.argv[4], sys.argv[5])
"""


def hold(lock: Path, ready: Path, seconds: float, *move: Path) -> subprocess.Popen[bytes]:
    """Another process holding ``lock`` for ``seconds``, then moving ``move[0]`` to
    ``move[1]`` before it lets go."""
    args = [sys.executable, "-c", HOLDER, str(lock), str(ready), str(seconds), *map(str, move)]
    holder = subprocess.Popen(args)
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert time.monotonic() < deadline, "the lock holder never started"
        time.sleep(0.02)
    return holder


@pytest.fixture(params=["default", "milvus"])
def dense(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | None]:
    if request.param == "default":
        yield None
        return
    pytest.importorskip("milvus_lite")
    from codeagent.store.milvus_client import close_clients

    close_clients()
    yield f"milvus:{tmp_path / 'milvus' / 'vectors.db'}"
    close_clients()


def created(entry: Path) -> float:
    return float(json.loads((entry / "manifest.json").read_text(encoding="utf-8"))["created"])


def test_a_state_finished_by_another_process_meanwhile_is_opened(
    git_repo: GitRepoFactory, tmp_path: Path, dense: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", dense=dense)
    _, built = load_or_build(root, settings)
    entry = Path(built.cache_path)
    first = created(entry)
    aside = tmp_path / "aside"
    os.replace(entry, aside)  # not there yet when the second build looks
    holder = hold(entry.parent / ".lock", tmp_path / "ready", 1.0, aside, entry)
    try:
        with caplog.at_level(logging.WARNING):
            store, waited = load_or_build(root, settings)
    finally:
        holder.wait(30)
    assert waited.cache_hit  # opened as the other process left it, not built again
    assert created(entry) == first
    assert (waited.chunks, waited.chunks_embedded) == (built.chunks, 0)
    assert store.dense is not None
    assert [store.chunks[i].symbol for i, _s in store.dense_scores("add_to_cart", 1)]
    assert "rebuilding" not in caplog.text


def test_a_cache_hit_never_waits_for_a_build_in_progress(
    git_repo: GitRepoFactory,
    tmp_path: Path,
    dense: str | None,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", dense=dense)
    _, built = load_or_build(root, settings)
    monkeypatch.setattr(build_module, "LOCK_TIMEOUT", 10.0)
    holder = hold(Path(built.cache_path).parent / ".lock", tmp_path / "ready", 30.0)
    try:
        started = time.monotonic()
        with caplog.at_level(logging.WARNING):
            store, hit = load_or_build(root, settings)
        took = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait(10)
    assert hit.cache_hit
    assert took < 8.0  # it never waited out the lock
    assert store.embedder is not None
    assert store.dense_scores("price of an item", 3)  # the vectors it was built with
    assert "rebuilding" not in caplog.text


class Recorder:
    """Counts the phases a build reports."""

    def __init__(self) -> None:
        self.tasks: list[str] = []

    def task(self, description: str, total: int | None, *, expect: float | None = None) -> object:
        from contextlib import nullcontext

        self.tasks.append(description)
        return nullcontext(lambda _n: None)


def test_answer_first_declined_chunks_once(git_repo: GitRepoFactory) -> None:
    """background asked, but embedding is quick (no estimate): built here, from the chunks
    already made for the decision."""
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    load_or_build(root, settings)
    (root / "shop/orders.py").write_text("def order():\n    return 1\n", encoding="utf-8")
    progress = Recorder()
    _, stats = load_or_build(
        root, settings, embedder=HashEmbedder(16), background=True, progress=progress
    )
    assert (stats.cache_hit, stats.dense_coverage) == (False, None)
    assert stats.files_reused == len(FILES)  # counted once
    assert progress.tasks.count("chunking") == 1
    assert Path(stats.cache_path, "manifest.json").is_file()


class SlowHash(HashEmbedder):
    """Hash vectors (the id the background `codeagent index --embed hash:16` uses) with an
    estimate saying embedding will be slow: answer first."""

    def estimate_seconds(self, texts: list[str]) -> float:
        return 60.0 * len(texts)


def test_an_answer_given_first_reports_its_time(git_repo: GitRepoFactory) -> None:
    from codeagent.index import background
    from codeagent.index.stats import PHASES

    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    started = time.monotonic()
    _, stats = load_or_build(root, settings, embedder=SlowHash(16), background=True)
    took = time.monotonic() - started
    try:
        assert stats.dense_coverage == 0.0  # answered first
        assert set(stats.seconds) == set(PHASES)
        assert 0.0 < stats.seconds["chunk"] <= stats.seconds["total"] <= took
    finally:  # the detached build ends on its own; wait for it
        deadline = time.monotonic() + 120
        while background.running(settings, stats.repo_id):
            assert time.monotonic() < deadline, "the background build never ended"
            time.sleep(0.1)
