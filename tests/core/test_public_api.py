"""The library API: what ``codeagent`` exports, and that importing it stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import codeagent

PROBE = """
import sys
import codeagent
from codeagent import AskResult, Conversation, ResultEvent, TokenEvent, Workspace
heavy = {m.split(".")[0] for m in sys.modules} & {"torch", "faiss", "numpy", "langgraph"}
print(sorted(heavy))
"""


def test_the_public_names_are_exported() -> None:
    for name in codeagent.__all__:
        assert getattr(codeagent, name) is not None, name
    assert {"Workspace", "Conversation", "AskResult", "CodeAgentError", "Event"} <= set(
        codeagent.__all__
    )
    assert issubclass(codeagent.CodeAgentError, Exception)


def test_importing_the_workspace_loads_no_heavy_package() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert proc.stdout.strip() == "[]"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        _ = codeagent.no_such_thing  # type: ignore[attr-defined]
