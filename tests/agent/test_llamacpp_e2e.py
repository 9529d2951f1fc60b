"""The whole graph on a real local model (llama.cpp, the tiny gemma3-270m base model).

The model is too small to answer well, so these tests assert mechanics only: the router's
structured output is parsed or safely replaced by the rules, the answer streams token by
token, every listed source exists in the repository, and nothing raises.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.workspace import Workspace
from streams import collect
from codeagent.config import Settings
from codeagent.llm import make_chat_model

pytestmark = [pytest.mark.slow, pytest.mark.llamacpp]


@pytest.fixture(scope="module")
def gemma(gemma_gguf: Path) -> object:
    return make_chat_model(f"llamacpp:{gemma_gguf}", Settings(llm="none"))


@pytest.mark.parametrize(
    "question",
    ["list the classes in shop/models.py", "how does charge retry with exponential backoff?"],
)
def test_graph_end_to_end_on_llamacpp(
    sample_repo: Path, settings: Settings, gemma: object, question: str
) -> None:
    got = collect(Workspace(sample_repo, settings, chat_model=gemma), question)
    result, tokens = got.result, got.tokens

    assert result.route.decided_by in {"llm", "rules"}
    assert result.route.tool in {"ast", "rag"}
    if result.route.decided_by == "rules":
        assert result.route.reason  # why the rules took over is recorded
    assert len(tokens) > 1  # streamed, not returned in one piece
    assert "".join(tokens) == result.answer
    for source in result.sources:
        lines = (sample_repo / source.path).read_text().splitlines()
        assert 1 <= source.start_line <= source.end_line <= len(lines)
    assert set(result.to_json()["timings"]) == {"route", "retrieve", "answer", "total"}
