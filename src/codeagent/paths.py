"""Where codeagent keeps its files (standard library only: read on every start-up)."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path


def default_home() -> Path:
    """``CODEAGENT_HOME``, else ``~/.codeagent``."""
    from pathlib import Path

    return Path(home_folder())


def home_folder() -> str:
    """:func:`default_home` as a string, without importing pathlib (``codeagent ask``
    answered by a server reads it)."""
    env = os.environ.get("CODEAGENT_HOME", "").strip()
    if env:
        return os.path.abspath(os.path.expanduser(env))
    return os.path.join(os.path.expanduser("~"), ".codeagent")
