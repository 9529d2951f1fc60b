"""Benchmark retrieval (file ranking + chunk choice) on an index of about 50,000 chunks.

Usage::

    python bench/bench_retrieval.py [CHUNKS]     # default 50000
    python bench/bench_retrieval.py 50000 --dump OUT.json    # and every question's ranking

``--dump`` writes, per question, every ranked file with its score (``repr`` of the float) and
the windows :func:`~codeagent.tools.rag_tool.retrieve` returns: two dumps taken before and
after a change to the ranking's code must be equal byte for byte (``cmp A.json B.json``).

The chunks are those of the Python standard library (``Lib/``, tests included), repeated
under renamed top folders until ``CHUNKS`` is reached, with the symbol graph of those files
(definitions and call sites feed the ranking); the index is BM25 only (the dense side adds
one FAISS search). The questions are the 38 issue reports of ``eval/swebench-loc.jsonl``
(long) and the questions of ``eval/stdlib.jsonl`` (short). Measured: building the index, the
first question (the lazy per-index tables and the BM25 load are paid there), then the latency of
:func:`codeagent.rank.retrieve.retrieve` with ``k = 10``, p50 and p95. Prints Markdown.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

from codeagent.index.chunking import chunk_file, parse_python
from codeagent.rank.retrieve import retrieve
from codeagent.records import Chunk
from codeagent.store.store import IndexStore
from codeagent.symbols.graph import SymbolGraph

ROOT = Path(__file__).resolve().parents[1]


def stdlib_chunks(limit: int) -> tuple[list[Chunk], dict[str, Any]]:
    """The chunks, and the ``ast`` tree of every file they come from (copies included)."""
    lib = Path(sysconfig.get_paths()["stdlib"])
    trees: dict[str, Any] = {}
    files = sorted(p for p in lib.rglob("*.py") if "site-packages" not in p.parts)
    base: list[Chunk] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rel = path.relative_to(lib).as_posix()
        tree = parse_python(rel, text)
        if tree is not None:
            trees[rel] = tree
        base += chunk_file(rel, text, tree)
    chunks: list[Chunk] = []
    own: dict[str, str] = {}  # path of each copy -> the stdlib file it copies
    copy = 0
    while len(chunks) < limit:
        prefix = f"copy{copy}/" if copy else ""
        for c in base[: limit - len(chunks)]:
            chunks.append(
                Chunk(prefix + c.path, c.start_line, c.end_line, c.text, c.symbol, c.kind)
            )
            own[prefix + c.path] = c.path
        copy += 1
    return chunks, {path: trees[rel] for path, rel in own.items() if rel in trees}


def questions() -> list[str]:
    out = []
    for name in ("swebench-loc.jsonl", "stdlib.jsonl"):
        for line in (ROOT / "eval" / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line)["question"])
    return out


def dump(store: IndexStore, asked: list[str], out: Path) -> None:
    """Every question's full ranking and retrieved windows, as JSON (see the module's doc)."""
    from codeagent.rank.query import analyze
    from codeagent.rank.ranking import rank_files

    found = []
    for question in asked:
        ranking = rank_files(store, question, analyze(question))
        hits = retrieve(store, question, 10)
        found.append(
            {
                "question": question[:80],
                "files": [[path, repr(score)] for path, score in ranking.files],
                "hits": [[h.path, h.start_line, h.end_line, repr(h.score)] for h in hits],
            }
        )
    out.write_text(json.dumps(found, indent=0) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    out = None
    if "--dump" in argv:
        at = argv.index("--dump")
        out = Path(argv[at + 1])
        argv = argv[:at] + argv[at + 2 :]
    limit = int(argv[0]) if argv else 50_000
    t0 = time.perf_counter()
    chunks, trees = stdlib_chunks(limit)
    t1 = time.perf_counter()
    graph = SymbolGraph.build(trees)
    del trees  # as in a real run: the graph is built from the trees, which are not kept
    gc.collect()
    store = IndexStore.build(chunks, None, None, symbols=graph)
    t2 = time.perf_counter()
    asked = questions()
    retrieve(store, asked[0], 10)
    t3 = time.perf_counter()
    times = []
    for question in asked:
        start = time.perf_counter()
        retrieve(store, question, 10)
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    files = len({c.path for c in chunks})
    print(f"{len(chunks)} chunks in {files} files (stdlib, repeated); BM25 only\n")
    print("| step | seconds |\n|---|---|")
    print(f"| chunk the files | {t1 - t0:.2f} |")
    print(f"| build the symbol graph and the BM25 index | {t2 - t1:.2f} |")
    print(f"| first question (per-index tables) | {t3 - t2:.3f} |")
    print(f"| retrieve, p50 over {len(times)} questions | {statistics.median(times):.4f} |")
    print(f"| retrieve, p95 | {p95:.4f} |")
    if out is not None:
        dump(store, asked, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
