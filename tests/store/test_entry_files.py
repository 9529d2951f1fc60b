"""One stored entry's files on their own: the manifest written last, every way an entry is
found damaged (each a CorruptIndexError, so it is rebuilt), and the chunk rows. Digests are
checked against hashlib, formats against what json and numpy write."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from codeagent.records import Chunk
from codeagent.store.bm25_index import FILES as BM25_FILES
from codeagent.store.entry_files import (
    CHUNKS,
    FORMAT,
    MANIFEST,
    CorruptIndexError,
    check_bm25_files,
    hashes,
    read_chunks,
    read_manifest,
    sha256_file,
    verify_files,
    write_chunks,
    write_manifest,
)

CHUNK_LIST = [
    Chunk("pkg/a.py", 1, 3, "def a():\n    return 1\n", "a", "function"),
    Chunk("docs/é.md", 4, 9, "ünïcode text", "", "window"),
]


def test_sha256_of_a_file_larger_than_one_block(tmp_path: Path) -> None:
    data = bytes(range(256)) * 5000  # 1.28 MB: more than one 1 MiB read
    (tmp_path / "big").write_bytes(data)
    assert sha256_file(tmp_path / "big") == hashlib.sha256(data).hexdigest()
    (tmp_path / "empty").write_bytes(b"")
    assert sha256_file(tmp_path / "empty") == hashlib.sha256(b"").hexdigest()


@pytest.fixture
def entry(tmp_path: Path) -> Path:
    """A complete entry: chunks, BM25 files as json and numpy write them, a manifest."""
    directory = tmp_path / "entry"
    (directory / "bm25").mkdir(parents=True)
    for name in BM25_FILES:
        if name.endswith(".json"):
            (directory / "bm25" / name).write_text(json.dumps({"k": 1}), encoding="utf-8")
        else:
            np.save(directory / "bm25" / name, np.arange(3))
    write_chunks(directory, CHUNK_LIST)
    write_manifest(directory, {"chunks": len(CHUNK_LIST), "repo": "/r"})
    return directory


def test_a_complete_entry_reads_back(entry: Path) -> None:
    manifest = read_manifest(entry)
    assert manifest["format"] == FORMAT
    assert manifest["complete"] is True
    assert (manifest["chunks"], manifest["repo"]) == (2, "/r")
    expected = {
        p.relative_to(entry).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in entry.rglob("*")
        if p.is_file() and p.name != MANIFEST
    }
    assert manifest["files"] == expected
    assert len(expected) == 1 + len(BM25_FILES)
    verify_files(entry, manifest)
    check_bm25_files(entry / "bm25")
    assert read_chunks(entry, 2) == CHUNK_LIST
    rows = json.loads((entry / CHUNKS).read_text(encoding="utf-8"))
    assert rows[1] == ["docs/é.md", 4, 9, "", "window", "ünïcode text"]
    assert "ünïcode" in (entry / CHUNKS).read_text(encoding="utf-8")  # not \\u-escaped


def corrupt(call: object, *args: object) -> str:
    with pytest.raises(CorruptIndexError) as caught:
        call(*args)  # type: ignore[operator]
    return str(caught.value)


def test_a_manifest_that_is_missing_damaged_or_old(entry: Path) -> None:
    manifest = entry / MANIFEST
    good = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.unlink()
    assert corrupt(read_manifest, entry) == f"index at {entry} has no manifest"
    manifest.write_text("{not json", encoding="utf-8")
    assert corrupt(read_manifest, entry).startswith(f"index at {entry}: unreadable manifest: ")
    for incomplete in ([good], {**good, "complete": False}, {**good, "complete": "yes"}):
        manifest.write_text(json.dumps(incomplete), encoding="utf-8")
        assert corrupt(read_manifest, entry) == f"index at {entry} is incomplete"
    manifest.write_text(json.dumps({**good, "format": FORMAT - 1}), encoding="utf-8")
    assert corrupt(read_manifest, entry) == f"index at {entry} has format {FORMAT - 1}"


def test_a_file_that_differs_from_the_manifest(entry: Path) -> None:
    manifest = read_manifest(entry)
    assert corrupt(verify_files, entry, {**manifest, "files": []}) == (
        f"index at {entry}: manifest lists no files"
    )
    without_chunks = {k: v for k, v in manifest["files"].items() if k != CHUNKS}
    assert corrupt(verify_files, entry, {**manifest, "files": without_chunks}) == (
        f"index at {entry}: manifest lists no files"
    )
    (entry / "bm25" / "terms.json").write_text("{}", encoding="utf-8")
    assert corrupt(verify_files, entry, manifest) == (
        f"index at {entry}: bm25/terms.json is damaged"
    )
    (entry / "bm25" / "terms.json").unlink()
    assert corrupt(verify_files, entry, manifest) == (
        f"index at {entry}: cannot read bm25/terms.json"
    )


@pytest.mark.parametrize("name", BM25_FILES)
def test_each_bm25_file_is_checked(entry: Path, name: str) -> None:
    path = entry / "bm25" / name
    bad = b"[1, 2]" if name.endswith(".json") else b"\x93NUMPX\x01\x00"
    path.write_bytes(bad)
    assert corrupt(check_bm25_files, entry / "bm25") == (
        f"index at {entry}: bm25/{name} is not in the format"
    )
    path.unlink()
    assert corrupt(check_bm25_files, entry / "bm25") == f"index at {entry}: unreadable bm25/{name}"


def test_a_json_file_that_does_not_parse(entry: Path) -> None:
    (entry / "bm25" / "params.json").write_text("{", encoding="utf-8")
    assert corrupt(check_bm25_files, entry / "bm25") == (
        f"index at {entry}: unreadable bm25/params.json"
    )


def test_chunk_rows_that_do_not_match(entry: Path) -> None:
    assert corrupt(read_chunks, entry, 3) == f"index at {entry}: chunk count mismatch"
    (entry / CHUNKS).write_text(json.dumps([["a.py", 1, 2, "s", "function"]]), encoding="utf-8")
    assert corrupt(read_chunks, entry, 1).startswith(f"index at {entry}: unreadable chunks: ")
    (entry / CHUNKS).write_text("[", encoding="utf-8")
    assert corrupt(read_chunks, entry, 1).startswith(f"index at {entry}: unreadable chunks: ")
    (entry / CHUNKS).unlink()
    assert corrupt(read_chunks, entry, 1).startswith(f"index at {entry}: unreadable chunks: ")


def test_chunks_of_other_languages_keep_their_headers(tmp_path: Path) -> None:
    """A definition's signature (the dense header) is written with its chunk and read back;
    a chunk without one is written as six fields, as before headers existed."""
    with_header = Chunk(
        "web/app.ts", 1, 3, "export function start(x: number) {}", "start", "function",
        "function start(x: number): number",
    )  # fmt: skip
    plain = Chunk("a.py", 1, 1, "x = 1", "<module>", "module")
    write_chunks(tmp_path, [with_header, plain])
    rows = json.loads((tmp_path / CHUNKS).read_text(encoding="utf-8"))
    assert [len(row) for row in rows] == [7, 6]
    assert read_chunks(tmp_path, 2) == [with_header, plain]


def test_files_hashed_side_by_side_keep_their_own_digest(tmp_path: Path) -> None:
    sizes = [3, 5_000_000, 0, 700_000, 2_000_001, 64]  # not in size order: largest go first
    paths = []
    for n, size in enumerate(sizes):
        path = tmp_path / f"f{n}.bin"
        path.write_bytes(bytes([n + 1]) * size)
        paths.append(path)
    assert hashes(paths) == [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]
    assert hashes(paths[:1]) == [hashlib.sha256(b"\x01" * 3).hexdigest()]
    assert hashes([]) == []
