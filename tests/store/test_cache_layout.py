"""The cache's bookkeeping on a layout written by hand: which folders are codeagent's, what a
listing reports, which states pruning keeps, and what clearing leaves alone (a folder
codeagent did not make, a repository whose index is being built)."""

from __future__ import annotations

import errno
import json
import logging
import os
import time
from pathlib import Path

import pytest
from filelock import FileLock

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.store import cache
from conftest import GitRepoFactory


def make_repo(settings: Settings, name: str, states: dict[str, float], repo: str = "") -> Path:
    """A marked repository folder with one state folder per name, its mtime as given."""
    repo_dir = settings.cache_dir / name
    cache.make_repo_dir(repo_dir)
    for state, mtime in states.items():
        (repo_dir / state).mkdir()
        (repo_dir / state / "manifest.json").write_text(json.dumps({"repo": repo or name}))
        (repo_dir / state / "chunks.json").write_bytes(b"x" * 1000)
        os.utime(repo_dir / state, (mtime, mtime))
    return repo_dir


def test_a_repository_folder_is_marked_and_hidden(tmp_path: Path) -> None:
    settings = Settings.load()
    repo_dir = settings.cache_dir / "r-1"
    cache.make_repo_dir(repo_dir)
    assert (repo_dir / cache.OWNER_MARK).read_text(encoding="utf-8") == (
        "made by codeagent: `codeagent cache clear` may delete this folder\n"
    )
    ignore = (repo_dir / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ignore[-1] == "*"  # a home inside a repository is not indexed with it
    assert cache.is_owned(repo_dir)
    cache.make_repo_dir(repo_dir)  # again: nothing changes, nothing fails
    assert cache.is_owned(repo_dir)


def test_only_marked_real_folders_are_codeagents(tmp_path: Path) -> None:
    settings = Settings.load()
    owned = make_repo(settings, "owned-1", {})
    (settings.cache_dir / "stranger").mkdir()
    (settings.cache_dir / "loose-file").write_text("x")
    (settings.cache_dir / "link").symlink_to(owned, target_is_directory=True)
    assert cache.foreign(settings) == sorted(
        settings.cache_dir / n for n in ("link", "loose-file", "stranger")
    )
    assert [r.repo_id for r in cache.list_repos(settings)] == ["owned-1"]


def test_a_listing_reports_states_size_and_the_newest(tmp_path: Path) -> None:
    settings = Settings.load()
    make_repo(settings, "old-1", {"s1": 1_000_000.0}, repo="/code/old")
    new = make_repo(settings, "new-1", {"a": 2_000_000.0, "b": 3_000_000.0}, repo="/code/new")
    (new / "tmp-unfinished").mkdir()
    (new / "b" / "manifest.json").write_text(json.dumps({"repo": "/code/new-b"}))
    listed = cache.list_repos(settings)
    assert [r.repo_id for r in listed] == ["new-1", "old-1"]  # the most recently used first
    first = listed[0]
    assert (first.states, first.newest, first.repo) == (2, 3_000_000.0, "/code/new-b")
    on_disk = sum(p.stat().st_size for p in new.rglob("*") if p.is_file())
    assert first.size == on_disk
    assert first.to_json() == {
        "repo_id": "new-1",
        "repo": "/code/new-b",
        "states": 2,
        "size_bytes": on_disk,
        "newest": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(3_000_000.0)),
        "path": str(new),
    }


def test_an_empty_or_unreadable_repository_entry(tmp_path: Path) -> None:
    settings = Settings.load()
    make_repo(settings, "empty-1", {})
    broken = make_repo(settings, "broken-1", {"s": 5.0})
    (broken / "s" / "manifest.json").write_text("[1, 2")
    by_id = {r.repo_id: r for r in cache.list_repos(settings)}
    assert (by_id["empty-1"].states, by_id["empty-1"].newest, by_id["empty-1"].repo) == (0, 0, "")
    assert by_id["empty-1"].to_json()["newest"] is None
    assert by_id["broken-1"].repo == ""
    (broken / "s" / "manifest.json").write_text("[1, 2]")  # JSON, but not an object
    assert {r.repo_id: r for r in cache.list_repos(settings)}["broken-1"].repo == ""


def states_of(repo_dir: Path) -> list[str]:
    return [p.name for p in cache.states(repo_dir)]


def test_pruning_keeps_the_newest_and_the_state_in_use(tmp_path: Path) -> None:
    settings = Settings.load()
    times = {f"s{n}": 1_000_000.0 + n for n in range(5)}  # s4 is the newest
    repo_dir = make_repo(settings, "r-1", times)
    assert states_of(repo_dir) == ["s4", "s3", "s2", "s1", "s0"]
    assert cache.prune_repo(repo_dir, 4, keep_name="s3") == 1  # s3 is among the newest 4
    assert states_of(repo_dir) == ["s4", "s3", "s2", "s1"]
    assert cache.prune_repo(repo_dir, 2, keep_name="s1") == 2  # s1 and the newest one stay
    assert states_of(repo_dir) == ["s4", "s1"]
    assert cache.prune_repo(repo_dir, 1, keep_name="s1") == 1
    assert states_of(repo_dir) == ["s1"]
    assert cache.prune_repo(repo_dir, 5) == 0
    assert cache.prune_repo(repo_dir, 0) == 1
    assert states_of(repo_dir) == []


def test_a_repository_being_built_is_skipped_by_prune_and_clear(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings.load()
    busy = make_repo(settings, "busy-1", {"a": 1.0, "b": 2.0, "c": 3.0})
    idle = make_repo(settings, "idle-1", {"a": 1.0, "b": 2.0, "c": 3.0})
    (idle / "tmp-cut-off").mkdir()
    (settings.cache_dir / "stranger").mkdir()
    with FileLock(str(busy / cache.LOCK_NAME)), caplog.at_level(logging.WARNING):
        assert cache.prune(settings, keep=1) == 2
        assert states_of(busy) == ["c", "b", "a"]
        assert states_of(idle) == ["c"]
        assert not (idle / "tmp-cut-off").exists()
        assert cache.clear(settings) == (1, 0)
        assert busy.is_dir()
        assert not idle.exists()
    assert [r.getMessage() for r in caplog.records] == [
        "skipping busy-1: an index is being built",
        "skipping busy-1: an index is being built",
    ]
    assert (settings.cache_dir / "stranger").is_dir()  # never codeagent's to delete
    assert cache.prune(settings) == 0  # keep_states (3) of busy-1's three: none go
    assert cache.clear(settings) == (1, 0)
    assert not busy.exists()


def test_a_repository_folder_that_cannot_be_written_is_a_permission_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(root writes anywhere, so the read-only mount is stood in for by os.access)"""
    repo_dir = Settings.load().cache_dir / "ro-1"
    monkeypatch.setattr("codeagent.store.cache.os.access", lambda _path, _mode: False)
    with pytest.raises(PermissionError) as refused:
        cache.make_repo_dir(repo_dir)
    assert refused.value.errno == errno.EACCES
    assert refused.value.strerror == "Permission denied"
    assert refused.value.filename == str(repo_dir)


def test_opening_an_entry(git_repo: GitRepoFactory, caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings.load(embed="none")
    store, stats = load_or_build(git_repo({"a.py": "def a():\n    return 1\n"}), settings)
    entry = Path(stats.cache_path)
    opened = cache.open_entry(entry, None)
    assert opened is not None
    assert [c.path for c in opened.chunks] == [c.path for c in store.chunks]
    assert cache.open_entry(entry.parent / "no-such-state", None) is None
    (entry / "manifest.json").write_text("{}", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert cache.open_entry(entry, None) is None
    assert caplog.records[-1].getMessage() == f"index at {entry} is incomplete; rebuilding it"


def test_touch_marks_an_entry_as_just_used(tmp_path: Path) -> None:
    entry = tmp_path / "state"
    entry.mkdir()
    os.utime(entry, (1_000_000, 1_000_000))
    cache.touch(entry)
    assert entry.stat().st_mtime > time.time() - 60
    cache.touch(tmp_path / "gone")  # a state pruned meanwhile: nothing to do, no error


def test_leftovers_that_cannot_be_deleted_do_not_stop_a_prune(tmp_path: Path) -> None:
    settings = Settings.load(keep_states=1)
    repo_dir = make_repo(settings, "r-1", {"old": 1.0, "older": 0.5, "new": 2.0})
    (repo_dir / "tmp-stray").write_text("a file, not a build folder")
    (tmp_path / "elsewhere").mkdir()
    (repo_dir / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    os.utime(repo_dir / "linked", (0.1, 0.1), follow_symlinks=False)
    os.utime(tmp_path / "elsewhere", (0.1, 0.1))
    (repo_dir / "new" / "dangling").symlink_to(tmp_path / "nothing")  # a size of nothing
    cache.prune(settings)  # keep_states=1: only the newest stays
    assert "new" in states_of(repo_dir)
    assert not (repo_dir / "old").exists()
    assert not (repo_dir / "older").exists()
    assert (tmp_path / "elsewhere").is_dir()  # a link is never followed to delete
    (listed,) = cache.list_repos(settings)
    assert listed.size == sum(
        p.stat().st_size for p in repo_dir.rglob("*") if p.is_file() and not p.is_symlink()
    )


def test_a_manifest_without_a_repository_names_none(tmp_path: Path) -> None:
    settings = Settings.load()
    repo_dir = make_repo(settings, "r-1", {"s": 1.0})
    (repo_dir / "s" / "manifest.json").write_text("{}", encoding="utf-8")
    (listed,) = cache.list_repos(settings)
    assert listed.repo == ""


def test_an_entry_opens_with_the_embedder_it_was_built_with(git_repo: GitRepoFactory) -> None:
    from codeagent.embed.embedders import make_embedder

    settings = Settings.load(embed="hash:16")
    _, stats = load_or_build(git_repo({"a.py": "def a():\n    return 1\n"}), settings)
    entry = Path(stats.cache_path)
    embedder = make_embedder("hash:16", settings)
    assert embedder is not None
    opened = cache.open_entry(entry, embedder)
    assert opened is not None
    assert opened.embedder is embedder
    assert cache.open_entry(entry, None) is None  # built with vectors: not a BM25-only entry
