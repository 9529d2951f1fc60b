"""git's index read through a refreshed private copy (``codeagent.repo.index_copy``): git's
own output on the repository's index is the truth, in every state a work tree can be in; the
repository's ``.git`` is byte for byte as it was; the copy's entries are no longer racy; and
no filter driver of the repository's configuration runs, with or without the copy (nor when a
local checkout is asked whether it is at a commit)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import quick_index
from codeagent.repo import index_copy
from codeagent.repo.discover import discover
from codeagent.repo.index_copy import ENV, index_env, run_git_on_copy
from codeagent.repo.probe import Prober
from codeagent.repo.remote import _checkout_is_at
from codeagent.repo.state import git_state
from conftest import GitRepoFactory, git

STATUS = ("status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--no-renames")
FILES = {f"pkg/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(12)}


def make_racy(root: Path) -> None:
    """Every file's modification time in the same second as the index file's: each entry is
    racily clean (git must read the file to trust it)."""
    then = time.time() - 30
    for path in [*root.rglob("*.py"), root / ".git" / "index"]:
        if ".git" not in path.parts or path.name == "index":
            os.utime(path, (then, then))


def racy_entries(root: Path, env: dict[str, str]) -> int:
    """How many entries of the index ``env`` names (the repository's own for ``{}``) git would
    have to read again: a modification time not older than the index file's."""
    index = Path(env.get(ENV) or root / ".git" / "index")
    limit = int(index.stat().st_mtime)
    out = subprocess.run(
        ["git", "ls-files", "--debug"], cwd=root, env={**os.environ, **env},
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    mtimes = [int(line.split()[1].split(":")[0]) for line in out.splitlines() if "mtime:" in line]
    return sum(m >= limit for m in mtimes)


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An index is copied however recently it was written (each test writes its own a moment
    before)."""
    monkeypatch.setattr(index_copy, "RACY_S", 0.0)


def git_dir_digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted((root / ".git").rglob("*")):
        if path.is_file():
            st = path.stat()
            h.update(f"{path}:{st.st_mtime_ns}:{st.st_size}".encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def both(root: Path, copies: Path, *args: str) -> tuple[bytes, bytes]:
    """``git ARGS`` on the repository's own index, then on the copy."""
    return run_git_on_copy(root, None, *args), run_git_on_copy(root, copies, *args)


def _edit_same_size(root: Path) -> None:
    path = root / "pkg" / "m1.py"
    st = path.stat()
    path.write_text(path.read_text().replace("1", "7"))  # same size, same second
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


STEPS: list[tuple[str, Callable[[Path], object]]] = [
    ("clean", lambda root: None),
    ("edit", lambda root: (root / "pkg" / "m0.py").write_text("def f0():\n    return 100\n")),
    ("racy edit, same size and time", _edit_same_size),
    ("delete", lambda root: (root / "pkg" / "m2.py").unlink()),
    ("untracked", lambda root: (root / "new.py").write_text("n = 1\n")),
    ("stage", lambda root: git(root, "add", "new.py")),
    ("mode", lambda root: (root / "pkg" / "m3.py").chmod(0o755)),
    ("commit", lambda root: git(root, "commit", "-qam", "two")),
    ("checkout", lambda root: git(root, "checkout", "-q", "HEAD~1")),
]


def test_the_copy_gives_git_output_equal_to_the_index_and_leaves_git_alone(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo(FILES)
    make_racy(root)
    copies = tmp_path / "copies"
    assert racy_entries(root, {}) == len(FILES)  # git reads every file at every status
    before = git_dir_digest(root)
    env = index_env(root, copies)
    assert Path(env[ENV]).parent == copies
    assert racy_entries(root, env) == 0  # refreshed: stat data git can trust
    assert git_dir_digest(root) == before  # nothing of the repository written
    for name, change in STEPS:
        change(root)
        own, copied = both(root, copies, *STATUS)
        assert own == copied, name
        own_diff, copied_diff = both(root, copies, "diff", "HEAD", "--binary", "--full-index")
        assert own_diff == copied_diff, name
        assert Prober(root).probe().key == Prober(root, copies).probe().key, name
        state = git_state(discover(root))
        assert state is not None, name
        assert state == git_state(discover(root), copies), name


@pytest.mark.parametrize("index_age", [60.0, 0.0])
def test_the_state_and_the_probe_write_nothing_of_the_repository(
    git_repo: GitRepoFactory, tmp_path: Path, index_age: float
) -> None:
    """``git diff`` rewrites the index it reads when entries' stat data is stale (checked live
    first): the state and the probe must leave ``.git`` as it was, whether the copy is kept
    (an index a minute old) or made for one command (an index written a moment ago)."""
    root = git_repo(FILES)

    def stale(back: float) -> None:  # the same bytes, another time than the index holds
        then = time.time() - index_age
        os.utime(root / ".git" / "index", (then, then))
        for path in root.rglob("*.py"):
            os.utime(path, (then - back, then - back))

    stale(100)
    index = root / ".git" / "index"
    before = index.stat().st_mtime_ns
    git(root, "--no-optional-locks", "diff", "HEAD", "--quiet")
    assert index.stat().st_mtime_ns != before  # live: git's own diff rewrote the index
    stale(200)  # whole seconds away from the times the live diff wrote
    before_digest = git_dir_digest(root)
    copies = tmp_path / "copies"
    assert git_state(discover(root), copies) is not None
    assert Prober(root, copies).probe().head is not None
    settings = Settings.load(home=str(tmp_path / "home"))
    quick_index(root, settings, None)  # the first answer's index, on a new repository
    assert git_dir_digest(root) == before_digest
    for folder in (copies, settings.git_index_dir):
        left = {p.name for p in folder.iterdir()} - {".gitignore"} if folder.exists() else set()
        assert len(left) == (1 if index_age else 0)  # the kept copy, or none


@pytest.mark.usefixtures("at_once")
def test_a_changed_index_is_copied_again_and_the_older_copy_deleted(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo(FILES)
    copies = tmp_path / "copies"
    first = index_env(root, copies)[ENV]
    assert index_env(root, copies)[ENV] == first  # the index as it was: the same copy
    (root / "new.py").write_text("n = 1\n")
    git(root, "add", "new.py")  # the repository's index rewritten
    second = index_env(root, copies)[ENV]
    assert second != first
    assert not Path(first).exists()
    assert [p.name for p in copies.iterdir() if p.name != ".gitignore"] == [Path(second).name]
    own, copied = both(root, copies, *STATUS)
    assert own == copied
    assert b"A. " in copied  # the staged file, as the index has it


def test_a_copy_deleted_while_git_runs_is_read_again_from_the_index(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES)
    (root / "pkg" / "m0.py").write_text("changed = 1\n")
    gone = tmp_path / "deleted-copy"  # git reads a missing index file as an empty index
    monkeypatch.setattr(index_copy, "index_env", lambda *_: {ENV: str(gone)})
    assert run_git_on_copy(root, tmp_path, *STATUS) == run_git_on_copy(root, None, *STATUS)


def test_an_index_written_a_moment_ago_is_read_in_place(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    """Its files have its second for their time: a copy refreshed now would keep them racy for
    as long as it is used; once the index is older, the copy is made."""
    root = git_repo(FILES)
    copies = tmp_path / "copies"
    assert index_env(root, copies) == {}
    assert not copies.exists()
    then = time.time() - 2 * index_copy.RACY_S
    os.utime(root / ".git" / "index", (then, then))
    assert index_env(root, copies)


@pytest.mark.usefixtures("at_once")
def test_no_copy_where_none_can_be_had(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    root = git_repo(FILES)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert index_env(root, None) == {}
    assert index_env(root, blocker / "copies") == {}  # the home cannot be written
    assert index_env(tmp_path / "plain", tmp_path / "copies") == {}  # not a repository
    git(root, "update-index", "--split-index")  # a split index: its shared part stays behind
    assert index_env(root, tmp_path / "copies") == {}
    assert Prober(root, tmp_path / "copies").probe().key == Prober(root).probe().key


@pytest.mark.usefixtures("at_once")
def test_a_merge_with_conflicts_is_copied_too(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    root = git_repo(FILES)
    git(root, "checkout", "-qb", "side")
    (root / "pkg" / "m0.py").write_text("side = 1\n")
    git(root, "commit", "-qam", "side")
    git(root, "checkout", "-q", "main")
    (root / "pkg" / "m0.py").write_text("main = 1\n")
    git(root, "commit", "-qam", "main")
    with pytest.raises(subprocess.CalledProcessError):
        git(root, "merge", "-q", "side")
    copies = tmp_path / "copies"
    assert index_env(root, copies)  # unmerged entries refresh too
    own, copied = both(root, copies, *STATUS)
    assert own == copied
    assert b"u UU" in copied


@pytest.mark.usefixtures("at_once")
def test_a_linked_work_tree_copies_its_own_index(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    root = git_repo(FILES)
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", str(other))
    (other / "pkg" / "m4.py").write_text("x = 4\n")
    copies = tmp_path / "copies"
    assert index_env(other, copies) != index_env(root, copies)
    own, copied = both(other, copies, *STATUS)
    assert own == copied
    assert b"pkg/m4.py" in copied


@pytest.mark.parametrize("copies", [None, "copies"])
def test_no_filter_of_the_repository_runs_on_a_racy_index(
    git_repo: GitRepoFactory, tmp_path: Path, copies: str | None
) -> None:
    """A racily clean entry is hashed to be trusted, and hashing runs the clean filter the
    repository's config names: the probe and the state must run none (checked live first)."""
    root = git_repo({**FILES, ".gitattributes": "*.py filter=evil\n"})
    witness = tmp_path / "ran"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\necho ran >> {witness}\ncat\n", encoding="utf-8")
    hook.chmod(0o755)
    folder = tmp_path / copies if copies else None
    early = Prober(root, folder)  # made before the filter was configured
    early.probe()
    git(root, "config", "filter.evil.clean", str(hook))
    make_racy(root)
    git(root, "--no-optional-locks", "status", "--porcelain")
    assert witness.exists()  # live: a plain status on the racy index runs it
    witness.unlink()
    head = git(root, "rev-parse", "HEAD").strip()
    calls: list[Callable[[], object]] = [
        lambda: Prober(root, folder).probe(),
        early.probe,
        lambda: git_state(discover(root), folder),
        lambda: _checkout_is_at(root, head, "worktree"),  # a local checkout asked at a commit
    ]
    for call in calls:
        make_racy(root)
        assert call()
        assert not witness.exists()


@pytest.mark.parametrize("kept", [True, False])
def test_an_entry_racy_in_the_index_stays_racy_in_the_copy(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: bool
) -> None:
    """A file rewritten in its entry's second with the same size (ctime not trusted, as with
    ``core.trustctime=false``): the stat data matches and only the index file's time tells git
    to read it. The copy, kept (an index a minute old) or made for one command (a moment old),
    must see the edit as git does on the repository's own index (a copy with a time of its
    own made the edit invisible)."""
    if not kept:  # seconds old, still copied for each command alone
        monkeypatch.setattr(index_copy, "RACY_S", 3600.0)
    root = git_repo(FILES)
    git(root, "config", "core.trustctime", "false")
    then = time.time() - 60
    for path in root.rglob("*.py"):
        os.utime(path, (then, then))
    git(root, "add", "-A")  # entries take the files' time
    git(root, "update-index", "--really-refresh")
    os.utime(root / ".git" / "index", (then, then))  # written in their second: racy
    assert racy_entries(root, {}) == len(FILES)
    clean = git_state(discover(root))
    _edit_same_size(root)
    own = run_git_on_copy(root, None, *STATUS)
    assert b"pkg/m1.py" in own  # git reads the racy file and sees the edit
    copies = tmp_path / "copies"
    assert run_git_on_copy(root, copies, *STATUS) == own
    assert Prober(root, copies).probe().key == Prober(root).probe().key
    assert git_state(discover(root), copies) == git_state(discover(root)) != clean
