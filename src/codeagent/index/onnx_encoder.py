"""Batch encoding of chunks with ONNX Runtime: the indexing path of the local embedder.

Runs the graph :mod:`codeagent.index.onnx_export` writes (BERT + mean pooling + L2 norm) on
the CPU. Texts are tokenised by the model's own ``tokenizer.json`` and batched by length
(longest first) so a batch pads little; each batch is cut to its longest text. Importing
onnxruntime and opening the session takes a fraction of a second, against seconds for torch.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np

from codeagent.index.minilm import load_tokenizer

_SESSIONS: dict[str, OnnxEncoder] = {}
_LOCK = threading.Lock()


def default_threads() -> int:
    """Threads for one inference: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


class OnnxEncoder:
    """Sentence vectors from an exported MiniLM ONNX file."""

    def __init__(self, onnx_file: Path, model_dir: Path, *, threads: int | None = None) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or default_threads()
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        self.session = ort.InferenceSession(
            str(onnx_file), options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = load_tokenizer(model_dir)
        self.dim = int(self.session.get_outputs()[0].shape[1])

    def _run(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (vectors,) = self.session.run(["embedding"], feeds)
        return np.asarray(vectors, dtype=np.float32)

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """L2-normalised float32 vectors, row i for ``texts[i]``."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        self.tokenizer.no_padding()
        tokens = [e.ids for e in self.tokenizer.encode_batch(texts)]
        order = sorted(range(len(texts)), key=lambda i: -len(tokens[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            width = len(tokens[rows[0]])
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for row, i in enumerate(rows):
                ids[row, : len(tokens[i])] = tokens[i]
                mask[row, : len(tokens[i])] = 1
            out[rows] = self._run(ids, mask)
        return out


def get_onnx_encoder(onnx_file: Path, model_dir: Path) -> OnnxEncoder:
    """The encoder for ``onnx_file``, opened once per process."""
    key = str(onnx_file)
    with _LOCK:
        if key not in _SESSIONS:
            _SESSIONS[key] = OnnxEncoder(onnx_file, model_dir)
        return _SESSIONS[key]
