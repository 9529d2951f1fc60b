"""Untrusted text in, safe text out: chat-template control tokens stripped, questions capped.

Questions, past turns and repository code all reach the model; any of them could carry the
tokens a chat template uses to open or close a turn, and so forge a system message.
"""

from __future__ import annotations

import re

# Special tokens of the common chat templates (ChatML, Llama 2/3, Gemma, Mistral, GPT-2 ...).
_CONTROL_TOKENS = re.compile(
    r"<\|[^|<>\n]{1,40}\|>"  # generic <|...|>: im_start, im_end, eot_id, begin_of_text, ...
    r"|\[/?INST\]"
    r"|<</?SYS>>"
    r"|</?(?:start_of_turn|end_of_turn)>"
    r"|</?s>",
    re.IGNORECASE,
)


def strip_control_tokens(text: str) -> str:
    """Remove chat-template control tokens, repeatedly (a removal must not form a new one)."""
    previous = None
    while previous != text:
        previous = text
        text = _CONTROL_TOKENS.sub("", text)
    return text


def sanitize_question(question: str, max_chars: int) -> tuple[str, list[str]]:
    """The question stripped of control tokens and capped at ``max_chars``, with notices."""
    notices: list[str] = []
    cleaned = strip_control_tokens(question).strip()
    if cleaned != question.strip():
        notices.append("removed chat-template control tokens from the question")
    if len(cleaned) > max_chars:
        notices.append(
            f"question cut to its first {max_chars} of {len(cleaned)} characters "
            "(max_question_chars)"
        )
        cleaned = cleaned[:max_chars].rstrip()
    return cleaned, notices
