"""Is an Ollama server there, and which models does it have? (one quick HTTP probe)

Used by ``--llm auto`` (decide without waiting long), by ``ollama:MODEL`` (fail early with a
clear message instead of deep inside a stream) and by ``codeagent doctor``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from urllib.parse import urlsplit

logger = logging.getLogger(__name__)

DEFAULT_PORT = 11434
PROBE_TIMEOUT = 0.8


def normalize_host(host: str) -> str:
    """``OLLAMA_HOST`` as a base URL: ``127.0.0.1`` -> ``http://127.0.0.1:11434``.

    Follows Ollama's own rules: no scheme means ``http://``, and no port (without a scheme)
    means 11434.
    """
    host = host.strip() or f"127.0.0.1:{DEFAULT_PORT}"
    if "://" not in host:
        parts = urlsplit(f"http://{host}")
        netloc = parts.netloc if parts.port is not None else f"{parts.netloc}:{DEFAULT_PORT}"
        if netloc.startswith(":"):
            netloc = f"127.0.0.1{netloc}"
        return f"http://{netloc}{parts.path}".rstrip("/")
    return host.rstrip("/")


def model_matches(wanted: str, available: str) -> bool:
    """Ollama resolves a name without a tag to ``:latest``."""
    if ":" not in wanted:
        wanted = f"{wanted}:latest"
    if ":" not in available:
        available = f"{available}:latest"
    return wanted == available


def find_model(wanted: str, models: list[str]) -> str | None:
    return next((m for m in models if model_matches(wanted, m)), None)


EMBED_NAME_HINTS = ("embed", "minilm", "bge-", "e5-", "gte-")


def looks_like_embedding_model(name: str) -> bool:
    """A guess from the name (Ollama's tag list does not say what a model is for)."""
    lowered = name.lower()
    return any(hint in lowered for hint in EMBED_NAME_HINTS)


@dataclass
class OllamaStatus:
    """What one probe of an Ollama server found."""

    host: str
    reachable: bool
    models: list[str] = field(default_factory=list)
    version: str | None = None
    error: str | None = None

    def has(self, model: str) -> bool:
        return find_model(model, self.models) is not None

    def to_json(self) -> dict[str, object]:
        return {
            "host": self.host,
            "reachable": self.reachable,
            "version": self.version,
            "models": self.models,
            "error": self.error,
        }


def probe_ollama(
    host: str, *, timeout: float = PROBE_TIMEOUT, with_version: bool = False
) -> OllamaStatus:
    """GET ``/api/tags`` (and ``/api/version``) with a short timeout. Never raises."""
    import httpx

    base = normalize_host(host)
    try:
        with httpx.Client(base_url=base, timeout=timeout) as client:
            response = client.get("/api/tags")
            response.raise_for_status()
            models = sorted(
                str(m.get("model") or m.get("name"))
                for m in response.json().get("models", [])
                if m.get("model") or m.get("name")
            )
            version = None
            if with_version:
                try:
                    version = str(client.get("/api/version").json().get("version"))
                except (httpx.HTTPError, ValueError, AttributeError):
                    version = None
    except httpx.HTTPStatusError as exc:
        error = f"HTTP {exc.response.status_code} from {base}/api/tags"
        logger.info("Ollama probe: %s", error)
        return OllamaStatus(host=base, reachable=False, error=error)
    except (httpx.HTTPError, ValueError, AttributeError) as exc:
        error = f"{type(exc).__name__}: {exc}".rstrip(": ")
        logger.info("Ollama probe of %s failed: %s", base, error)
        return OllamaStatus(host=base, reachable=False, error=error)
    return OllamaStatus(host=base, reachable=True, models=models, version=version)
