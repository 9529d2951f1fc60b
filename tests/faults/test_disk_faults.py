"""A full disk and a damaged cache: one clear line or a rebuild that says so; the previous
entry keeps answering and nothing half-written is left."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GitRepoFactory
from faults.run import codeagent, one_error_line

FILES = {"pkg/core.py": "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n"}

# The write seam of an index entry (IndexStore.save), failing as a full disk does.
ENTRY_ENOSPC = """
import errno
from codeagent.store.store import IndexStore
def save(self, directory, *, meta=None):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "chunks.json").write_text("[", encoding="utf-8")
    raise OSError(errno.ENOSPC, "No space left on device")
IndexStore.save = save
"""
# The embedding cache's sqlite write, failing as sqlite reports a full disk.
EMBED_FULL = """
import sqlite3
import diskcache
def set(self, *args, **kwargs):
    raise sqlite3.OperationalError("database or disk is full")
diskcache.Cache.set = set
"""


def entries(home: Path) -> list[Path]:
    return sorted(p for p in (home / "cache").glob("*/*") if p.is_dir())


def test_disk_full_while_writing_an_entry(git_repo: GitRepoFactory, env_setup: Path) -> None:
    root = git_repo(FILES)
    first = codeagent("index", "--repo", str(root), "--embed", "none")
    assert first.returncode == 0, first.stderr
    [old] = entries(env_setup)
    (root / "pkg" / "more.py").write_text("def gamma():\n    return 3\n", encoding="utf-8")
    full = codeagent("index", "--repo", str(root), "--embed", "none", patch=ENTRY_ENOSPC)
    one_error_line(full, "CODEAGENT_HOME", "disk is full", "free some space")
    assert entries(env_setup) == [old]  # no partial entry, no tmp-* left behind
    (root / "pkg" / "more.py").unlink()
    ask = codeagent("ask", "where is beta", "--repo", str(root), "--llm", "none",
                    "--embed", "none", "--json")  # fmt: skip
    assert ask.returncode == 0, ask.stderr
    assert [s["path"] for s in json.loads(ask.stdout)["sources"]] == ["pkg/core.py"]


def test_disk_full_in_the_embedding_cache(git_repo: GitRepoFactory, env_setup: Path) -> None:
    root = git_repo(FILES)
    result = codeagent("index", "--repo", str(root), "--embed", "hash:8", patch=EMBED_FULL)
    one_error_line(result, "embedding cache", "CODEAGENT_HOME", "disk is full")
    assert entries(env_setup) == []


def test_a_real_full_disk_on_a_tiny_tmpfs(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    """The same through the kernel: a 1 MB tmpfs as the home, in a private mount namespace."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    root = git_repo(FILES)
    home = tmp_path / "tiny"
    home.mkdir()
    inner = (
        f"mount -t tmpfs -o size=1m tmpfs {home} && "
        f"dd if=/dev/zero of={home}/filler bs=4k 2>/dev/null; "
        f"{sys.executable} -m codeagent index --repo {root} --embed none"
    )
    done = subprocess.run(
        ["unshare", "--mount", "sh", "-c", inner],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODEAGENT_HOME": str(home)},
    )
    first = (done.stderr.strip().splitlines() or [""])[0]
    if first.startswith(("unshare:", "mount:")):
        pytest.skip(f"cannot mount a tmpfs here: {first}")
    one_error_line(done, "CODEAGENT_HOME", "disk is full")


def test_a_garbled_embedding_cache_is_moved_aside_and_rebuilt(
    git_repo: GitRepoFactory, env_setup: Path
) -> None:
    root = git_repo(FILES)
    db = env_setup / "embeddings" / "cache.db"
    db.parent.mkdir()
    db.write_bytes(b"this is not a sqlite database, just noise " * 50)
    result = codeagent("index", "--repo", str(root), "--embed", "hash:8", "--json")
    assert result.returncode == 0, result.stderr
    assert "damaged" in result.stderr
    assert "Traceback" not in result.stderr
    assert json.loads(result.stdout)["chunks_embedded"] == 2
    assert (db.parent / "cache.db.corrupt").read_bytes().startswith(b"this is not")
    again = codeagent("index", "--repo", str(root), "--embed", "hash:8", "--json", "--force")
    assert json.loads(again.stdout)["chunks_reused"] == 2  # the new cache works


def test_cache_clear_embeddings_works_on_a_garbled_cache(env_setup: Path) -> None:
    db = env_setup / "embeddings" / "cache.db"
    db.parent.mkdir()
    db.write_bytes(b"noise " * 100)
    result = codeagent("cache", "clear", "--yes", "--embeddings")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert not (db.parent / "cache.db.corrupt").exists()
    assert not db.read_bytes().startswith(b"noise")


def test_an_unparsable_bm25_file_is_rebuilt_when_the_entry_opens(
    git_repo: GitRepoFactory, env_setup: Path
) -> None:
    """As a bm25s format change would leave it: the digest matches, the content does not parse."""
    root = git_repo(FILES)
    assert codeagent("index", "--repo", str(root), "--embed", "none").returncode == 0
    [entry] = entries(env_setup)
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    names = [n for n in manifest["files"] if n.startswith("bm25/") and n.endswith(".json")]
    assert names
    import hashlib

    for name in names:
        (entry / name).write_text("{not json", encoding="utf-8")
        manifest["files"][name] = hashlib.sha256(b"{not json").hexdigest()
    (entry / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    ask = codeagent("ask", "where is beta", "--repo", str(root), "--llm", "none",
                    "--embed", "none", "--json")  # fmt: skip
    assert ask.returncode == 0, ask.stderr
    assert "Traceback" not in ask.stderr
    assert [s["path"] for s in json.loads(ask.stdout)["sources"]] == ["pkg/core.py"]
    assert json.loads((entry / "bm25" / names[0].split("/")[1]).read_text(encoding="utf-8"))
