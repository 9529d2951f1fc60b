"""The Milvus dense index, on a real Milvus Lite engine in a tmp folder (no mock of the
engine): exact neighbours against numpy, the files FAISS finds in its order, an edit that
writes only the changed rows (counted in Milvus itself), writers killed mid-write, and a
server that does not answer."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli.clirun import run
from codeagent.config import Settings
from codeagent.embed.embedders import local_available
from codeagent.errors import ConfigError
from codeagent.index.build import load_or_build
from codeagent.index.lazy import LazyIndex
from codeagent.store.dense import backend_class
from conftest import GitRepoFactory, git

pytest.importorskip("milvus_lite")
pymilvus = pytest.importorskip("pymilvus")

from codeagent.store.milvus_client import GENERATION, client_for, close_clients  # noqa: E402

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    """A Milvus Lite file in tmp; every client is closed after the test."""
    close_clients()
    yield tmp_path / "milvus" / "vectors.db"
    close_clients()


def engine(db: Path) -> Any:
    """The process's client on the file, to read what Milvus holds."""
    return client_for(str(db))


def stored_keys(client: Any) -> dict[str, set[str]]:
    """Each aliased collection's keys, read straight from Milvus."""
    found = {}
    for alias in client.list_aliases()["aliases"]:
        client.load_collection(alias)
        rows = client.query(alias, filter='key != ""', output_fields=["key"], limit=16384)
        found[alias] = {row["key"] for row in rows}
    return found


def test_exact_neighbours_saved_and_reopened(db: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((300, 24)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    kind = backend_class(f"milvus:{db}")
    index = kind(24)
    index.add(rows[:200])
    index.add(rows[200:])
    entry = tmp_path / "cache" / "repo-0123" / "state"
    entry.mkdir(parents=True)
    index.save(entry / kind.file_name)
    close_clients()  # the next open starts the engine again from the file
    again = kind.load(entry / kind.file_name)
    query = rows[[7, 250, 3]]
    scores, ids = again.search(query, 10)
    truth = np.argsort(-(query @ rows.T), axis=1)[:, :10]  # brute force, outside Milvus
    np.testing.assert_array_equal(ids, truth)
    np.testing.assert_allclose(scores, np.take_along_axis(query @ rows.T, truth, 1), rtol=1e-5)
    assert again.search(query[:1], 400)[1][0, 300:].tolist() == [-1] * 100  # padded


@pytest.mark.parametrize(
    ("arg", "message"),
    [("vectors.txt", "Milvus Lite file"), ("http://host:19530/path", "http(s)://HOST:PORT")],
)
def test_a_bad_target_is_a_config_error(arg: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        backend_class(f"milvus:{arg}")


FUNCS = {
    f"pkg/mod{i}.py": "".join(
        f"def handler_{i}_{j}(value):\n    return value * {j} + {i}\n\n\n" for j in range(4)
    )
    for i in range(5)
}


def test_an_edit_writes_only_the_changed_rows(git_repo: GitRepoFactory, db: Path) -> None:
    root = git_repo(FUNCS)
    settings = Settings.load(embed="hash:64", dense=f"milvus:{db}")
    store, stats = load_or_build(root, settings)
    assert stats.chunks == 20  # one chunk per function
    assert store.dense is not None
    first = stored_keys(engine(db))
    ((alias, keys),) = first.items()
    assert len(keys) == 20
    assert alias.startswith("codeagent_s1_d64_hash_64_")  # schema, dimension, embedder id
    collection = engine(db).describe_alias(alias=alias)["collection_name"]

    text = FUNCS["pkg/mod2.py"].replace("value * 3 + 2", "offset * 3 + 2")  # one function
    (root / "pkg/mod2.py").write_text(text, encoding="utf-8")
    close_clients()
    edited, stats = load_or_build(root, settings)
    assert not stats.cache_hit
    dense = edited.dense
    assert (dense.inserted, dense.deleted) == (1, 1)  # type: ignore[union-attr]
    client = engine(db)
    after = stored_keys(client)[alias]
    assert (len(after - keys), len(keys - after), len(after)) == (1, 1, 20)
    assert client.describe_alias(alias=alias)["collection_name"] == collection  # in place
    written = [c for c in client.list_collections() if c.startswith(alias + GENERATION)]
    assert written == [collection]
    close_clients()
    hits = edited.search("handler_2_3 offset", k=1)
    assert (hits[0].path, hits[0].symbol) == ("pkg/mod2.py", "handler_2_3")
    # The first state's row is gone: its entry is not opened as it was, but rebuilt,
    # writing that one row back.
    (root / "pkg/mod2.py").write_text(FUNCS["pkg/mod2.py"], encoding="utf-8")
    back, stats = load_or_build(root, settings)
    assert not stats.cache_hit
    assert (back.dense.inserted, back.dense.deleted) == (1, 1)  # type: ignore[union-attr]
    close_clients()
    again, stats = load_or_build(root, settings)  # whole now, and said so in one lookup
    assert stats.cache_hit
    assert again.search("handler_2_3 value", k=1)[0].path == "pkg/mod2.py"


KILLER = """
import os, sys, time
from pathlib import Path
from codeagent.store import milvus_write

step = sys.argv[3]
real = milvus_write.{target}

def stop_after(*args, **kwargs):
    {body}
    print("written", flush=True)
    time.sleep(600)

milvus_write.{target} = stop_after
from codeagent.config import Settings
from codeagent.embed.embedders import local_available
from codeagent.index.build import load_or_build
from codeagent.index.lazy import LazyIndex
load_or_build(Path(sys.argv[1]), Settings.load(embed="hash:64", dense="milvus:" + sys.argv[2]))
"""


def kill_mid_write(root: Path, db: Path, target: str, body: str) -> None:
    """Run a build in a subprocess that stops at ``target`` after ``body``; SIGKILL it."""
    close_clients()
    script = KILLER.format(target=target, body=body)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), *sys.path])}
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), str(root), str(db), target],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "written":
        proc.kill()
        raise AssertionError(f"the writer did not get there: {line!r} {proc.communicate()[1]}")
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL


@pytest.mark.slow
def test_a_writer_killed_before_the_alias_switch(git_repo: GitRepoFactory, db: Path) -> None:
    root = git_repo(FUNCS)
    # Half the rows written to a new collection, then killed (before any alias exists).
    body = "rows = args[2]; real(args[0], args[1], rows[: len(rows) // 2])"
    kill_mid_write(root, db, "insert_rows", body)
    client = engine(db)
    (half,) = client.list_collections()
    assert client.list_aliases()["aliases"] == []  # never switched: no reader sees it
    client.load_collection(half)
    assert client.query(half, filter='key != ""', output_fields=["key"], limit=100) != []
    close_clients()

    store, stats = load_or_build(root, Settings.load(embed="hash:64", dense=f"milvus:{db}"))
    assert not stats.cache_hit
    assert store.search("handler_4_1", k=1)[0].symbol == "handler_4_1"
    client = engine(db)
    (keys,) = stored_keys(client).values()
    assert len(keys) == 20  # complete
    assert half not in client.list_collections()  # the leftover is gone
    assert len([c for c in client.list_collections() if GENERATION in c]) == 1


@pytest.mark.slow
def test_a_writer_killed_mid_edit_leaves_the_last_state_whole(
    git_repo: GitRepoFactory, db: Path
) -> None:
    root = git_repo(FUNCS, commit=True)
    settings = Settings.load(embed="hash:64", dense=f"milvus:{db}")
    store, _stats = load_or_build(root, settings)
    before = [(h.path, h.symbol) for h in store.search("handler_1_2 value", k=5)]
    (root / "pkg/mod1.py").write_text(FUNCS["pkg/mod1.py"].replace("* 2", "* 7"), "utf-8")
    # The changed row inserted, the stale one not yet deleted, the entry not written: killed.
    kill_mid_write(root, db, "delete_rows", "pass")
    git(root, "checkout", "--", ".")
    again, stats = load_or_build(root, settings)
    assert stats.cache_hit  # the last state's entry opens: every row it reads is there
    assert [(h.path, h.symbol) for h in again.search("handler_1_2 value", k=5)] == before
    close_clients()
    (root / "pkg/mod1.py").write_text(FUNCS["pkg/mod1.py"].replace("* 2", "* 7"), "utf-8")
    edited, stats = load_or_build(root, settings)
    assert not stats.cache_hit
    assert (edited.dense.inserted, edited.dense.deleted) == (0, 1)  # type: ignore[union-attr]


def test_an_unreachable_server_is_one_line_and_bm25(git_repo: GitRepoFactory) -> None:
    root = git_repo(FUNCS)
    flags = ("--repo", str(root), "--embed", "hash:64", "--dense", "milvus:http://127.0.0.1:1")
    answer = run("ask", *flags, "--llm", "none", "--json", "where is handler_3_1 defined")
    assert answer.code == 0, answer.err
    assert "Traceback" not in answer.err
    said = [line for line in answer.err.splitlines() if "127.0.0.1:1" in line]
    assert len(said) == 1, answer.err
    assert "BM25" in said[0]
    result = json.loads(answer.out)
    assert result["sources"][0]["path"] == "pkg/mod3.py"
    built = run("index", *flags, "--json")
    assert built.code == 0, built.err
    assert len([ln for ln in built.err.splitlines() if "127.0.0.1:1" in ln]) == 1, built.err
    assert "Traceback" not in built.err


SUITE = Path(__file__).resolve().parents[2] / "eval" / "stdlib.jsonl"


@pytest.mark.slow
@pytest.mark.skipif(not local_available(), reason="needs the local extra")
def test_the_files_faiss_finds_in_its_order(tmp_path: Path, db: Path) -> None:
    """The eval suite's questions on two real packages, the offline MiniLM embedder: Milvus
    Lite's FLAT index is exact, so the same chunks come back as from FAISS, in its order."""
    rows = [json.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines()]
    for package in ("json", "http"):
        root = tmp_path / package
        shutil.copytree(Path(sysconfig.get_paths()["stdlib"]) / package, root,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        questions = [r["question"] for r in rows if r["repo"] == f"stdlib:{package}"]
        assert len(questions) >= 10
        faiss, _ = load_or_build(root, Settings.load(embed="local", dense="faiss"))
        milvus, _ = load_or_build(root, Settings.load(embed="local", dense=f"milvus:{db}"))
        assert type(milvus.dense).__name__ != type(faiss.dense).__name__
        for question in questions:
            exact, found = faiss.dense_scores(question, 20), milvus.dense_scores(question, 20)
            assert [i for i, _ in found] == [i for i, _ in exact], question
            np.testing.assert_allclose([s for _, s in found], [s for _, s in exact], atol=1e-5)
            files = [h.path for h in faiss.search(question, k=5)]
            assert [h.path for h in milvus.search(question, k=5)] == files, question


HOLDER = """
import sys, time
from pymilvus import MilvusClient
client = MilvusClient(sys.argv[1])
client.list_collections()
print("holding", flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_a_backend_lost_mid_session_is_said_once(git_repo: GitRepoFactory, db: Path) -> None:
    """Milvus Lite's file taken by another process after the index opened: the next search
    says so once and answers from BM25; nothing is raised."""
    root = git_repo(FUNCS)
    index = LazyIndex(root, Settings.load(embed="hash:64", dense=f"milvus:{db}"))
    store = index.get()
    (first,) = store.search("handler_0_2 value", k=1)
    assert (first.symbol, "dense" in first.ranks) == ("handler_0_2", True)
    assert index.take_notices() == []
    close_clients()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "holding"
        hits = store.search("handler_0_2 value", k=1)
        assert hits[0].symbol == "handler_0_2"  # from BM25
        assert "dense" not in hits[0].ranks
        (said,) = index.take_notices()
        assert str(db) in said
        assert "BM25" in said
        store.search("handler_1_1", k=1)
        assert index.take_notices() == []  # said once
    finally:
        holder.kill()
        holder.wait()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A Milvus server over gRPC on loopback (Milvus Lite's own server command)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "milvus_lite", "server", "--data-dir", str(tmp_path / "srv"),
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.2)
        else:
            pytest.fail("the Milvus server did not start")
        close_clients()
        yield f"http://127.0.0.1:{port}"
    finally:
        close_clients()
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_a_server_by_url_is_the_same_code_path(
    git_repo: GitRepoFactory, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEAGENT_MILVUS_TOKEN", "root:Milvus")
    root = git_repo(FUNCS)
    settings = Settings.load(embed="hash:64", dense=f"milvus:{server}")
    store, stats = load_or_build(root, settings)
    assert (stats.notices, store.dense.inserted) == ([], 20)  # type: ignore[union-attr]
    close_clients()
    again, stats = load_or_build(root, settings)
    assert stats.cache_hit
    (hit,) = again.search("handler_3_2 value", k=1)
    assert (hit.path, hit.symbol, "dense" in hit.ranks) == ("pkg/mod3.py", "handler_3_2", True)
    (keys,) = stored_keys(client_for(server)).values()
    assert len(keys) == 20


def test_cache_clear_drops_the_repositorys_collections(git_repo: GitRepoFactory, db: Path) -> None:
    root = git_repo(FUNCS)
    settings = Settings.load(embed="hash:64", dense=f"milvus:{db}")
    load_or_build(root, settings)
    client = engine(db)
    (alias,) = client.list_aliases()["aliases"]
    assert any(c.startswith(alias) for c in client.list_collections())
    result = run("cache", "clear", "--yes")
    assert result.code == 0, result.err
    assert client.list_aliases()["aliases"] == []
    assert [c for c in client.list_collections() if c.startswith("codeagent_")] == []
    assert not any(settings.cache_dir.glob("*/*/manifest.json"))


def test_cache_clear_with_milvus_gone_says_so_and_clears_the_cache(
    git_repo: GitRepoFactory, db: Path
) -> None:
    root = git_repo(FUNCS)
    settings = Settings.load(embed="hash:64", dense=f"milvus:{db}")
    load_or_build(root, settings)
    close_clients()
    shutil.rmtree(db.parent)  # a file where the Milvus Lite file's folder was: cannot open
    db.parent.write_text("not a folder", encoding="utf-8")
    result = run("cache", "clear", "--yes")
    assert result.code == 0, result.err
    assert "left 1 Milvus alias(es)" in result.err
    assert "Traceback" not in result.err
    assert not any(settings.cache_dir.glob("*/*/manifest.json"))
