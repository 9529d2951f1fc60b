"""codeagent: ask questions about a checked-out code repository, locally, with cited answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codeagent.errors import CodeAgentError

if TYPE_CHECKING:
    from codeagent.config import Settings

__version__ = "0.1.0"

__all__ = ["CodeAgentError", "Settings", "__version__"]


def __getattr__(name: str) -> Any:
    # Imported on first use: `codeagent ask` talking to a running server never needs the
    # settings machinery (pydantic-settings costs about a third of a second to import).
    if name == "Settings":
        from codeagent.config import Settings

        return Settings
    raise AttributeError(f"module 'codeagent' has no attribute {name!r}")
