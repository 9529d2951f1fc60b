"""Re-opening an unchanged entry on its seal, and every rule for when the content is hashed.

The truth is the file I/O of the thread that opens the entry (``rchar`` of
``/proc/thread-self/io``: bytes through ``read()``, from the page cache or not) and the bytes
``hashlib`` was fed; damage is made with real writes, the hard case (same length, the
modification time put back with ``os.utime``) checked against ``os.stat`` first.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.store import entry_files, seal
from codeagent.store.entry_files import CorruptIndexError
from codeagent.store.store import IndexStore
from conftest import GitRepoFactory

THREAD_IO = Path("/proc/thread-self/io")
pytestmark = pytest.mark.skipif(not THREAD_IO.exists(), reason="no per-thread I/O counters")

FILES = {
    f"pkg/mod{n}.py": "".join(
        f"def func_{n}_{k}(value):\n    return value * {k} + {n}\n\n\n" for k in range(12)
    )
    for n in range(30)
}


def rchar() -> int:
    """Bytes this thread has read through read() so far."""
    for line in THREAD_IO.read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar line")


def settings() -> Settings:
    return Settings.load(embed="hash:64")


@pytest.fixture
def entry(git_repo: GitRepoFactory) -> tuple[Path, Path]:
    """(repository, its entry), freshly built: sealed as written."""
    root = git_repo(FILES)
    _store, stats = load_or_build(root, settings())
    assert not stats.cache_hit
    return root, Path(stats.cache_path)


def listed(entry: Path) -> dict[str, str]:
    files: dict[str, str] = json.loads((entry / "manifest.json").read_text("utf-8"))["files"]
    return files


def content_bytes(entry: Path) -> int:
    return sum((entry / name).stat().st_size for name in listed(entry))


REAL_SHA256 = hashlib.sha256


class CountingSha256:
    """hashlib.sha256 as the entry files module calls it, counting the bytes it is fed."""

    fed = 0

    def __init__(self) -> None:
        self._real = REAL_SHA256()

    def update(self, data: bytes) -> None:
        CountingSha256.fed += len(data)
        self._real.update(data)

    def hexdigest(self) -> str:
        return self._real.hexdigest()


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> type[CountingSha256]:
    monkeypatch.setattr(CountingSha256, "fed", 0)
    monkeypatch.setattr(entry_files.hashlib, "sha256", CountingSha256)
    return CountingSha256


def open_measured(entry: Path, **kw: bool) -> tuple[IndexStore, int]:
    before = rchar()
    store = IndexStore.load(entry, load_embedder(), **kw)
    return store, rchar() - before


def load_embedder() -> object:
    from codeagent.embed.embedders import make_embedder

    return make_embedder("hash:64", settings())


def test_a_sealed_entry_opens_without_reading_its_files(
    entry: tuple[Path, Path], hashed: type[CountingSha256]
) -> None:
    _root, directory = entry
    small = (directory / "manifest.json").stat().st_size + (directory / seal.SEAL).stat().st_size
    assert content_bytes(directory) > 20 * small  # hashing would show
    store, read = open_measured(directory)
    assert store.sealed
    assert hashed.fed == 0
    assert read <= small + 4096  # the manifest and the seal, nothing else
    assert len(store.chunks) == 30 * 12  # read now, at first use
    # The control: a full check reads and hashes every byte the manifest lists.
    store, read = open_measured(directory, verify=True)
    assert not store.sealed
    assert hashed.fed == content_bytes(directory)
    assert read >= content_bytes(directory)


def flip(path: Path) -> None:
    """Change one bit in the middle in place, keeping the size and putting the mtime back."""
    before = path.stat()
    with path.open("r+b") as handle:
        handle.seek(before.st_size // 2)
        byte = handle.read(1)[0]
        handle.seek(before.st_size // 2)
        handle.write(bytes([byte ^ 0x01]))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


NAMES = sorted(
    ["chunks.json", "symbols.json", "files.json", "dense.faiss"]
    + [f"bm25/{n}" for n in entry_files.BM25_FILES]
)


@pytest.mark.parametrize("name", NAMES)
def test_a_flip_that_keeps_size_and_mtime_is_found_and_rebuilt(
    entry: tuple[Path, Path], name: str, caplog: pytest.LogCaptureFixture
) -> None:
    root, directory = entry
    assert name in listed(directory)
    good = (directory / name).read_bytes()
    flip(directory / name)
    assert (directory / name).read_bytes() != good
    with pytest.raises(CorruptIndexError, match=re.escape(f"{name} is damaged")):
        IndexStore.load(directory, load_embedder())
    store, stats = load_or_build(root, settings())
    assert not stats.cache_hit  # rebuilt
    assert (directory / name).read_bytes() == good
    assert [h.path for h in store.search("func_7_3", k=1)] == ["pkg/mod7.py"]
    _store, again = load_or_build(root, settings())
    assert (again.cache_hit, again.entry_check) == (True, "seal")


def test_a_file_replaced_with_its_old_times_is_hashed(entry: tuple[Path, Path]) -> None:
    """A copy put in place (a new inode) with the mtime of the one it replaces."""
    root, directory = entry
    target = directory / "chunks.json"
    before = target.stat()
    copy = directory / "copy"
    copy.write_bytes(target.read_bytes())
    os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(copy, target)
    _store, stats = load_or_build(root, settings())
    assert (stats.cache_hit, stats.entry_check) == (True, "sha256")  # same bytes: kept
    _store, stats = load_or_build(root, settings())
    assert stats.entry_check == "seal"  # and sealed again


def seal_over(directory: Path) -> None:
    """Damage the kernel does not see: the seal re-written to vouch for the current files."""
    manifest = json.loads((directory / "manifest.json").read_text("utf-8"))
    assert seal.write_seal(directory, seal.signatures(directory, manifest))


def test_what_the_fast_path_trusts_and_what_still_checks(entry: tuple[Path, Path]) -> None:
    root, directory = entry
    flip(directory / "dense.faiss")
    seal_over(directory)
    assert IndexStore.load(directory, load_embedder()).sealed  # trusted: the documented limit
    with pytest.raises(CorruptIndexError, match=r"dense\.faiss is damaged"):
        IndexStore.load(directory, load_embedder(), verify=True)
    # A seal older than a week is checked again.
    seal_over(directory)
    data = json.loads((directory / seal.SEAL).read_text("utf-8"))
    data["verified"] -= seal.RECHECK_AFTER + 60
    (directory / seal.SEAL).write_text(json.dumps(data), encoding="utf-8")
    assert seal.unsealed(directory, listed_manifest(directory)).startswith("last checked 7.0 days")
    _store, stats = load_or_build(root, settings())
    assert not stats.cache_hit


def listed_manifest(directory: Path) -> dict[str, object]:
    manifest: dict[str, object] = json.loads((directory / "manifest.json").read_text("utf-8"))
    return manifest


def test_index_verify_hashes_and_rebuilds(entry: tuple[Path, Path]) -> None:
    root, directory = entry
    _store, stats = load_or_build(root, settings(), verify=True)
    assert (stats.cache_hit, stats.entry_check) == (True, "sha256")
    flip(directory / "symbols.json")
    seal_over(directory)
    _store, stats = load_or_build(root, settings())
    assert stats.entry_check == "seal"
    _store, stats = load_or_build(root, settings(), verify=True)
    assert not stats.cache_hit


def test_the_background_check_marks_a_damaged_entry(entry: tuple[Path, Path]) -> None:
    root, directory = entry
    store = IndexStore.load(directory, load_embedder())
    thread = store.check_later()
    assert thread is not None
    thread.join(30)
    assert json.loads((directory / seal.SEAL).read_text("utf-8"))["verified"] > time.time() - 30
    assert IndexStore.load(directory, load_embedder(), verify=True).check_later() is None
    flip(directory / "files.json")
    seal_over(directory)
    store = IndexStore.load(directory, load_embedder())
    thread = store.check_later()
    assert thread is not None
    thread.join(30)
    mark = json.loads((directory / seal.SEAL).read_text("utf-8"))
    assert mark["damaged"].endswith("files.json is damaged")
    with pytest.raises(CorruptIndexError, match="was found damaged"):
        IndexStore.load(directory, load_embedder(), verify=True)
    _store, stats = load_or_build(root, settings())
    assert not stats.cache_hit


def test_a_part_that_fails_to_load_marks_the_entry(entry: tuple[Path, Path]) -> None:
    root, directory = entry
    vocab = directory / "bm25" / "terms.json"
    vocab.write_text("{not json", encoding="utf-8")
    seal_over(directory)
    store = IndexStore.load(directory, load_embedder())
    assert store.sealed
    with pytest.raises(CorruptIndexError, match=r"unreadable bm25.*rebuilt at the next run"):
        store.search("func_1_1")
    assert "bm25" in json.loads((directory / seal.SEAL).read_text("utf-8"))["damaged"]
    store, stats = load_or_build(root, settings())
    assert not stats.cache_hit
    assert [h.path for h in store.search("func_1_1", k=1)] == ["pkg/mod1.py"]


def test_why_an_entry_is_hashed(entry: tuple[Path, Path]) -> None:
    _root, directory = entry
    manifest = listed_manifest(directory)
    assert seal.unsealed(directory, manifest) is None
    (directory / "symbols.json").touch()
    assert seal.unsealed(directory, manifest) == "changed since it was checked: symbols.json"
    (directory / seal.SEAL).write_text("{", encoding="utf-8")
    assert seal.unsealed(directory, manifest) == "unreadable seal"
    (directory / seal.SEAL).unlink()
    assert seal.unsealed(directory, manifest) == "no seal"
    seal_over(directory)
    (directory / "files.json").unlink()
    assert seal.unsealed(directory, manifest) == "a file is missing"


def test_what_the_background_check_finds_is_said_with_the_next_answer(
    entry: tuple[Path, Path],
) -> None:
    from codeagent.index.lazy import LazyIndex

    root, directory = entry
    flip(directory / "chunks.json")
    seal_over(directory)
    lazy = LazyIndex(root, settings())
    assert lazy.get().sealed
    deadline = time.monotonic() + 30
    notices: list[str] = []
    while not notices and time.monotonic() < deadline:
        notices = lazy.take_notices()
        time.sleep(0.05)
    assert notices == [
        f"index at {directory}: chunks.json is damaged; the index is rebuilt at the next run"
    ]
    _store, stats = load_or_build(root, settings())
    assert not stats.cache_hit


def test_an_edit_hashes_what_it_copies_but_not_a_sealed_bm25_index(
    entry: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit copies the earlier state's chunks.json and symbols.json bytes into the new
    entry: those are hashed even under a seal (the new manifest would vouch for them); the
    BM25 files it only reads are not, unless the seal is gone."""
    from codeagent.store import bm25_build

    root, directory = entry
    made: list[str] = []  # the digests reuse computed
    hashed: list[Path] = []
    real = hashlib.sha256

    class Sha256:
        def __init__(self, data: bytes = b"") -> None:
            self._inner = real(data)

        def hexdigest(self) -> str:
            made.append(self._inner.hexdigest())
            return made[-1]

    def sha256_file(path: Path) -> str:
        hashed.append(path)
        return entry_files.sha256_file(path)

    from codeagent.index import reuse

    monkeypatch.setattr(reuse, "hashlib", SimpleNamespace(sha256=Sha256, blake2b=hashlib.blake2b))
    monkeypatch.setattr(bm25_build, "sha256_file", sha256_file)
    for n, unseal in enumerate((False, True)):
        if unseal:  # the control: without its seal the earlier BM25 files are hashed too
            (directory / seal.SEAL).unlink()
        copied = [listed(directory)[name] for name in ("chunks.json", "symbols.json")]
        made.clear()
        (root / "pkg/mod3.py").write_text(f"def edited():\n    return {n}\n", encoding="utf-8")
        _store, stats = load_or_build(root, settings())
        assert stats.files_reused == len(FILES) - 1
        assert set(copied) <= set(made)
        assert bool([p for p in hashed if p.parent.parent == directory]) == unseal
        directory = Path(stats.cache_path)


def test_damage_the_seal_cannot_see_is_not_copied_into_an_edit(
    entry: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bit flipped in the earlier state's chunks.json with its seal still matching (as a
    flip under the file system would leave it): the edit does not reuse that state, and its
    own entry holds the right chunks."""
    root, directory = entry
    manifest = entry_files.read_manifest(directory)
    flip(directory / "chunks.json")
    seal.write_seal(directory, seal.signatures(directory, manifest))  # as if unseen
    assert seal.unsealed(directory, manifest) is None
    (root / "pkg/mod3.py").write_text("def edited():\n    return 1\n", encoding="utf-8")
    _store, stats = load_or_build(root, settings())
    assert stats.files_reused == 0
    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "fresh-home"))
    _fresh, scratch = load_or_build(root, settings())
    assert scratch.files_reused == 0
    for name in ("chunks.json", "symbols.json", "files.json"):
        assert (Path(scratch.cache_path) / name).read_bytes() == (
            Path(stats.cache_path) / name
        ).read_bytes()
