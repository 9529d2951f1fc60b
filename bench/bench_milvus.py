"""Milvus Lite against FAISS behind the dense-index seam: the same answers, the latency, an edit.

Usage::

    python bench/bench_milvus.py same      # the stdlib suite, --embed local, both backends
    python bench/bench_milvus.py latency   # search latency at ~5,000 chunks (and 50,000 rows)
    python bench/bench_milvus.py edit      # a one-function edit of a ~5,000-chunk repository

``same``: every package of ``eval/stdlib.jsonl`` indexed with the offline MiniLM embedder into
FAISS and into Milvus Lite; per question, the dense top 20 (chunk ids) and the files of the
fused top 5 compared. ``latency``: a repository of standard-library packages (~5,000 chunks,
``hash:384``, the dimension of MiniLM), the suite's questions searched 5 times each through
``IndexStore.search`` and through the dense index alone; then 50,000 random unit rows through
the backends alone. ``edit``: the same repository, one function changed, rebuilt: the
seconds of the write phase and the rows Milvus wrote and deleted. Everything under a
temporary ``CODEAGENT_HOME``. Prints JSON.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
SUITE = ROOT / "eval" / "stdlib.jsonl"
PACKAGES = ("email", "asyncio", "logging", "http", "urllib", "concurrent", "json", "xml",
            "multiprocessing", "importlib", "unittest", "tkinter", "idlelib")  # fmt: skip


def questions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines()]


def ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return {"p50_ms": round(statistics.median(values) * 1e3, 2), "p95_ms": round(p95 * 1e3, 2)}


def same(work: Path) -> dict[str, Any]:
    import shutil

    from codeagent.config import Settings
    from codeagent.index.build import load_or_build

    rows = questions()
    result: dict[str, Any] = {"questions": 0, "same_dense_top20": 0, "same_files_top5": 0}
    for package in sorted({r["repo"].split(":", 1)[1] for r in rows}):
        root = work / package
        shutil.copytree(Path(sysconfig.get_paths()["stdlib"]) / package, root,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        faiss, stats = load_or_build(root, Settings.load(embed="local", dense="faiss"))
        db = f"milvus:{work / 'same.db'}"
        milvus, _ = load_or_build(root, Settings.load(embed="local", dense=db))
        result[package] = stats.chunks
        for row in rows:
            if row["repo"] != f"stdlib:{package}":
                continue
            q = row["question"]
            result["questions"] += 1
            ids = [[i for i, _ in s.dense_scores(q, 20)] for s in (faiss, milvus)]
            result["same_dense_top20"] += ids[0] == ids[1]
            files = [[h.path for h in s.search(q, k=5)] for s in (faiss, milvus)]
            result["same_files_top5"] += files[0] == files[1]
    return result


def big_repo(work: Path, target: int = 5000) -> Path:
    """Standard-library packages copied in until about ``target`` chunks."""
    import shutil
    import subprocess

    from codeagent.index.chunking import chunk_file

    repo = work / "repo"
    lib = Path(sysconfig.get_paths()["stdlib"])
    count = 0
    for package in PACKAGES:
        if count >= target:
            break
        shutil.copytree(lib / package, repo / package,
                        ignore=shutil.ignore_patterns("__pycache__", "test", "tests"))  # fmt: skip
        for path in (repo / package).rglob("*"):
            if path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                count += len(chunk_file(path.relative_to(repo).as_posix(), text))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "import"]):
        subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com",
                        "-c", "commit.gpgsign=false", *args], cwd=repo, check=True)  # fmt: skip
    return repo


def timed_build(root: Path, dense: str) -> tuple[Any, Any, float]:
    from codeagent.config import Settings
    from codeagent.index.build import load_or_build

    started = time.perf_counter()
    store, stats = load_or_build(root, Settings.load(embed="hash:384", dense=dense))
    return store, stats, time.perf_counter() - started


def latency(work: Path) -> dict[str, Any]:
    import numpy as np

    from codeagent.store.dense import backend_class

    root = big_repo(work)
    texts = [r["question"][:500] for r in questions()] * 5
    result: dict[str, Any] = {}
    for name, dense in (("faiss", "faiss"), ("milvus_lite", f"milvus:{work / 'lat.db'}")):
        store, stats, seconds = timed_build(root, dense)
        result[name] = {"chunks": stats.chunks, "first_build_s": round(seconds, 2)}
        store.search(texts[0], k=10)  # BM25 load, the engine's first search
        vectors = [store.embedder.embed_query(t).reshape(1, -1) for t in texts]
        dense_only = []
        for vector in vectors:
            started = time.perf_counter()
            store.dense.search(vector, 60)
            dense_only.append(time.perf_counter() - started)
        fused = []
        for text in texts:
            started = time.perf_counter()
            store.search(text, k=10)
            fused.append(time.perf_counter() - started)
        result[name] |= {"dense_search_k60": ms(dense_only), "store_search_k10": ms(fused)}
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((50_000, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    queries = rows[rng.integers(0, len(rows), 200)]
    for name, spec in (("faiss", "faiss"), ("milvus_lite", f"milvus:{work / 'big.db'}")):
        kind = backend_class(spec)
        index = kind(384)
        index.add(rows)
        entry = work / "cache" / "rows-000000000000" / "state"
        entry.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        index.save(entry / kind.file_name)
        write = time.perf_counter() - started
        index = kind.load(entry / kind.file_name)
        index.search(queries[:1], 60)
        took = []
        for query in queries:
            started = time.perf_counter()
            index.search(query.reshape(1, -1), 60)
            took.append(time.perf_counter() - started)
        result[f"{name}_50k_rows"] = {"write_s": round(write, 2), "search_k60": ms(took)}
    return result


def edit(work: Path) -> dict[str, Any]:
    from codeagent.store.milvus_client import client_for, close_clients
    from codeagent.store.milvus_index import MilvusIndex

    root = big_repo(work)
    target = root / "email" / "utils.py"
    text = target.read_text(encoding="utf-8")
    result: dict[str, Any] = {}
    for name, dense in (("faiss", "faiss"), ("milvus_lite", f"milvus:{work / 'edit.db'}")):
        target.write_text(text, encoding="utf-8")
        _store, stats, first = timed_build(root, dense)
        close_clients()  # the edit opens the engine again, as a new process would
        if name == "milvus_lite":  # the engine's start, as a new process pays it
            started = time.perf_counter()
            client_for(MilvusIndex.configured(str(work / "edit.db")).target())
            result["milvus_lite_start_s"] = round(time.perf_counter() - started, 2)
        target.write_text(text.replace("def formatdate(", "def format_date(", 1), "utf-8")
        store, edited, seconds = timed_build(root, dense)
        dense_index = store.dense
        result[name] = {
            "chunks": stats.chunks,
            "first_build_s": round(first, 2),
            "edit_build_s": round(seconds, 2),
            "edit_write_s": round(edited.seconds["save"], 3),
            "edit_dense_s": round(edited.seconds["dense"], 3),
            "rows_written": getattr(dense_index, "inserted", None),
            "rows_deleted": getattr(dense_index, "deleted", None),
        }
    return result


def main() -> None:
    import importlib.util

    if importlib.util.find_spec("pymilvus") is None:
        print("skipped: needs the milvus extra (pip install 'codeagent[milvus]')")
        return
    part = sys.argv[1] if len(sys.argv) > 1 else "latency"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["CODEAGENT_HOME"] = str(work / "home")
        run = {"same": same, "latency": latency, "edit": edit}[part]
        print(json.dumps({part: run(work)}, indent=1))


if __name__ == "__main__":
    main()
