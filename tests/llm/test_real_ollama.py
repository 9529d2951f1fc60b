"""Against a real Ollama server, when one answers (skipped otherwise).

The host comes from ``CODEAGENT_TEST_OLLAMA_HOST`` (default ``http://127.0.0.1:11434``) and the
chat model from ``CODEAGENT_TEST_OLLAMA_MODEL`` (default: the first non-embedding model the
server lists). Both are read at import, before the autouse fixture clears ``CODEAGENT_*``.
"""

from __future__ import annotations

import os
from typing import Literal

import pytest
from langchain_core.exceptions import OutputParserException
from pydantic import BaseModel

from codeagent.config import Settings
from codeagent.errors import ModelMissingError
from codeagent.llm import make_chat_model, probe_ollama, with_context_size
from codeagent.llm.status import looks_like_embedding_model

REAL_HOST = os.environ.get("CODEAGENT_TEST_OLLAMA_HOST", "http://127.0.0.1:11434")
REAL_MODEL = os.environ.get("CODEAGENT_TEST_OLLAMA_MODEL")

pytestmark = [pytest.mark.ollama, pytest.mark.slow]


class RouteDecision(BaseModel):
    tool: Literal["ast", "rag"]
    file: str | None = None


@pytest.fixture(scope="module")
def real() -> tuple[Settings, str]:
    status = probe_ollama(REAL_HOST, timeout=1.0)
    if not status.reachable:
        pytest.skip(f"no Ollama server at {REAL_HOST} (set CODEAGENT_TEST_OLLAMA_HOST)")
    chat_models = [m for m in status.models if not looks_like_embedding_model(m)]
    model = REAL_MODEL or (chat_models[0] if chat_models else None)
    if model is None or not status.has(model):
        pytest.skip(f"no chat model on {status.host} (set CODEAGENT_TEST_OLLAMA_MODEL)")
    return Settings(ollama_host=status.host, llm_timeout=300.0), model


def test_stream_from_a_real_model(real: tuple[Settings, str]) -> None:
    settings, name = real
    model = make_chat_model(f"ollama:{name}", settings)
    assert model is not None
    chunks = [c.content for c in with_context_size(model, 2000).stream("Say hello in one word.")]
    assert "".join(str(c) for c in chunks).strip()


def test_structured_output_from_a_real_model(real: tuple[Settings, str]) -> None:
    settings, name = real
    model = make_chat_model(f"ollama:{name}", settings)
    assert model is not None
    router = model.with_structured_output(RouteDecision, method="json_schema")
    try:
        decision = router.invoke("Which tool lists the classes in models.py? ast or rag?")
    except OutputParserException:
        return  # the agent falls back to the rule router
    assert decision.tool in ("ast", "rag")


def test_missing_model_on_a_real_server(real: tuple[Settings, str]) -> None:
    settings, _ = real
    with pytest.raises(ModelMissingError, match="ollama pull no-such-model-xyz"):
        make_chat_model("ollama:no-such-model-xyz", settings)
