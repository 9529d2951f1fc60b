"""The index cache: listing, pruning, clearing."""

from __future__ import annotations

import os
from pathlib import Path

from codeagent.config import Settings
from codeagent.embed.cache import EmbedCache
from codeagent.index.build import load_or_build
from codeagent.store import cache
from conftest import GitRepoFactory


def build_states(root: Path, settings: Settings, n: int) -> list[str]:
    hashes = []
    for i in range(n):
        (root / "a.py").write_text(f"def a():\n    return {i}\n", encoding="utf-8")
        _, stats = load_or_build(root, settings)
        os.utime(stats.cache_path, (1_000_000 + i, 1_000_000 + i))  # distinct, ordered
        hashes.append(stats.state_hash)
    return hashes


def test_list_prune_clear(git_repo: GitRepoFactory) -> None:
    settings = Settings.load(embed="hash:16", keep_states=5)
    one, two = git_repo({"a.py": "x = 1\n"}), git_repo({"a.py": "y = 2\n"})
    hashes = build_states(one, settings, 4)
    build_states(two, settings, 1)
    listed = {r.repo: r for r in cache.list_repos(settings)}
    assert set(listed) == {str(one), str(two)}
    assert listed[str(one)].states == 4
    assert listed[str(one)].size > 0
    assert listed[str(one)].to_json()["newest"].startswith("1970-01-")

    assert cache.prune(settings, keep=2) == 2
    left = {p.name for p in cache.states(listed[str(one)].path)}
    assert left == set(hashes[-2:])  # the most recently used two
    assert cache.list_repos(settings)[0].states in (1, 2)

    assert (settings.embed_cache_dir).is_dir()
    assert cache.clear(settings) == (2, 0)
    assert cache.list_repos(settings) == []
    with EmbedCache(settings.embed_cache_dir) as vectors:
        assert len(vectors) > 0
    repos, removed = cache.clear(settings, embeddings=True)
    assert repos == 0
    assert removed > 0


def test_interrupted_leftovers_are_removed_by_prune(git_repo: GitRepoFactory) -> None:
    settings = Settings.load(embed="none")
    _, stats = load_or_build(git_repo({"a.py": "x = 1\n"}), settings)
    leftover = Path(stats.cache_path).parent / "tmp-abc123"
    (leftover / "bm25").mkdir(parents=True)
    assert cache.prune(settings) == 0
    assert not leftover.exists()
    assert Path(stats.cache_path).is_dir()


def test_empty_cache_lists_nothing() -> None:
    settings = Settings.load()
    assert cache.list_repos(settings) == []
    assert cache.prune(settings) == 0
    assert cache.clear(settings, embeddings=True) == (0, 0)


def test_an_unfinished_build_is_not_a_state(git_repo: GitRepoFactory) -> None:
    """A ``tmp-*`` folder (a build still running, or one cut off) is never listed, counted or
    served as a state, however recent."""
    settings = Settings.load(embed="none")
    root = git_repo({"a.py": "x = 1\n"})
    _, stats = load_or_build(root, settings)
    repo_dir = Path(stats.cache_path).parent
    os.utime(stats.cache_path, (1_000_000, 1_000_000))
    unfinished = repo_dir / "tmp-0123abcd"
    (unfinished / "bm25").mkdir(parents=True)  # newer than the finished state
    assert [p.name for p in cache.states(repo_dir)] == [stats.state_hash]
    (listed,) = cache.list_repos(settings)
    assert listed.states == 1
    assert unfinished.is_dir()  # listing removes nothing


def test_prune_keep_zero_removes_every_state(git_repo: GitRepoFactory) -> None:
    """``--keep 0`` is a number, not "the default": every state of every repository goes
    (the folders a build made are the truth)."""
    settings = Settings.load(embed="none", keep_states=3)
    one, two = git_repo({"a.py": "x = 1\n"}), git_repo({"a.py": "y = 2\n"})
    build_states(one, settings, 2)
    build_states(two, settings, 1)
    folders = [r.path for r in cache.list_repos(settings)]
    assert sum(len(cache.states(f)) for f in folders) == 3
    assert cache.prune(settings, keep=0) == 3
    assert all(cache.states(f) == [] for f in folders)
    assert cache.prune(settings, keep=0) == 0
