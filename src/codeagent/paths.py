"""Where codeagent keeps its files (standard library only: read on every start-up)."""

from __future__ import annotations

import os
from pathlib import Path


def default_home() -> Path:
    """``CODEAGENT_HOME``, else ``~/.codeagent``."""
    env = os.environ.get("CODEAGENT_HOME", "").strip()
    return Path(env).expanduser().absolute() if env else Path.home() / ".codeagent"
