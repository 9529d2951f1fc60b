"""Where load_or_build() writes: a build killed mid-save (by the kernel, at a real file-size
limit) leaves only a ``tmp-*`` folder beside the entries, which is no state and which the next
build removes; a system temp folder on another file system changes nothing (the entry is
written beside its final place and renamed); an embedding cache that cannot be opened is one
line naming CODEAGENT_HOME."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.errors import CacheWriteError
from codeagent.index.build import load_or_build
from codeagent.store import cache as index_cache
from conftest import GitRepoFactory

DOC = "doc " * 40
BIG = {f"pkg/m{i}.py": f'def f{i}(x):\n    """{DOC}"""\n    return x + {i}\n' for i in range(40)}
LIMIT = 8192  # bytes: the repository folder's marks fit, the entry's chunks.json does not

KILLED_MID_SAVE = textwrap.dedent(
    """
    import resource, signal, sys
    from pathlib import Path
    from codeagent.config import Settings
    from codeagent.index.build import load_or_build

    # SIGXFSZ back to its default action (Python ignores it): the kernel ends the process at
    # the first write past the limit, as a crash or a kill would, with no Python cleanup
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), hard))
    load_or_build(Path(sys.argv[1]), Settings.load(embed="none"), force=True)
    """
)


def folders(repo_dir: Path) -> set[str]:
    return {p.name for p in repo_dir.iterdir() if p.is_dir()}


def test_a_build_killed_mid_save_leaves_a_temporary_the_next_build_removes(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(BIG)
    settings = Settings.load(embed="none")
    _, first = load_or_build(root, settings)
    repo_dir = Path(first.cache_path).parent
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_SAVE, str(root), str(LIMIT)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert done.returncode == -signal.SIGXFSZ, done.stderr
    [leftover] = folders(repo_dir) - {first.state_hash}
    assert leftover.startswith("tmp-")  # what an interrupted build is known by
    assert (repo_dir / leftover / "chunks.json").is_file()  # cut short mid-save
    assert index_cache.states(repo_dir) == [Path(first.cache_path)]  # not taken for a state
    _, hit = load_or_build(root, settings)  # the old entry still serves
    assert hit.cache_hit
    _, rebuilt = load_or_build(root, settings, force=True)
    assert folders(repo_dir) == {first.state_hash}  # the leftover went with the next build
    assert not rebuilt.cache_hit


def test_a_temp_folder_on_another_file_system_changes_nothing(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rename cannot cross file systems: the entry must be written beside its final place,
    whatever the system's temp folder is."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or shm.stat().st_dev == Path(tempfile.gettempdir()).stat().st_dev:
        pytest.skip("needs a tmpfs apart from the test's temp folder")
    root = git_repo(BIG)
    settings = Settings.load(embed="hash:16")
    _, first = load_or_build(root, settings)
    elsewhere = Path(tempfile.mkdtemp(dir=shm))
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(elsewhere))
        (root / "pkg/m0.py").write_text("def f0(x):\n    return x\n", encoding="utf-8")
        _, second = load_or_build(root, settings)
        _, forced = load_or_build(root, settings, force=True)  # the old entry set aside too
        assert list(elsewhere.iterdir()) == []
    finally:
        monkeypatch.undo()
        for path in sorted(elsewhere.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
        elsewhere.rmdir()
    assert not second.cache_hit
    assert not forced.cache_hit
    repo_dir = Path(first.cache_path).parent
    assert folders(repo_dir) == {first.state_hash, second.state_hash}
    _, hit = load_or_build(root, settings)
    assert (hit.cache_hit, hit.state_hash) == (True, second.state_hash)


def test_an_embedding_cache_that_cannot_be_opened_names_the_home(
    git_repo: GitRepoFactory,
) -> None:
    settings = Settings.load(embed="hash:16")
    settings.home.mkdir(parents=True, exist_ok=True)
    settings.embed_cache_dir.write_text("a file where the cache folder goes\n", encoding="utf-8")
    with pytest.raises(CacheWriteError) as caught:
        load_or_build(git_repo(BIG), settings)
    assert str(caught.value).startswith(
        f"cannot write the embedding cache under CODEAGENT_HOME ({settings.home}): "
    )


def test_the_state_just_built_survives_its_own_prune(git_repo: GitRepoFactory) -> None:
    """Another process used an older state after this build saved (its mark is newer): with
    one state kept, the one just built is the one kept."""
    root = git_repo(BIG)
    settings = Settings.load(embed="none", keep_states=1)
    _, older = load_or_build(root, settings)
    later = time.time() + 3600
    os.utime(older.cache_path, (later, later))  # used after the next build saves
    (root / "pkg/m0.py").write_text("def f0(x):\n    return x\n", encoding="utf-8")
    _, newest = load_or_build(root, settings)
    assert folders(Path(newest.cache_path).parent) == {newest.state_hash}
    _, hit = load_or_build(root, settings)
    assert (hit.cache_hit, hit.state_hash) == (True, newest.state_hash)


def immutable(path: Path, on: bool) -> bool:
    """chattr +i / -i (even root cannot delete an immutable file); False where unsupported."""
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def test_an_old_entry_that_cannot_be_deleted_does_not_stop_a_rebuild(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(BIG)
    settings = Settings.load(embed="none")
    _, first = load_or_build(root, settings)
    stuck = Path(first.cache_path) / "stuck.txt"
    stuck.write_text("cannot be deleted\n", encoding="utf-8")
    if not immutable(stuck, True):
        pytest.skip("chattr +i is not available here")
    try:
        _, forced = load_or_build(root, settings, force=True)
        assert not forced.cache_hit
        assert not (Path(forced.cache_path) / "stuck.txt").exists()  # the new entry
        _, hit = load_or_build(root, settings)
        assert hit.cache_hit
        assert len(list(Path(first.cache_path).parent.glob("tmp-*/*/stuck.txt"))) == 1
    finally:
        for path in Path(first.cache_path).parent.rglob("stuck.txt"):
            immutable(path, False)
