"""Encoding with ONNX Runtime: the local embedder's one runtime, for chunks and questions.

Runs the graph :mod:`codeagent.embed.onnx_export` writes (BERT + mean pooling + L2 norm) on
the CPU. Texts are tokenised by the model's own ``tokenizer.json`` and batched by length
(longest first) so a batch pads little; each batch is cut to its longest text and holds at
most ``MAX_BATCH_TOKENS`` padded tokens (a fraction of a second per run, so a cancelled job,
see :mod:`codeagent.cancel`, stops within one run). Importing
onnxruntime and opening the session takes a fraction of a second, against seconds for torch.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

# Padded tokens per batch. On two cores, 8 texts of 256 tokens a batch embedded 400 chunks as
# fast as 16 and 17 % faster than 32, at 411 MiB peak against 1,033 MiB for 32
# (docs/benchmarks.md): the attention's activations grow with rows x width^2. 1,024 (8 chunks
# of 128 tokens) embedded 128 chunks as fast as 2,048 and keeps one run near a quarter of a
# second on two busy cores, so Ctrl-C stops the embedding within a second.
MAX_BATCH_TOKENS = 1024

_SESSIONS: dict[str, OnnxEncoder] = {}
_LOCK = threading.Lock()  # the tokenizers of an encoder
_SESSION_LOCK = threading.Lock()


def max_length(model_dir: Path) -> int:
    """Tokens the model reads: its position table, capped by sentence-transformers' setting."""
    config = json.loads((model_dir / "config.json").read_text())
    length = int(config["max_position_embeddings"])
    st_config = model_dir / "sentence_bert_config.json"
    if st_config.exists():
        length = min(length, int(json.loads(st_config.read_text())["max_seq_length"]))
    return length


def load_tokenizer(model_dir: Path, max_tokens: int | None = None) -> Any:
    """The model's ``tokenizer.json``, truncating at :func:`max_length` (or ``max_tokens``,
    when shorter)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    length = max_length(model_dir)
    tokenizer.enable_truncation(max_length=min(length, max_tokens or length))
    return tokenizer


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
        keep_in: Path | None = None,
    ) -> None:
        """``keep_in``: the models folder where the tuned model's optimized graph is kept
        (:mod:`codeagent.embed.optimized`); None opens ``onnx_file`` as it is."""
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
        if keep_in is not None:
            from codeagent.embed.optimized import open_session

            self.session = open_session(ort, onnx_file, options, keep_in)
        else:
            self.session = ort.InferenceSession(
                str(onnx_file), options, providers=["CPUExecutionProvider"]
            )
        self.model_dir = model_dir
        self._tokenizers: dict[int | None, Any] = {}  # tokens read -> a tokenizer cutting there
        self.dim = int(self.session.get_outputs()[0].shape[1])

    def tokenizer(self, read_tokens: int | None) -> Any:
        """The tokenizer that cuts texts at ``read_tokens`` (None: the model's limit)."""
        with _LOCK:
            if read_tokens not in self._tokenizers:
                self._tokenizers[read_tokens] = load_tokenizer(self.model_dir, read_tokens)
            return self._tokenizers[read_tokens]

    def _run(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (vectors,) = self.session.run(["embedding"], feeds)
        return np.asarray(vectors, dtype=np.float32)

    def encode(
        self,
        texts: list[str],
        batch_size: int = 64,
        max_tokens: int = MAX_BATCH_TOKENS,
        read_tokens: int | None = None,
    ) -> np.ndarray:
        """L2-normalised float32 vectors, row i for ``texts[i]``, each text read up to
        ``read_tokens`` tokens (None: the model's limit); a batch holds at most ``batch_size``
        texts and ``max_tokens`` padded tokens."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        from codeagent.cancel import current

        token = current()  # checked before each run: a cancelled job stops within one run
        tokens = [e.ids for e in self.tokenizer(read_tokens).encode_batch(texts)]

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


def get_onnx_encoder(onnx_file: Path, model_dir: Path, keep_in: Path | None = None) -> OnnxEncoder:
    """The encoder for ``onnx_file``, opened once per process (chunks and questions share it;
    ``keep_in``: see :class:`OnnxEncoder`)."""
    key = str(onnx_file)
    with _SESSION_LOCK:
        if key not in _SESSIONS:
            _SESSIONS[key] = OnnxEncoder(onnx_file, model_dir, keep_in=keep_in)
        return _SESSIONS[key]
