"""A type's documentation says what its methods do.

A long comment above a type is cut into a window of its own (or ends a file's head), and it
says in a user's words what the type's methods do: pongo2 documents ``tagCycleNode`` in
thirty lines ("It's commonly used within loops to alternate between values ... alternating row
colors") and ``tagCycleNode.Execute``, which does the cycling, says nothing of the kind; for
"how can I alternate between values such as 'odd' and 'even' on each pass through a loop?"
the comment was the file's best window and shown first, with no line of code. Such a window
is scored down for a question asking how (:mod:`codeagent.rank.declarations`); what it matched
is passed on here, to the method of the type it documents that scores best on its own: the
method scores at least what the comment scored before it was scored down.

A window documents a type when it is a window of lines of its own (no definition's, not the
file's head), the chunk right after it is the type's declaration, and its last lines, at least
half of its lines, are comment lines. The file's head is not read so: its comment is as much
the module's, and pongo2's ``Context``, documented at the end of ``context.go``'s head, passed
its score on to ``checkForValidIdentifiers`` for "how does pongo2 look up a dotted variable
... in the context?".

    lifted = documented_methods(chunks, down, before, scores)  # {chunk id: its new score}
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import TYPE_CHECKING

from codeagent.rank.declarations import KINDS
from codeagent.rank.field_users import COMMENT
from codeagent.rank.idle_defs import CALLABLE

if TYPE_CHECKING:
    import numpy as np

    from codeagent.records import Chunk


def documents_type(text: str) -> bool:
    """Whether ``text`` ends with a comment of at least half of its lines (blank lines aside)."""
    lines = [line for line in text.splitlines() if line.strip()]
    trailing = 0
    for line in reversed(lines):
        if not COMMENT.match(line):
            break
        trailing += 1
    return trailing > 0 and 2 * trailing >= len(lines)


def documented_methods(
    chunks: Mapping[int, Chunk],
    down: Set[int],
    before: Mapping[int, float],
    scores: np.ndarray,
) -> dict[int, float]:
    """Of ``chunks`` (one file's, by id), the methods to lift, with the score each is lifted
    to: for each window of ``down`` (scored down; ``before``: its score before) that documents
    the type declared right after it, the type's method that scores best in ``scores``."""
    starts = {chunk.start_line: i for i, chunk in chunks.items()}
    lifted: dict[int, float] = {}
    for d in down:
        after = starts.get(chunks[d].end_line + 1)
        if chunks[d].symbol or after is None or chunks[after].kind not in KINDS:
            continue
        if not chunks[after].symbol or not documents_type(chunks[d].text):
            continue
        prefix = chunks[after].symbol + "."
        methods = [
            i
            for i, c in chunks.items()
            if i not in down and c.kind in CALLABLE and c.symbol.startswith(prefix)
        ]
        if methods:
            best = max(methods, key=lambda i: float(scores[i]))
            lifted[best] = max(lifted.get(best, 0.0), before[d])
    return lifted
