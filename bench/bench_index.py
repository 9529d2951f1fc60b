"""Benchmark `codeagent index` with the local embedder on a real repository nobody here wrote.

Usage::

    python bench/bench_index.py [PATH]      # or BENCH_REPO=PATH; default: the stdlib `email`

The sources are copied into a temporary git repository and indexed with a fresh
``CODEAGENT_HOME``. Measured: the cold full index (model load included), the second run on the
unchanged repository (in-process, and as a ``python -m codeagent index --json`` subprocess
against ``python -c pass``), the re-index after editing one file, the first query on a cached
index, peak memory, and raw sentence-transformers ``encode`` on the same chunk texts with the
same batch size against our cached, batched embedding path. Prints Markdown.
"""

from __future__ import annotations

import email
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.config import Settings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def make_repo(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".git"))
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot")
    return dest


def wall(command: list[str], env: dict[str, str], runs: int = 3) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        out = done.stdout
    return statistics.median(times), out


def pick_file_to_edit(root: Path) -> Path:
    """A mid-sized Python file (median by size) to append one function to."""
    files = sorted((p for p in root.rglob("*.py") if ".git" not in p.parts), key=os.path.getsize)
    return files[len(files) // 2]


def main() -> int:
    arg = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BENCH_REPO", "")
    source = Path(arg) if arg else Path(email.__file__).parent
    work = Path(tempfile.mkdtemp(prefix="codeagent-bench-"))
    os.environ["CODEAGENT_HOME"] = str(work / "home")
    try:
        return run(source.resolve(), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(source: Path, work: Path) -> int:
    from codeagent.config import Settings
    from codeagent.index.build import load_or_build
    from codeagent.index.chunking import chunk_file

    repo = make_repo(source, work / source.name)
    settings = Settings.load(embed="local")
    rows: list[tuple[str, str]] = []

    start = time.perf_counter()
    store, cold = load_or_build(repo, settings)
    cold_s = time.perf_counter() - start
    embed_s = cold.seconds["embed"]
    rows += [
        ("repository", f"{source.name}: {cold.files_indexed} files, {cold.chunks} chunks"),
        ("cold full index (incl. the one-time ONNX export)", f"{cold_s:.1f} s"),
        ("  of which embedding", f"{embed_s:.1f} s, {cold.chunks_embedded / embed_s:.1f} chunks/s"),
        ("  discover / chunk / index+write", _phases(cold.seconds)),
    ]

    start = time.perf_counter()
    _, hit = load_or_build(repo, settings)
    rows.append(("second run, in-process (cache hit)", f"{time.perf_counter() - start:.3f} s"))
    assert hit.cache_hit

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    bare, _ = wall([sys.executable, "-c", "pass"], env)
    cli, out = wall(
        [sys.executable, "-m", "codeagent", "index", "--repo", str(repo), "--json"], env
    )
    assert json.loads(out)["cache_hit"]
    rows.append(
        (
            "second run, `python -m codeagent index --json`",
            f"{cli:.2f} s (python -c pass: {bare:.2f} s; added {cli - bare:.2f} s)",
        )
    )

    target = pick_file_to_edit(repo)
    rel = target.relative_to(repo).as_posix()
    before = {c.embed_text for c in chunk_file(rel, target.read_text(encoding="utf-8"))}
    with target.open("a", encoding="utf-8") as handle:
        handle.write("\n\ndef bench_added_function(value):\n    return value * 2\n")
    after = chunk_file(rel, target.read_text(encoding="utf-8"))
    changed = sum(1 for c in after if c.embed_text not in before)
    start = time.perf_counter()
    _, edited = load_or_build(repo, settings)
    rows.append(
        (
            f"re-index after editing `{rel}` ({len(after)} chunks, {changed} changed)",
            f"{time.perf_counter() - start:.2f} s, {edited.chunks_embedded} chunks embedded,"
            f" {edited.chunks_reused} reused",
        )
    )

    rows += query_timings(repo)
    rows += throughput([c.embed_text for c in store.chunks], settings, work)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows.append(("peak memory (RSS, this process)", f"{peak:.0f} MiB"))

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    return 0 if edited.chunks_embedded == changed else 1


def _phases(seconds: dict[str, float]) -> str:
    write = seconds["bm25"] + seconds["dense"] + seconds["save"]
    return f"{seconds['discover']:.2f} / {seconds['chunk']:.2f} / {write:.2f} s"


def query_timings(repo: Path) -> list[tuple[str, str]]:
    """A fresh process opens the cached index; first BM25-only and first hybrid query."""
    code = (
        "import sys, time\n"
        "t = time.perf_counter()\n"
        "from pathlib import Path\n"
        "from codeagent.config import Settings\n"
        "from codeagent.index.build import load_or_build\n"
        "store, _ = load_or_build(Path(sys.argv[1]), Settings.load(embed='local'))\n"
        "opened = time.perf_counter() - t; t = time.perf_counter()\n"
        "emb, store.embedder = store.embedder, None\n"
        "store.search('how are headers parsed', k=8)\n"
        "bm25 = time.perf_counter() - t; store.embedder = emb; t = time.perf_counter()\n"
        "store.search('how are headers parsed', k=8)\n"
        "first = time.perf_counter() - t; t = time.perf_counter()\n"
        "store.search('where are attachments decoded', k=8)\n"
        "print(opened, bm25, first, time.perf_counter() - t)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", code, str(repo)], env=env, capture_output=True, text=True, check=True
    )
    opened, bm25, first, second = (float(x) for x in out.stdout.split())
    return [
        ("open cached index in a fresh process (imports included)", f"{opened:.2f} s"),
        ("first query, BM25 only (loads the BM25 index)", f"{bm25 * 1000:.0f} ms"),
        ("first hybrid query (numpy MiniLM, no torch)", f"{first:.2f} s"),
        ("next hybrid query", f"{second * 1000:.0f} ms"),
    ]


def throughput(texts: list[str], settings: Settings, work: Path) -> list[tuple[str, str]]:
    """Our batched, cached embedding path vs raw `encode` on the same texts, same model."""
    import torch

    from codeagent.embed.cache import EmbedCache
    from codeagent.embed.embedders import LocalEmbedder

    embedder = LocalEmbedder(settings.batch_size, settings.home / "models")  # as the product
    model = embedder.model  # the raw model: sentence-transformers on torch, 256 tokens
    model.encode(texts[:64], batch_size=settings.batch_size)  # warm-up
    start = time.perf_counter()
    model.encode(texts, batch_size=settings.batch_size, normalize_embeddings=True)
    raw = time.perf_counter() - start
    with EmbedCache(work / "fresh-embeddings") as cache:
        start = time.perf_counter()
        cache.embed(embedder, texts, batch_size=settings.batch_size)
        ours = time.perf_counter() - start
    n = len(texts)
    return [
        (
            f"raw `SentenceTransformer.encode`, {n} chunks, batch {settings.batch_size}",
            f"{raw:.1f} s, {n / raw:.1f} chunks/s (torch threads: {torch.get_num_threads()})",
        ),
        (
            f"ours (EmbedCache.embed, empty cache; {embedder.path_used})",
            f"{ours:.1f} s, {n / ours:.1f} chunks/s",
        ),
        ("ours / raw throughput", f"{raw / ours:.0%}"),
    ]


if __name__ == "__main__":
    sys.exit(main())
