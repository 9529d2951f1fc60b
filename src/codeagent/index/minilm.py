"""A small numpy encoder for all-MiniLM-L6-v2, for embedding a query in a fresh process.

Importing torch and loading the model through sentence-transformers costs seconds; one query
needs only a few small matrix products. This module runs the same BERT encoder with numpy:

    embeddings   word + position + token type, then LayerNorm
    N layers     x = LN(x + attention(x));  x = LN(x + W2 gelu(W1 x))
    pooling      the mean of the token vectors under the attention mask, then L2 normalised

Weights come from ``model.safetensors``, sizes from ``config.json``, the tokenizer from
``tokenizer.json`` ([CLS] … [SEP], truncated to ``max_seq_length``). Float32 throughout.
It imports neither torch, transformers nor sentence-transformers. Indexing, which embeds
thousands of chunks, stays on sentence-transformers.
"""

from __future__ import annotations

import json
import threading
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Protocol

import numpy as np


class _TensorFile(Protocol):
    """What is read from a ``safetensors.safe_open`` file (its methods carry no types)."""

    def keys(self) -> list[str]: ...
    def get_slice(self, name: str) -> Any: ...
    def get_tensor(self, name: str) -> np.ndarray: ...


def _open_tensors(path: Path) -> _TensorFile:
    from safetensors import safe_open

    opened: _TensorFile = safe_open(str(path), framework="numpy")
    return opened


_CACHE: dict[str, MiniLMQueryEncoder] = {}
_CACHE_LOCK = threading.Lock()

# Abramowitz & Stegun 7.1.26: |erf(x) - approximation| < 1.5e-7 for x >= 0.
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _erf(x: np.ndarray) -> np.ndarray:
    ax = np.abs(x)
    t = 1.0 / (1.0 + _ERF_P * ax)
    a1, a2, a3, a4, a5 = _ERF_A
    poly = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5))))
    out: np.ndarray = np.sign(x) * (1.0 - poly * np.exp(-ax * ax))
    return out


def _gelu(x: np.ndarray) -> np.ndarray:
    """The exact (erf) GELU that BERT's ``gelu`` activation is."""
    out: np.ndarray = 0.5 * x * (1.0 + _erf(x * np.float32(0.7071067811865476)))
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    out: np.ndarray = centred / np.sqrt(var + np.float32(eps)) * weight + bias
    return out


def _one_blas_thread() -> AbstractContextManager[object]:
    """Single-threaded BLAS: on a busy machine idle BLAS threads turn 25 ms into a second."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - installed with sentence-transformers
        return nullcontext()
    limits: AbstractContextManager[object] = threadpool_limits(1, user_api="blas")
    return limits


def _softmax(x: np.ndarray) -> np.ndarray:
    x = np.exp(x - x.max(axis=-1, keepdims=True))
    out: np.ndarray = x / x.sum(axis=-1, keepdims=True)
    return out


def max_length(model_dir: Path) -> int:
    """Tokens the model reads: its position table, capped by sentence-transformers' setting."""
    config = json.loads((model_dir / "config.json").read_text())
    length = int(config["max_position_embeddings"])
    st_config = model_dir / "sentence_bert_config.json"
    if st_config.exists():
        length = min(length, int(json.loads(st_config.read_text())["max_seq_length"]))
    return length


def load_tokenizer(model_dir: Path, max_tokens: int | None = None) -> Any:
    """The model's ``tokenizer.json``: truncated to :func:`max_length` (or ``max_tokens``,
    when shorter), padded per batch."""
    from tokenizers import Tokenizer

    config = json.loads((model_dir / "config.json").read_text())
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    length = max_length(model_dir)
    tokenizer.enable_truncation(max_length=min(length, max_tokens or length))
    pad_id = int(config.get("pad_token_id", 0))
    tokenizer.enable_padding(pad_id=pad_id, pad_token=tokenizer.id_to_token(pad_id))
    return tokenizer


class MiniLMQueryEncoder:
    """all-MiniLM-L6-v2 (or any BERT sentence-transformer with mean pooling) in numpy."""

    def __init__(self, model_dir: str | Path) -> None:
        root = Path(model_dir)
        config = json.loads((root / "config.json").read_text())
        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"unsupported activation {config['hidden_act']!r} in {root}")
        self.root = root
        self.tokenizer = load_tokenizer(root)
        self._short: dict[int, Any] = {}  # max_tokens -> a tokenizer truncating there
        self.max_seq_length = max_length(root)
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.dim = int(config["hidden_size"])

        # every tensor but the 30k-row word embeddings, whose rows are read as tokens need them
        self._file = _open_tensors(root / "model.safetensors")
        names = list(self._file.keys())
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in names else ""
        words = f"{prefix}embeddings.word_embeddings.weight"
        self._words = self._file.get_slice(words)
        self.w = {
            name[len(prefix) :]: self._file.get_tensor(name).astype(np.float32, copy=False)
            for name in names
            if name.startswith((f"{prefix}embeddings.", f"{prefix}encoder."))
            and name != words
            and self._file.get_slice(name).get_dtype().startswith("F")  # not position_ids
        }

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        flat = x.reshape(-1, x.shape[-1])  # one 2-D product, not one per batch row
        out = flat @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]
        shaped: np.ndarray = out.reshape(*x.shape[:-1], out.shape[-1])
        return shaped

    def _ln(self, x: np.ndarray, name: str) -> np.ndarray:
        return _layer_norm(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def _attention(self, x: np.ndarray, bias: np.ndarray, name: str) -> np.ndarray:
        batch, length, _ = x.shape
        head_dim = self.dim // self.heads

        def split(t: np.ndarray) -> np.ndarray:  # (b, L, D) -> (b, H, L, d)
            return t.reshape(batch, length, self.heads, head_dim).transpose(0, 2, 1, 3)

        q = split(self._linear(x, f"{name}.self.query"))
        k = split(self._linear(x, f"{name}.self.key"))
        v = split(self._linear(x, f"{name}.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) * np.float32(1.0 / np.sqrt(head_dim)) + bias
        context = (_softmax(scores) @ v).transpose(0, 2, 1, 3).reshape(batch, length, self.dim)
        return self._linear(context, f"{name}.output.dense")

    def _word_vectors(self, ids: np.ndarray) -> np.ndarray:
        unique, where = np.unique(ids, return_inverse=True)
        table = np.concatenate([self._words[i : i + 1] for i in unique.tolist()])
        vectors: np.ndarray = table.astype(np.float32, copy=False)[where.reshape(ids.shape)]
        return vectors

    def _forward(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self.w
        positions = np.arange(ids.shape[1])
        x = (
            self._word_vectors(ids)
            + w["embeddings.position_embeddings.weight"][positions]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = self._ln(x, "embeddings.LayerNorm")
        # padded keys get a large negative score: no attention flows to them
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :].astype(np.float32)
        for i in range(self.layers):
            layer = f"encoder.layer.{i}"
            attended = self._attention(x, bias, f"{layer}.attention")
            x = self._ln(x + attended, f"{layer}.attention.output.LayerNorm")
            hidden = _gelu(self._linear(x, f"{layer}.intermediate.dense"))
            x = self._ln(
                x + self._linear(hidden, f"{layer}.output.dense"), f"{layer}.output.LayerNorm"
            )
        return x

    def _tokenizer(self, max_tokens: int | None) -> Any:
        if max_tokens is None or max_tokens >= self.max_seq_length:
            return self.tokenizer
        with _CACHE_LOCK:
            if max_tokens not in self._short:
                self._short[max_tokens] = load_tokenizer(self.root, max_tokens)
            return self._short[max_tokens]

    def encode(self, texts: list[str], max_tokens: int | None = None) -> np.ndarray:
        """L2-normalised float32 sentence vectors, shape ``(len(texts), hidden_size)``; each
        text read up to ``max_tokens`` tokens (default: the model's limit)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batch = self._tokenizer(max_tokens).encode_batch(texts)
        ids = np.array([e.ids for e in batch], dtype=np.int64)
        types = np.array([e.type_ids for e in batch], dtype=np.int64)
        mask = np.array([e.attention_mask for e in batch], dtype=np.float32)
        with _one_blas_thread():
            tokens = self._forward(ids, types, mask)
        summed = (tokens * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), np.float32(1e-9))
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
        return np.ascontiguousarray(pooled / norms, dtype=np.float32)


def get_encoder(model_dir: str | Path) -> MiniLMQueryEncoder:
    """The encoder for ``model_dir``, loaded once per process."""
    key = str(Path(model_dir).resolve())
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = MiniLMQueryEncoder(key)
        return _CACHE[key]
