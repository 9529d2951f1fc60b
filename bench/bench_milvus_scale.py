"""Milvus Lite at 100,000 and 500,000 vectors: memory, disk, insert rate and search latency per
index type, the figures docs/deploy.md extrapolates to a team's millions of vectors.

Usage::

    python bench/bench_milvus_scale.py                     # FLAT, IVF_FLAT, HNSW; 100k, 500k
    python bench/bench_milvus_scale.py --sizes 100000 --types FLAT

Rows are unit vectors of MiniLM's dimension (384, float32), random but clustered (2,000 centres
plus noise) so that an IVF index meets data with structure, as code embeddings have; memory and
disk do not depend on the values. Each size and index type gets a fresh Milvus Lite file in a
temporary folder and a process of its own. Queries are stored rows plus a little noise.
Measured: the insert rate (rows/s, batches of 2,000, then a flush and the index build), the
growth of resident memory (this process and any children) from an open empty engine to the
loaded collection after the searches (the rows, also held in numpy for the recall check, are
allocated before), the file's size on disk, and 200 searches (k = 60, one query each, the first
20 not counted) p50 / p95, with the recall of the top 60 against exact numpy search. Prints
JSON lines.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

DIM = 384
BATCH = 2000
K = 60
SEARCHES = 200
WARM = 20


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` (KiB), from /proc."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """Every descendant of ``pid``."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            kids = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
        for kid in map(int, kids):
            found.append(kid)
            found.extend(children(kid))
    return found


def disk_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def rows(n: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((2000, DIM)).astype(np.float32)
    data = centres[rng.integers(0, len(centres), n)] + 0.6 * rng.standard_normal((n, DIM)).astype(
        np.float32
    )
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    return data


def one(n: int, index_type: str, work: Path) -> dict[str, Any]:
    from pymilvus import DataType, MilvusClient

    data = rows(n)
    rng = np.random.default_rng(11)  # questions near stored rows, as a chunk's own words are
    queries = data[rng.integers(0, n, SEARCHES)] + 0.05 * rng.standard_normal((SEARCHES, DIM))
    queries = (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32)
    db = work / f"scale-{index_type}-{n}.db"
    client = MilvusClient(str(db))
    client.list_collections()  # the engine is up: what follows is the data's
    base = rss_kib(os.getpid()) + sum(rss_kib(p) for p in children(os.getpid()))
    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("key", DataType.VARCHAR, is_primary=True, max_length=64)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=DIM)
    index = client.prepare_index_params()
    nlist = int(4 * n**0.5)  # the usual 4 * sqrt(n) lists; a search probes 1/16 of them
    params = {"nlist": nlist} if index_type.startswith("IVF") else {}
    if index_type == "HNSW":
        params = {"M": 16, "efConstruction": 200}
    index.add_index(field_name="vector", index_type=index_type, metric_type="IP", params=params)
    client.create_collection("scale", schema=schema, index_params=index)
    started = time.perf_counter()
    for start in range(0, n, BATCH):
        block = data[start : start + BATCH]
        client.insert(
            "scale",
            [{"key": f"{start + i:032x}", "vector": v.tolist()} for i, v in enumerate(block)],
        )
    client.flush("scale")
    client.load_collection("scale")
    insert_s = time.perf_counter() - started
    search: dict[str, int] = {"nprobe": max(1, nlist // 16)} if index_type.startswith("IVF") else {}
    if index_type == "HNSW":
        search = {"ef": 2 * K}
    times, recall = [], []
    for q, query in enumerate(queries):
        t0 = time.perf_counter()
        hits = client.search(
            "scale", data=[query.tolist()], limit=K, output_fields=["key"],
            search_params={"metric_type": "IP", "params": search}, anns_field="vector",
        )  # fmt: skip
        if q >= WARM:
            times.append(time.perf_counter() - t0)
        exact = set(np.argsort(-(data @ query))[:K].tolist())
        got = {int(h["entity"]["key"], 16) for h in hits[0]}
        recall.append(len(exact & got) / K)
    total = rss_kib(os.getpid()) + sum(rss_kib(p) for p in children(os.getpid()))
    client.close()
    times.sort()
    return {
        "vectors": n,
        "index": index_type,
        "insert_rows_per_s": round(n / insert_s),
        "rss_growth_mib": round((total - base) / 1024, 1),
        "disk_mib": round(disk_bytes(db) / 2**20, 1),
        "raw_vectors_mib": round(n * DIM * 4 / 2**20, 1),
        "search_p50_ms": round(statistics.median(times) * 1e3, 2),
        "search_p95_ms": round(times[int(0.95 * len(times))] * 1e3, 2),
        "recall_at_60": round(float(np.mean(recall)), 4),
        "load_1min": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,500000")
    parser.add_argument("--types", default="FLAT,IVF_FLAT,HNSW")
    parser.add_argument("--one", nargs=2, metavar=("N", "TYPE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:  # one size and type, in a process of its own (memory is measured per process)
        with tempfile.TemporaryDirectory(prefix="milvus-scale-") as tmp:
            try:
                result = one(int(args.one[0]), args.one[1], Path(tmp))
            except Exception as exc:  # an index type this engine does not build
                result = {"vectors": int(args.one[0]), "index": args.one[1], "error": str(exc)}
            print(json.dumps(result), flush=True)
        return
    for n in (int(s) for s in args.sizes.split(",")):
        for index_type in args.types.split(","):
            subprocess.run([sys.executable, __file__, "--one", str(n), index_type], check=False)


if __name__ == "__main__":
    sys.exit(main())
