"""Embedding throughput of the shipped code-tuned model against the base model, in one run.

    python bench/bench_tuned_speed.py SOURCE_DIR [--limit 600] [--rounds 3] [--home H]

The chunks of the ``.py`` files under ``SOURCE_DIR`` (the product's chunker) are embedded by
``--embed local:base`` and ``--embed local`` in turn (A B A B ...), each a fresh
:class:`codeagent.embed.embedders.LocalEmbedder` job after one warm-up job; prints chunks per
second per round and the medians. The base model is exported into ``H/models`` first if needed
(not timed).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from codeagent.embed.embedders import LocalEmbedder
from codeagent.index.chunking import chunk_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("--limit", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--home", type=Path, default=Path(tempfile.mkdtemp()))
    args = parser.parse_args()
    texts = [
        chunk.embed_text
        for path in sorted(args.source.rglob("*.py"))
        for chunk in chunk_file(path.relative_to(args.source).as_posix(), path.read_text())
    ][: args.limit]
    models = args.home / "models"
    embedders = {
        "base": LocalEmbedder(models_dir=models, base=True),
        "tuned": LocalEmbedder(models_dir=models),
    }
    for embedder in embedders.values():
        embedder.embed_documents(texts[:64])  # export / open the session: not timed
    rates: dict[str, list[float]] = {name: [] for name in embedders}
    for round_ in range(args.rounds):
        for name, embedder in embedders.items():
            started = time.perf_counter()
            embedder.embed_documents(texts)
            rates[name].append(len(texts) / (time.perf_counter() - started))
            print(f"round {round_ + 1} {name}: {rates[name][-1]:.1f} chunks/s", flush=True)
    for name, values in rates.items():
        print(f"{name}: median {statistics.median(values):.1f} chunks/s over {len(texts)} chunks")


if __name__ == "__main__":
    main()
