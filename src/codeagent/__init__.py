"""codeagent: ask questions about a checked-out code repository, locally, with cited answers."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.errors import CodeAgentError

__version__ = "0.1.0"

__all__ = ["CodeAgentError", "Settings", "__version__"]
