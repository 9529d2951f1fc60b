"""Load a script of ``eval/`` as a module, for the tests of those scripts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EVAL = Path(__file__).resolve().parents[1] / "eval"


def load_script(name: str) -> ModuleType:
    """``eval/NAME.py`` as the module ``NAME`` (registered, so a worker process finds its
    functions by name)."""
    spec = importlib.util.spec_from_file_location(name, EVAL / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_with_siblings(name: str) -> ModuleType:
    """``eval/NAME.py`` as :func:`load_script` loads it, for a script that imports its
    siblings by name (``from fit_ranker import ...``), as it does when run from ``eval/``."""
    sys.path.insert(0, str(EVAL))
    try:
        return load_script(name)
    finally:
        sys.path.remove(str(EVAL))
