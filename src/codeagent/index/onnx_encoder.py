"""Batch encoding of chunks with ONNX Runtime: the indexing path of the local embedder.

Runs the graph :mod:`codeagent.index.onnx_export` writes (BERT + mean pooling + L2 norm) on
the CPU. Texts are tokenised by the model's own ``tokenizer.json`` and batched by length
(longest first) so a batch pads little; each batch is cut to its longest text and holds at
most ``MAX_BATCH_TOKENS`` padded tokens (a fraction of a second per run, so a cancelled job,
see :mod:`codeagent.cancel`, stops within one run). Importing
onnxruntime and opening the session takes a fraction of a second, against seconds for torch.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from codeagent.index.minilm import load_tokenizer

# Padded tokens per batch. On two cores, 8 texts of 256 tokens a batch embedded 400 chunks as
# fast as 16 and 17 % faster than 32, at 411 MiB peak against 1,033 MiB for 32
# (docs/benchmarks.md): the attention's activations grow with rows x width^2. 1,024 (8 chunks
# of 128 tokens) embedded 128 chunks as fast as 2,048 and keeps one run near a quarter of a
# second on two busy cores, so Ctrl-C stops the embedding within a second.
MAX_BATCH_TOKENS = 1024

_SESSIONS: dict[str, OnnxEncoder] = {}
_LOCK = threading.Lock()


def default_threads() -> int:
    """Batches run at once, one thread each: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


class OnnxEncoder:
    """Sentence vectors from an exported MiniLM ONNX file."""

    def __init__(
        self,
        onnx_file: Path,
        model_dir: Path,
        *,
        threads: int | None = None,
        max_tokens: int | None = None,
    ) -> None:
        import onnxruntime as ort

        # One thread per run, and as many runs at once as there are cores: on two cores two
        # single-threaded batches side by side embed 6-19 % more chunks per second than one
        # batch on two threads (docs/benchmarks.md). A session may be run from several threads.
        self.workers = threads or default_threads()
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        self.session = ort.InferenceSession(
            str(onnx_file), options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = load_tokenizer(model_dir, max_tokens)
        self.dim = int(self.session.get_outputs()[0].shape[1])

    def _run(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (vectors,) = self.session.run(["embedding"], feeds)
        return np.asarray(vectors, dtype=np.float32)

    def encode(
        self, texts: list[str], batch_size: int = 64, max_tokens: int = MAX_BATCH_TOKENS
    ) -> np.ndarray:
        """L2-normalised float32 vectors, row i for ``texts[i]``."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        from codeagent.cancel import current

        token = current()  # checked before each run: a cancelled job stops within one run
        self.tokenizer.no_padding()
        tokens = [e.ids for e in self.tokenizer.encode_batch(texts)]

        def run(rows: list[int]) -> None:
            token.check()
            width = len(tokens[rows[0]])
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for row, i in enumerate(rows):
                ids[row, : len(tokens[i])] = tokens[i]
                mask[row, : len(tokens[i])] = 1
            out[rows] = self._run(ids, mask)

        batches = length_batches([len(t) for t in tokens], batch_size, max_tokens)
        if self.workers == 1 or len(batches) == 1:
            for rows in batches:
                run(rows)
        else:
            with ThreadPoolExecutor(self.workers, thread_name_prefix="onnx") as pool:
                list(pool.map(run, batches))  # list(): re-raise the first error
        return out


def length_batches(lengths: list[int], max_rows: int, max_tokens: int) -> list[list[int]]:
    """Indices grouped into batches, longest first: each batch padded to its first (longest)
    text holds at most ``max_tokens`` padded tokens and ``max_rows`` rows (a text longer than
    the budget is a batch of its own). Long texts go a few at a time, which bounds the
    attention's memory; short ones many at a time."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for i in order:
        if batches:
            batch = batches[-1]
            width = lengths[batch[0]]
            if len(batch) < max_rows and (len(batch) + 1) * width <= max_tokens:
                batch.append(i)
                continue
        batches.append([i])
    return batches


def get_onnx_encoder(
    onnx_file: Path, model_dir: Path, max_tokens: int | None = None
) -> OnnxEncoder:
    """The encoder for ``onnx_file`` reading ``max_tokens`` per text, opened once per process."""
    key = f"{onnx_file}:{max_tokens}"
    with _LOCK:
        if key not in _SESSIONS:
            _SESSIONS[key] = OnnxEncoder(onnx_file, model_dir, max_tokens=max_tokens)
        return _SESSIONS[key]
