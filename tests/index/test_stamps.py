"""A file whose stamp is the one the last entry kept is taken over unread; any other is read.

Which files a build opens is seen from outside the code: a ``sys.addaudithook`` records every
``open`` of a path in the repository. The racy rule (no stamp for a file changed within
``RACY_NS`` before discovery began) is checked on real files: one just written, and one of
the standard library (changed long ago). Tests that need stamps on files they just wrote
shrink ``RACY_NS`` to 0: their writes all happen before the build's discovery begins.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.reuse import STAMPS, known_stamps
from codeagent.repo import stamps as stamps_module
from codeagent.repo.stamps import now_ns, stamp
from conftest import GitRepoFactory

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
    "README.md": "# Shop\n\nA tiny shop.\n",
}

_opened: list[str] | None = None


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and _opened is not None and isinstance(args[0], str | Path):
        _opened.append(os.fspath(args[0]))


sys.addaudithook(_hook)  # an audit hook cannot be removed: it records only while asked to


@pytest.fixture
def opened() -> Iterator[list[str]]:
    global _opened
    _opened = []
    try:
        yield _opened
    finally:
        _opened = None


@pytest.fixture
def no_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stamps_module, "RACY_NS", 0)


def settings() -> Settings:
    return Settings.load(embed="hash:32")


def read_in(root: Path, opened: list[str]) -> set[str]:
    """The repository's files a build opened (git's own files left out)."""
    inside = (Path(p).resolve() for p in opened)
    paths = {p.relative_to(root).as_posix() for p in inside if p.is_relative_to(root)}
    return {p for p in paths if not p.startswith(".git/")}


def chunk_texts(cache_path: str) -> list[str]:
    return [row[5] for row in json.loads((Path(cache_path) / "chunks.json").read_text())]


def test_a_just_written_file_has_no_stamp_one_changed_long_ago_has(tmp_path: Path) -> None:
    fresh = tmp_path / "a.py"
    fresh.write_text("x = 1\n")
    since = now_ns()
    assert stamp(os.stat(fresh), since) is None  # changed within RACY_NS: racy
    os.utime(fresh, ns=(0, 0))  # an old modification time; the change time is now
    assert stamp(os.stat(fresh), since) is None
    old = os.stat(os.__file__)  # the standard library: written long before this test
    assert stamp(old, since) == (
        f"{old.st_size}:{old.st_mtime_ns}:{old.st_ctime_ns}:{old.st_ino}:{old.st_dev}"
    )
    assert stamp(os.stat(tmp_path), since) is None  # not a regular file


def test_unchanged_files_are_not_read_again(
    git_repo: GitRepoFactory, no_racy_window: None, opened: list[str]
) -> None:
    root = git_repo(FILES).resolve()
    first = load_or_build(root, settings(), embedder=None)[1]
    kept = json.loads((Path(first.cache_path) / STAMPS).read_text())["stamps"]
    assert set(kept) == set(FILES)
    with (root / "shop/cart.py").open("a") as handle:
        handle.write("\n\ndef empty(cart):\n    cart.clear()\n")
    opened.clear()
    second = load_or_build(root, settings(), embedder=None)[1]
    files = read_in(root, opened)
    assert files == {"shop/cart.py"}  # sniffed and read: the only file whose stamp changed
    assert second.files_reused == 2
    assert any("cart.clear()" in text for text in chunk_texts(second.cache_path))


def test_same_size_and_modification_time_is_still_an_edit(
    git_repo: GitRepoFactory, no_racy_window: None
) -> None:
    root = git_repo(FILES).resolve()
    load_or_build(root, settings(), embedder=None)
    target = root / "shop/models.py"
    before = os.stat(target)
    target.write_text(FILES["shop/models.py"].replace("2", "3"))  # the same size
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same mtime
    after = os.stat(target)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        before.st_size,
        before.st_mtime_ns,
        before.st_ino,
    )
    second = load_or_build(root, settings(), embedder=None)[1]
    texts = chunk_texts(second.cache_path)
    assert any("item.cost * 3" in text for text in texts)
    assert not any("item.cost * 2" in text for text in texts)


def test_racy_files_are_read_again(git_repo: GitRepoFactory, opened: list[str]) -> None:
    root = git_repo(FILES).resolve()  # just written: every file racy
    first = load_or_build(root, settings(), embedder=None)[1]
    assert json.loads((Path(first.cache_path) / STAMPS).read_text())["stamps"] == {}
    (root / "README.md").write_text("# Shop\n\nA small shop.\n")
    opened.clear()
    load_or_build(root, settings(), embedder=None)
    files = read_in(root, opened)
    assert files == set(FILES)


def test_damaged_stamps_are_not_trusted(
    git_repo: GitRepoFactory, no_racy_window: None, opened: list[str]
) -> None:
    root = git_repo(FILES).resolve()
    first = load_or_build(root, settings(), embedder=None)[1]
    path = Path(first.cache_path) / STAMPS
    path.write_bytes(path.read_bytes().replace(b'"rules"', b'"ruler"'))
    (root / "README.md").write_text("# Shop\n\nA small shop.\n")
    opened.clear()
    load_or_build(root, settings(), embedder=None)
    files = read_in(root, opened)
    assert files == set(FILES)  # the manifest no longer vouches for them: every file read


def test_stamps_read_once_are_read_again_after_a_write(
    git_repo: GitRepoFactory, no_racy_window: None, opened: list[str]
) -> None:
    """One process: the second entry's stamps.json, read and checked once, must not be taken
    over by the next build once it was damaged in place (size and modification time kept:
    only the change time tells)."""
    root = git_repo(FILES).resolve()
    load_or_build(root, settings(), embedder=None)
    (root / "README.md").write_text("# Shop\n\nA small shop.\n")
    second = load_or_build(root, settings(), embedder=None)[1]
    path = Path(second.cache_path) / STAMPS
    assert known_stamps([path.parent])  # read and checked: remembered by its stamp
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b'"rules"', b'"ruler"'))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    (root / "README.md").write_text("# Shop\n\nA big shop.\n")
    opened.clear()
    load_or_build(root, settings(), embedder=None)
    assert read_in(root, opened) == set(FILES)  # no longer vouched for: every file read
