"""Ollama embedding models through langchain-ollama (``--embed ollama:MODEL``).

Errors of the server or the connection go through :func:`translate_backend_error`, the one
place Ollama failures become one-line messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.errors import BackendUnavailableError
from codeagent.llm.ollama import translate_backend_error
from codeagent.vectors import normalise

if TYPE_CHECKING:
    import numpy as np


class OllamaEmbedder:
    """An Ollama embedding model; the dimension is probed with one call."""

    def __init__(self, model: str, host: str, timeout: float = 120.0) -> None:
        from langchain_ollama import OllamaEmbeddings

        self.model_name = model
        self.host = host
        self.id = f"ollama:{model}"
        self._client = OllamaEmbeddings(
            model=model, base_url=host, client_kwargs={"timeout": timeout}
        )
        self.dim = int(self._call(["dimension probe"]).shape[1])

    def _call(self, texts: list[str]) -> np.ndarray:
        try:
            vectors = self._client.embed_documents(texts)
        except Exception as exc:
            raise translate_backend_error(exc, host=self.host) from exc
        if not vectors or len(vectors) != len(texts):
            raise BackendUnavailableError(
                f"Ollama at {self.host} returned {len(vectors or [])} vectors for {len(texts)}"
                f" texts with {self.model_name}; is it an embedding model?"
            )
        return normalise(vectors)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self._call(texts)

    def embed_query(self, text: str) -> np.ndarray:
        row: np.ndarray = self._call([text])[0]
        return row
