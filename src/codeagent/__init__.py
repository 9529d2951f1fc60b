"""codeagent: ask questions about a checked-out code repository, locally, with cited answers.

    from codeagent import Workspace
    Workspace.open("path/to/repo").ask("list the classes in src/app/models.py").answer

Importing the package is light: the workspace, its events and results are imported on
first use (the AST route never loads torch, FAISS or numpy).

Importing it also switches off the telemetry of the libraries codeagent loads (ONNX Runtime,
Hugging Face, LangSmith tracing), before any of them is imported: see :mod:`codeagent.offline`.
"""

from __future__ import annotations

from codeagent.errors import CodeAgentError
from codeagent.offline import keep_offline

# First thing on every path into codeagent (the CLI, the server, MCP, eval, a program's
# `import codeagent`): the switches must be set before onnxruntime and the rest are imported.
keep_offline()

TYPE_CHECKING = (
    False  # as typing.TYPE_CHECKING: `codeagent ask` through a server never needs typing
)
if TYPE_CHECKING:
    from typing import Any

    from codeagent.config import Settings
    from codeagent.events import (
        Event,
        NoticeEvent,
        ResultEvent,
        RouteEvent,
        SourcesEvent,
        TokenEvent,
    )
    from codeagent.result import AskResult, Source
    from codeagent.workspace import Conversation, Workspace

__version__ = "0.1.0"

# Imported on first use, Settings too: `codeagent ask` talking to a running server never
# needs pydantic-settings (about a third of a second to import).
_LAZY = {
    "Settings": "codeagent.config",
    "Workspace": "codeagent.workspace",
    "Conversation": "codeagent.workspace",
    "AskResult": "codeagent.result",
    "Source": "codeagent.result",
    "Event": "codeagent.events",
    "RouteEvent": "codeagent.events",
    "NoticeEvent": "codeagent.events",
    "SourcesEvent": "codeagent.events",
    "TokenEvent": "codeagent.events",
    "ResultEvent": "codeagent.events",
}

__all__ = [
    "AskResult",
    "CodeAgentError",
    "Conversation",
    "Event",
    "NoticeEvent",
    "ResultEvent",
    "RouteEvent",
    "Settings",
    "Source",
    "SourcesEvent",
    "TokenEvent",
    "Workspace",
    "__version__",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'codeagent' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
