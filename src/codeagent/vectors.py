"""Unit-length float32 rows: what every embedder returns and every dense index stores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def normalise(vectors: Any) -> np.ndarray:
    """``vectors`` as a C-contiguous float32 matrix with rows of length 1 (a zero row stays
    zero; one vector becomes a one-row matrix)."""
    import numpy as np

    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: np.ndarray = np.ascontiguousarray(array / norms, dtype=np.float32)
    return unit
