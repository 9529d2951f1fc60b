"""The optional LLM judge, with a fake chat model."""

from __future__ import annotations

import pytest
from langchain_core.language_models import FakeListChatModel

from codeagent.errors import EvalError
from codeagent.eval.judge import LLMJudge, judge_prompt, parse_scores
from codeagent.eval.suite import SuiteItem

ITEM = SuiteItem(
    id="q1",
    question="How does $x { } work?",
    repo="stdlib:json",
    reference_answer="It is in `decoder.py`.",
    source="test",
)


def test_prompt_holds_the_rubric_and_the_three_texts() -> None:
    prompt = judge_prompt(ITEM, "It is in scanner.py.")
    assert "correctness" in prompt
    assert "completeness" in prompt
    assert "How does $x { } work?" in prompt  # placeholders in values are left alone
    assert "It is in `decoder.py`." in prompt
    assert "It is in scanner.py." in prompt
    assert "$answer" not in prompt


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"correctness": 7, "completeness": 4, "rationale": "ok"}', (7, 4, "ok")),
        ('Sure!\n```json\n{"correctness": "9", "completeness": 12}\n```', (9, 10, "")),
        ("Correctness: 3/10\nCompleteness: 0", (3, 1, "")),
    ],
)
def test_parse_scores(reply: str, expected: tuple[int, int, str]) -> None:
    got = parse_scores(reply)
    assert (got["correctness"], got["completeness"], got["rationale"]) == expected


def test_parse_scores_without_scores_raises() -> None:
    with pytest.raises(EvalError, match="holds no scores"):
        parse_scores("I cannot grade this.")


def test_llm_judge_calls_the_model_once_per_answer() -> None:
    model = FakeListChatModel(responses=['{"correctness": 6, "completeness": 5}'])
    scores = LLMJudge(model)(ITEM, "an answer")
    assert scores == {"correctness": 6, "completeness": 5, "rationale": ""}
