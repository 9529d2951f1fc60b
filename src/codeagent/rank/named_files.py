"""A second hop for how-questions: the file that the code answering a question names.

A how-question often paraphrases what a piece of code says (a checker's message, a
registry's entry), and the file that answers it beside that code is named *by* that code, not
by the question: pylint's checker holds ``"useless-else-on-loop"`` in its ``msgs``, next to
the message the question paraphrases, and the documentation example is
``doc/data/messages/u/useless-else-on-loop/bad.py``. No word of the question bridges to such
a file; the code the question finds does.

:func:`named_files` reads the string literals of the best chunks of the first files
(:data:`HOP_TOP`, :data:`HOP_CHUNKS` each). A literal that is a name of two words or more
(``useless-else-on-loop``, ``first_line``) and equals a file's stem or the name of the folder
a file sits in (lower case, ``-`` and ``_`` alike) names those files; a name of more than
:data:`MAX_NAMED` files says nothing. Each such name is matched against the question by the
lines around it (:data:`CONTEXT` either side: a message, its description): the IDF weight of
the question's terms those lines hold. A checker names all its messages and the question is
about one, so only the best matched name is followed, when it matches better than any other
and holds at least :data:`MIN_MATCH` of the question's weight. Its files of the naming file's
own suffix (code names code: not the expected-output ``.txt`` beside a test) are lifted toward
the file naming them (:func:`codeagent.rank.first_ranker.lift_toward`), so the pool and the
learned model see them just under it; the model's columns are untouched.

Measured in-process on SWE-QA how-questions (docs/eval.md, tenth round), ``--embed none``:
pylint recall@10 80.1 -> 82.3 (three questions gained a documentation example or a test, none
lost), requests, flask and astropy unchanged; bug reports do not take the hop.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

HOP_TOP = 3  # files whose best chunks are read
HOP_CHUNKS = 2  # best chunks read per file
MAX_NAMED = 4  # a name that names more files than this is not followed
CONTEXT = 2  # lines either side of a name that are matched against the question
MIN_MATCH = 0.2  # share of the question's term weight the lines around the name must hold
SAME_SUFFIX = True  # only files of the naming file's suffix (code names code)
W_NAMED = 1.0  # how far a named file is lifted toward the file naming it

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+")
_STRING = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'")


def normal(name: str) -> str:
    """``name`` as files and code spell it alike: lower case, ``-`` as ``_``."""
    return name.lower().replace("-", "_")


def name_keys(paths: list[str]) -> dict[str, list[int]]:
    """The ids of ``paths`` by each name of two words or more that names them: the file's stem
    and the name of the folder it sits in (normalised, :func:`normal`); names of more than
    :data:`MAX_NAMED` files are dropped."""
    found: dict[str, list[int]] = {}
    for fid, path in enumerate(paths):
        pure = PurePosixPath(path)
        for name in dict.fromkeys((pure.stem, pure.parent.name)):
            if _NAME.fullmatch(name):
                found.setdefault(normal(name), []).append(fid)
    return {name: ids for name, ids in found.items() if len(ids) <= MAX_NAMED}


def line_names(line: str) -> list[str]:
    """The string literals of ``line`` that are names of two words or more, normalised."""
    words = (m.group(1) or m.group(2) or "" for m in _STRING.finditer(line))
    return [normal(w) for w in words if _NAME.fullmatch(w)]


def _same_kind(fid: int, own: int, paths: list[str]) -> bool:
    """Whether file ``fid`` may be lifted by file ``own``: the same suffix (:data:`SAME_SUFFIX`)."""
    return not SAME_SUFFIX or PurePosixPath(paths[fid]).suffix == PurePosixPath(paths[own]).suffix


def named_files(
    texts: Iterable[tuple[int, str]],
    keys: dict[str, list[int]],
    weights: dict[str, float],
    paths: list[str],
) -> dict[int, tuple[float, set[int]]]:
    """For chunk texts ``(file id, text)`` of the first files and the question's term
    ``weights``, the files named by the name whose lines match the question best, as
    ``{file: (lift, the files naming it)}`` (the shape of
    :func:`codeagent.rank.evidence.use_scores`); a chunk's own file is left out."""
    from codeagent.tokens import bm25_terms

    if not W_NAMED or not keys:
        return {}
    matches: dict[str, float] = {}  # each name -> its best match
    owners: dict[str, set[int]] = {}  # each name -> the files naming it
    for own, text in texts:
        lines = text.splitlines()
        terms: list[set[str]] | None = None
        for n, line in enumerate(lines):
            for name in line_names(line):
                if name not in keys:
                    continue
                if terms is None:
                    terms = [set(bm25_terms(each)) for each in lines]
                around = set().union(*terms[max(0, n - CONTEXT) : n + CONTEXT + 1])
                match = sum(weights.get(t, 0.0) for t in around)
                matches[name] = max(matches.get(name, 0.0), match)
                owners.setdefault(name, set()).add(own)
    if not matches:
        return {}
    ranked = sorted(matches.items(), key=lambda item: -item[1])
    name, best = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    if best <= runner_up or best < MIN_MATCH * sum(weights.values()):
        return {}
    found: dict[int, tuple[float, set[int]]] = {}
    for fid in keys[name]:
        sources = {own for own in owners[name] if own != fid and _same_kind(fid, own, paths)}
        if sources:
            found[fid] = (W_NAMED, sources)
    return found
