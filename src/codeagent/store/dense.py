"""The dense-index seam: what the store needs from a vector index, and the backends by name.

A backend stores L2-normalised float32 rows in the order they are added (row i is chunk i)
and returns the ``k`` best rows by inner product. The setting ``dense`` (``CODEAGENT_DENSE``,
``--dense``) names the backend; ``faiss`` (exact, ``IndexFlatIP``) is the default. Another
backend (an HNSW index, an embedded vector database: ``NAME:PATH``) is one module implementing
:class:`DenseIndex` plus one line in :data:`BACKENDS` (or one :func:`register_backend` call).
The backend's id is part of the index fingerprint, so switching backends never opens an
index written by another; nothing outside the backend's module names it.

A backend is a class with ``backend``, ``file_name``, ``dim``, ``add``, ``search``, ``save``,
``__len__`` and a ``load`` classmethod. One whose rows live outside the cache entry sets
``external = True`` (opened, and so checked, with the entry) and raises
``BackendUnavailableError`` when it cannot be reached (the store then searches BM25 only); one
with an ``embedder_id`` attribute (:class:`NamesEmbedder`) is told the embedder's id before its
first ``add``. ``load_or_build(root, settings, embedder=..., dense=...)`` takes both, so a
test hands in fakes there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from codeagent.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

DEFAULT_BACKEND = "faiss"  # what the setting CODEAGENT_DENSE / --dense means when empty
# The backends by name: "module:class" (imported only when an index of that kind is made or
# opened), or a class. A setting names one as NAME or NAME:ARG (e.g. a database path); a
# backend that takes an argument has a ``configured(arg)`` classmethod returning the class
# to use.
BACKENDS: dict[str, str | DenseIndexType] = {
    "faiss": "codeagent.store.faiss_index:FaissFlatIndex",
    "milvus": "codeagent.store.milvus_index:MilvusIndex",
}


def register_backend(name: str, target: str | DenseIndexType) -> Callable[[], None]:
    """Add backend ``name`` (``"module:class"`` or the class); returns the call removing it."""
    BACKENDS[name] = target

    def unregister() -> None:
        if BACKENDS.get(name) is target:
            del BACKENDS[name]

    return unregister


def named(spec: str) -> str:
    """The backend a setting names: ``spec`` itself, or the default when it is empty."""
    return spec.strip() or DEFAULT_BACKEND


def parse_spec(spec: str) -> tuple[str, str]:
    """``"NAME"`` or ``"NAME:ARG"`` (empty: the default) -> ``(name, arg)``; ConfigError for an
    unknown name (nothing is imported)."""
    name, _, arg = named(spec).partition(":")
    if name not in BACKENDS:
        known = ", ".join(sorted(BACKENDS))
        raise ConfigError(f"unknown dense index backend {spec.strip()!r}: use {known}")
    return name, arg


class DenseIndex(Protocol):
    """A vector index over the chunks of one repository state."""

    backend: str  # its id in the index fingerprint and the manifest
    file_name: str  # the file it saves to in a cache entry
    dim: int

    def __len__(self) -> int: ...

    def add(self, vectors: np.ndarray) -> None:
        """Append rows ``(n, dim)``; they get the next ids."""

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, ids)``, each ``(len(queries), k)``, best first; id -1 pads."""

    def save(self, path: Path) -> None:
        """Write the index to the file ``path``."""


@runtime_checkable
class NamesEmbedder(Protocol):
    """A dense index told which embedder made its rows (set before the first ``add``)."""

    embedder_id: str


class DenseIndexType(Protocol):
    """What a backend class offers besides the instance methods: make and load."""

    backend: str
    file_name: str

    def __call__(self, dim: int) -> DenseIndex: ...

    def load(self, path: Path) -> DenseIndex: ...


def backend_class(spec: str) -> DenseIndexType:
    """The class implementing the backend ``spec`` names (``NAME`` or ``NAME:ARG``);
    ConfigError for an unknown name, or an argument the backend does not take."""
    name, arg = parse_spec(spec)
    target = BACKENDS[name]
    if isinstance(target, str):
        module, _, cls = target.partition(":")
        target = cast("DenseIndexType", getattr(importlib.import_module(module), cls))
    if not arg:
        return target
    configured = getattr(target, "configured", None)
    if configured is None:
        raise ConfigError(f"dense index backend {name!r} takes no argument (got {arg!r})")
    found: DenseIndexType = configured(arg)
    return found


def backend_with_id(backend: str, preferred: str = DEFAULT_BACKEND) -> DenseIndexType:
    """The class whose ``backend`` id is ``backend`` (what a manifest records), looked for
    from ``preferred`` on; ConfigError when no registered backend has it."""
    for spec in dict.fromkeys([preferred, *BACKENDS]):
        try:
            kind = backend_class(spec)
        except ConfigError:
            continue
        if kind.backend == backend:
            return kind
    raise ConfigError(f"no dense index backend {backend!r} is registered")
