"""An optional LLM judge: scores an answer against the reference answer, 1-10 for correctness
and completeness, with the rubric in ``prompts/judge.md``. Off unless ``--judge`` names a model.
"""

from __future__ import annotations

import json
import re
from typing import Any

from codeagent.errors import EvalError
from codeagent.eval.suite import SuiteItem

_OBJECT = re.compile(r"\{.*?\}", re.DOTALL)
_FIELD = re.compile(r"(correctness|completeness)\W{0,4}(\d{1,2})", re.IGNORECASE)
MAX_CHARS = 12_000  # of each text the judge sees


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + "\n[…]"


def judge_prompt(item: SuiteItem, answer: str) -> str:
    from codeagent.agent.prompts import render_prompt

    return render_prompt(
        "judge",
        question=_clip(item.question),
        reference_answer=_clip(item.reference_answer or ""),
        answer=_clip(answer),
    )


def parse_scores(text: str) -> dict[str, Any]:
    """``{"correctness": int, "completeness": int, "rationale": str}`` from the judge's reply.

    Takes the first JSON object that has both scores, else ``correctness: N`` style text;
    scores outside 1-10 are clamped into it. Raises :class:`EvalError` when neither is there.
    """
    for match in _OBJECT.finditer(text):
        try:
            data = json.loads(match.group(0))
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and {"correctness", "completeness"} <= data.keys():
            try:
                return {
                    "correctness": _clamp(data["correctness"]),
                    "completeness": _clamp(data["completeness"]),
                    "rationale": str(data.get("rationale", ""))[:500],
                }
            except (TypeError, ValueError):
                continue
    found = {name.lower(): int(value) for name, value in _FIELD.findall(text)}
    if {"correctness", "completeness"} <= found.keys():
        return {
            "correctness": _clamp(found["correctness"]),
            "completeness": _clamp(found["completeness"]),
            "rationale": "",
        }
    raise EvalError(f"the judge's reply holds no scores: {text[:120]!r}")


def _clamp(value: Any) -> int:
    return max(1, min(10, round(float(value))))


class LLMJudge:
    """Calls a langchain chat model once per answer; usable as the runner's ``judge``."""

    def __init__(self, chat_model: Any) -> None:
        self.chat_model = chat_model

    def __call__(self, item: SuiteItem, answer: str) -> dict[str, Any]:
        reply = self.chat_model.invoke(judge_prompt(item, answer))
        content = getattr(reply, "content", reply)
        if isinstance(content, list):
            content = "".join(str(part) for part in content)
        return parse_scores(str(content))
