"""load_or_build() when things go wrong: another process holds the build lock too long, the
home is a file, the disk refuses a write mid-save (a real file-size limit on a real process),
the dense backend is unreachable, leftovers of an interrupted build lie in the cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.errors import CacheWriteError, IndexBuildError
from codeagent.index import background
from codeagent.index import build as build_module
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
}
# Enough code that the entry's chunk file is far over the file-size limit set below.
DOC = "doc " * 40
BIG = {f"pkg/m{i}.py": f'def f{i}(x):\n    """{DOC}"""\n    return x + {i}\n' for i in range(40)}
LIMIT = 8192  # bytes: the repository folder's marks fit, the entry's chunks.json does not

BUILD_UNDER_LIMIT = textwrap.dedent(
    """
    import resource, signal, sys
    from pathlib import Path
    from codeagent.config import Settings
    from codeagent.errors import CacheWriteError
    from codeagent.index.build import load_or_build

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), hard))
    try:
        load_or_build(Path(sys.argv[1]), Settings.load(embed="none"), force=True)
    except CacheWriteError as exc:
        print(exc)
        sys.exit(3)
    """
)


def hold_lock(lock: Path, ready: Path, seconds: float) -> subprocess.Popen[bytes]:
    """Another process holding ``lock`` for ``seconds`` (``ready`` appears once it does)."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time, pathlib\n"
            "from filelock import FileLock\n"
            "with FileLock(sys.argv[1]):\n"
            "    pathlib.Path(sys.argv[2]).touch()\n"
            "    time.sleep(float(sys.argv[3]))\n",
            str(lock),
            str(ready),
            str(seconds),
        ]
    )
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert time.monotonic() < deadline, "the lock holder never started"
        time.sleep(0.02)
    return holder


def repo_dir_names(settings: Settings, stats_path: str) -> set[str]:
    return {p.name for p in Path(stats_path).parent.iterdir()}


def test_a_lock_held_too_long_is_one_clear_error(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="none")
    _, stats = load_or_build(root, settings)  # learn where the repository's lock lives
    lock = Path(stats.cache_path).parent / ".lock"
    (root / "shop/new.py").write_text("def fresh():\n    return 1\n", encoding="utf-8")
    monkeypatch.setattr(build_module, "LOCK_TIMEOUT", 1.0)
    holder = hold_lock(lock, tmp_path / "locked", 30.0)
    try:
        started = time.monotonic()
        with pytest.raises(IndexBuildError) as caught:
            load_or_build(root, settings)
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait(10)
    assert 0.9 < waited < 20  # it waited the second, and no longer
    assert str(caught.value) == (
        f"another codeagent process has been indexing {root.resolve()} for over 1 s"
        f" (lock {lock}); try again later"
    )
    assert not isinstance(caught.value, CacheWriteError)
    _, after = load_or_build(root, settings)  # the lock is free again: built
    assert not after.cache_hit
    assert after.files_indexed == 3


def test_a_home_that_is_a_file_is_one_clear_error(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home-file"
    home.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("CODEAGENT_HOME", str(home))
    with pytest.raises(CacheWriteError) as caught:
        load_or_build(git_repo(FILES), Settings.load(embed="none"))
    message = str(caught.value)
    assert message.startswith(f"cannot write the index under CODEAGENT_HOME ({home}): ")
    assert "is a file, not a directory" in message


def test_a_write_refused_mid_save_leaves_no_entry_and_keeps_the_old_one(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(BIG)
    settings = Settings.load(embed="none")
    store, first = load_or_build(root, settings)
    entry = Path(first.cache_path)
    assert (entry / "chunks.json").stat().st_size > LIMIT  # the limit bites on this file
    before = {p.name: p.read_bytes() for p in entry.iterdir() if p.is_file()}

    done = subprocess.run(
        [sys.executable, "-c", BUILD_UNDER_LIMIT, str(root), str(LIMIT)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    home = settings.home
    assert done.stdout.startswith(f"cannot write the index under CODEAGENT_HOME ({home}): ")
    assert "Traceback" not in done.stderr
    # the forced rebuild failed while writing: the old entry is whole, nothing half-written
    assert {p.name for p in entry.parent.iterdir()} == {
        ".codeagent-index",
        ".gitignore",
        ".lock",
        first.state_hash,
    }
    assert {p.name: p.read_bytes() for p in entry.iterdir() if p.is_file()} == before
    again, hit = load_or_build(root, settings)
    assert hit.cache_hit
    assert [c.text for c in again.chunks] == [c.text for c in store.chunks]


def test_a_forced_rebuild_replaces_the_entry_and_leaves_nothing_beside_it(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    _, first = load_or_build(root, settings)
    entry = Path(first.cache_path)
    (entry / "stray.txt").write_text("left by the old entry\n", encoding="utf-8")
    created = (entry / "manifest.json").stat().st_mtime_ns
    _, forced = load_or_build(root, settings, force=True)
    assert forced.cache_path == first.cache_path
    assert not forced.cache_hit
    assert not (entry / "stray.txt").exists()  # a new folder, not the old one written over
    assert (entry / "manifest.json").stat().st_mtime_ns > created
    assert repo_dir_names(settings, forced.cache_path) == {
        ".codeagent-index",
        ".gitignore",
        ".lock",
        first.state_hash,
    }
    _, hit = load_or_build(root, settings)
    assert hit.cache_hit


def test_leftovers_of_an_interrupted_build_are_removed_by_the_next(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="none")
    _, first = load_or_build(root, settings)
    repo_dir = Path(first.cache_path).parent
    leftover = repo_dir / "tmp-interrupted"
    (leftover / "bm25").mkdir(parents=True)
    (leftover / "chunks.json").write_text("[", encoding="utf-8")
    (root / "shop/new.py").write_text("def fresh():\n    return 1\n", encoding="utf-8")
    _, second = load_or_build(root, settings)
    assert not leftover.exists()
    assert second.files_reused == 2  # reused from the first state, not from the leftover
    assert {p.name for p in repo_dir.iterdir() if p.is_dir()} == {
        first.state_hash,
        second.state_hash,
    }


def test_an_unreachable_dense_backend_answers_from_bm25_and_caches_nothing(
    git_repo: GitRepoFactory,
) -> None:
    pytest.importorskip("pymilvus")
    root = git_repo(FILES)
    _, kept = load_or_build(root, Settings.load(embed="hash:16", keep_states=1))
    settings = Settings.load(embed="hash:16", keep_states=1, dense="milvus:http://127.0.0.1:1")
    store, stats = load_or_build(root, settings)
    assert not stats.cache_hit
    [said] = stats.notices
    assert "127.0.0.1:1" in said
    assert said.endswith("; answering from BM25 + symbols without dense search")
    assert store.search("add_to_cart", k=1)[0].path == "shop/cart.py"
    repo_dir = Path(stats.cache_path).parent
    # nothing written for this state, and the earlier one not pruned by a build that failed
    assert {p.name for p in repo_dir.iterdir() if p.is_dir()} == {kept.state_hash}
    _, again = load_or_build(root, settings)
    assert not again.cache_hit


class SlowHash(HashEmbedder):
    """Hash vectors with an estimate saying embedding will be slow: would answer first."""

    def estimate_seconds(self, texts: list[str]) -> float:
        return 60.0 * len(texts)


def test_a_forced_or_bm25_only_build_never_answers_first(git_repo: GitRepoFactory) -> None:
    """``background`` only matters for a missing entry with an embedder: force rebuilds here,
    now, and so does a BM25-only index (nothing to embed)."""
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16")
    _, first = load_or_build(root, settings, embedder=SlowHash(16))  # background not asked
    assert (first.dense_coverage, first.chunks_embedded) == (None, first.chunks)
    embed_cache = settings.embed_cache_dir
    assert embed_cache.is_dir()
    shutil.rmtree(embed_cache)  # nothing cached: answering first would be chosen if allowed
    store, forced = load_or_build(
        root, settings, embedder=SlowHash(16), background=True, force=True
    )
    assert forced.dense_coverage is None
    assert not forced.cache_hit
    assert forced.chunks_embedded == forced.chunks  # embedded here, now
    assert store.dense is not None
    assert background.running(settings, forced.repo_id) == []
    assert not list(settings.cache_dir.glob(f"*/{background.PREFIX}*"))

    _, bm25 = load_or_build(root, settings, embedder=None, background=True)
    assert (bm25.dense_coverage, bm25.cache_hit) == (None, False)
    assert Path(bm25.cache_path, "manifest.json").is_file()
    assert not list(settings.cache_dir.glob(f"*/{background.PREFIX}*"))
