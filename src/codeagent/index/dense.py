"""The dense-index seam: what the store needs from a vector index, and the backends by name.

A backend stores L2-normalised float32 rows in the order they are added (row i is chunk i)
and returns the ``k`` best rows by inner product. ``faiss-flat`` (exact, FAISS ``IndexFlatIP``)
is the default; another backend (an HNSW index, an embedded vector database) is one module
implementing :class:`DenseIndex` plus one line in :data:`BACKENDS`. The backend's name is part
of the index fingerprint, so switching backends never opens an index written by another.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from codeagent.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

DEFAULT_BACKEND = "faiss-flat"
# name -> "module:class"; imported only when an index of that kind is made or opened
BACKENDS = {"faiss-flat": "codeagent.index.faiss_index:FaissFlatIndex"}


class DenseIndex(Protocol):
    """A vector index over the chunks of one repository state."""

    backend: str  # the name in BACKENDS
    dim: int

    def __len__(self) -> int: ...

    def add(self, vectors: np.ndarray) -> None:
        """Append rows ``(n, dim)``; they get the next ids."""

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, ids)``, each ``(len(queries), k)``, best first; id -1 pads."""

    def save(self, path: Path) -> None:
        """Write the index to the file ``path``."""


class DenseIndexType(Protocol):
    """What a backend class offers besides the instance methods: make and load."""

    backend: str

    def __call__(self, dim: int) -> DenseIndex: ...

    def load(self, path: Path) -> DenseIndex: ...


def backend_class(name: str) -> DenseIndexType:
    """The class implementing backend ``name``; ConfigError for an unknown name."""
    try:
        target = BACKENDS[name]
    except KeyError:
        known = ", ".join(sorted(BACKENDS))
        raise ConfigError(f"unknown dense index backend {name!r}: use {known}") from None
    module, _, cls = target.partition(":")
    found: DenseIndexType = getattr(importlib.import_module(module), cls)
    return found
