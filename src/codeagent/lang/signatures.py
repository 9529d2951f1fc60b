"""A tree-sitter definition's signature: its text before its body, on one line, without the
comments written inside it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

MAX_SIGNATURE = 200  # longer ones are cut with "..."


def signature(node: Node) -> str:
    """The definition's text before its body, on one line, its comments left out (a
    ``// eslint-disable-next-line`` among a class's type parameters)."""
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    raw = (node.text or b"")[: end - node.start_byte]
    if b"//" in raw or b"/*" in raw or b"#" in raw:
        raw = _without_comments(node, raw, end)
    text = raw.decode("utf-8", errors="replace")
    if body is None:
        text = text.split("\n", 1)[0]
    sig = " ".join(text.split()).rstrip("{ :")
    return sig if len(sig) <= MAX_SIGNATURE else sig[: MAX_SIGNATURE - 3] + "..."


def _without_comments(node: Node, raw: bytes, end: int) -> bytes:
    """``raw`` (the bytes of ``node`` up to ``end``) less the comment nodes inside it."""
    cuts: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        for child in current.children:
            if child.start_byte >= end:
                break
            if "comment" in child.type:
                cuts.append((child.start_byte, min(child.end_byte, end)))
            elif child.child_count:
                stack.append(child)
    out, at = [], node.start_byte
    for start, stop in sorted(cuts):
        out.append(raw[at - node.start_byte : start - node.start_byte])
        at = stop
    out.append(raw[at - node.start_byte :])
    return b" ".join(out)
