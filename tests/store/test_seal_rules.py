"""The seal's rules one by one, on a small entry written here: which seal is unreadable, how old
a seal may be, what a change names, what the content check writes, and a seal or mark that
cannot be written. The truth is the files on disk (their sha256 from hashlib, their
``os.stat``) and the seal file as read back."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from codeagent.store import seal
from codeagent.store.bm25_index import FILES as BM25_FILES
from codeagent.store.entry_files import CorruptIndexError

T = 1_000_000.0  # a time a seal says it was made at (exact in binary)
DAY = 86400.0


@pytest.fixture
def entry(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A complete entry with no chunks: its files, and the manifest listing their sha256."""
    directory = tmp_path / "entry"
    (directory / "bm25").mkdir(parents=True)
    (directory / "chunks.json").write_text("[]", encoding="utf-8")
    (directory / "symbols.json").write_text('{"files": {}}', encoding="utf-8")
    for name in BM25_FILES:
        path = directory / "bm25" / name
        if name.endswith(".json"):
            path.write_text("{}", encoding="utf-8")
        else:
            np.save(path, np.zeros(1, dtype=np.int32))
    files = {
        p.relative_to(directory).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }
    manifest = {"chunks": 0, "files": files, "complete": True}
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return directory, manifest


def stats(directory: Path, manifest: dict[str, Any]) -> dict[str, list[int]]:
    """The manifest's and each listed file's size, mtime, ctime and inode, from ``os.stat``."""
    out = {}
    for name in ["manifest.json", *sorted(manifest["files"])]:
        st = os.stat(directory / name)
        out[name] = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    return out


def write(directory: Path, data: object) -> None:
    (directory / seal.SEAL).write_text(json.dumps(data), encoding="utf-8")


def test_a_seal_that_is_not_a_seal_is_unreadable(entry: tuple[Path, dict[str, Any]]) -> None:
    directory, manifest = entry
    for data in (
        [],
        "sealed",
        {"files": stats(directory, manifest)},
        {"verified": "today", "files": stats(directory, manifest)},
        {"verified": T, "files": list(stats(directory, manifest))},
        {"verified": T},
    ):
        write(directory, data)
        assert seal.unsealed(directory, manifest, now=T) == "unreadable seal", data
    write(directory, {"verified": T, "files": stats(directory, manifest)})  # the control
    assert seal.unsealed(directory, manifest, now=T) is None


def test_how_old_a_seal_may_be(entry: tuple[Path, dict[str, Any]]) -> None:
    """A week, and a minute into the future (clocks differ); the age is said in days."""
    directory, manifest = entry
    write(directory, {"verified": T, "files": stats(directory, manifest)})
    week = seal.RECHECK_AFTER
    assert week == 7 * DAY
    assert seal.unsealed(directory, manifest, now=T + week) is None
    assert seal.unsealed(directory, manifest, now=T - 60.0) is None
    assert seal.unsealed(directory, manifest, now=T + week + 1) == "last checked 7.0 days ago"
    assert seal.unsealed(directory, manifest, now=T - 60.5) == "last checked -0.0 days ago"
    ages = seal.unsealed(directory, manifest, now=T + 10_000 * DAY)
    assert ages == "last checked 10000.0 days ago"
    reason = seal.unsealed(directory, manifest)  # now: decades after T
    assert reason is not None
    assert reason.startswith("last checked ")


def test_every_changed_file_is_named(entry: tuple[Path, dict[str, Any]]) -> None:
    directory, manifest = entry
    write(directory, {"verified": T, "files": stats(directory, manifest)})
    for name in ("symbols.json", "bm25/terms.json"):
        path = directory / name
        path.write_bytes(path.read_bytes())  # the same bytes, written again: a new ctime
    reason = seal.unsealed(directory, manifest, now=T)
    assert reason == "changed since it was checked: bm25/terms.json, symbols.json"


def test_the_content_check_seals_an_intact_entry_and_marks_a_damaged_one(
    entry: tuple[Path, dict[str, Any]],
) -> None:
    directory, manifest = entry
    assert not (directory / seal.SEAL).exists()
    seal.check_content(directory, manifest)
    written = json.loads((directory / seal.SEAL).read_text("utf-8"))
    assert written["files"] == stats(directory, manifest)
    assert seal.unsealed(directory, manifest) is None
    symbols = directory / "symbols.json"
    symbols.write_text('{"files": []}', encoding="utf-8")  # same length, other content
    with pytest.raises(CorruptIndexError, match=r"symbols\.json is damaged"):
        seal.check_content(directory, manifest)
    with pytest.raises(CorruptIndexError, match=r"found damaged: .*symbols\.json is damaged"):
        seal.unsealed(directory, manifest)


def test_the_background_check_runs_in_a_daemon_thread(
    entry: tuple[Path, dict[str, Any]],
) -> None:
    """A daemon thread: a process that ends does not wait for the check to finish."""
    directory, manifest = entry
    thread = seal.check_in_background(directory, manifest)
    assert thread.daemon
    thread.join(10)
    assert seal.unsealed(directory, manifest) is None  # sealed by it


def test_a_seal_is_written_only_over_the_files_that_were_checked(
    entry: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    directory, manifest = entry
    seen = seal.signatures(directory, manifest)
    assert seen == stats(directory, manifest)
    (directory / "chunks.json").write_text("[]", encoding="utf-8")  # changed since seen
    assert seal.write_seal(directory, seen) is False
    assert not (directory / seal.SEAL).exists()
    assert seal.write_seal(directory, seal.signatures(directory, manifest)) is True
    # a cache that cannot be written (here: an entry gone meanwhile): no seal, no mark, no error
    gone = tmp_path / "gone"
    assert seal.write_seal(gone, {}) is False
    seal.mark_damaged(gone, "a reason")
    assert not gone.exists()


def test_why_a_full_check_runs_is_logged(
    entry: tuple[Path, dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    directory, manifest = entry
    caplog.set_level(logging.INFO, logger="codeagent")
    assert seal.open_checked(directory, manifest) == []  # no seal: checked, and sealed
    assert seal.open_checked(directory, manifest) is None  # on its seal
    assert seal.open_checked(directory, manifest, verify=True) == []
    assert [r.getMessage() for r in caplog.records] == [
        f"checking the files of {directory}: no seal",
        f"checking the files of {directory}: a full check was asked for",
    ]
