"""Chunking speed of the language layer: files/s over every file of a checkout it structures.

    PYTHONPATH=src python bench/bench_lang_chunks.py DIR [DIR ...] [--repeat 3]

Reads each file once, then times ``chunk_file`` (parse, queries, chunks) and, separately,
``parse_file`` alone, over all of them (best of ``--repeat``). Prints wall-clock and CPU
(process) time per repository: on a shared machine the CPU figure is the steadier one.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from codeagent.index.chunking import chunk_file
from codeagent.lang import language_for, parse_file


def files_of(root: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and language_for(rel) is not None and "/." not in f"/{rel}":
            out.append((rel, path.read_text(encoding="utf-8", errors="replace")))
    return out


def best(run: object, files: list[tuple[str, str]], repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        for rel, text in files:
            run(rel, text)  # type: ignore[operator]
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for root in args.dirs:
        files = files_of(root)
        lines = sum(text.count("\n") for _, text in files)
        chunk_wall, chunk_cpu = best(chunk_file, files, args.repeat)
        _, parse_cpu = best(parse_file, files, args.repeat)
        n = len(files)
        print(
            f"{root.name:28} files {n:5} lines {lines:7}  chunk_file {n / chunk_wall:7.0f} files/s"
            f" wall, {n / chunk_cpu:7.0f} files/s cpu  (parse only {n / parse_cpu:7.0f} cpu)"
        )


if __name__ == "__main__":
    main()
