"""A how-question's first files, put in order again by a small model fitted on how-questions.

The learned model (:mod:`codeagent.rank.learned`) was fitted mostly on commit messages and
bug reports, whose answer is the file a change edits. A how-question ("how does the linter
decide ...", "what is the role of ...") names behaviour, and its answer is often the module
whose path says so (``linter/``, ``formatters.py``), a file the first model places a few
rows too low. So, for a how-question answered without vectors, the first :data:`K` files are
scored once more by a logistic model fitted on SWE-QA how-questions of seven repositories
(``eval/fit_how_order.py``, grouped by repository): the first model's score and place, the
share of the path's words the question holds, and nine evidence columns of
:data:`codeagent.rank.features.NAMES`; every column standardised over those ``K`` files (so
the model reads where a file stands among them, not a scale that differs by repository).

Not for a bug report, a question about the tests or the docs, or a question of fewer than
:data:`MIN_WORDS` words (the fitting questions have 12 to 57: a few keywords or a name are
not what it learned from): those keep the first model's order. Weights are kept per index
kind; only ``lexical`` ones are shipped: fitted on the rankings with vectors too, the model
lost more questions than it gained (docs/eval.md, thirteenth round). With vectors, the order
without them (this step included) is fused with the first model's
(:func:`codeagent.rank.ranking.fuse`).
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from codeagent.rank.query import QueryAnalysis

K = 20  # the first files put in order again
MIN_WORDS = 10  # a shorter question (a few keywords, a name) keeps the first model's order
MODEL_FILE = Path(__file__).with_name("how_order.json")
# Columns of the feature matrix read (codeagent.rank.features.NAMES), after the model's own.
EVIDENCE = (
    "bm25_best", "term_share", "chunks", "lines", "importers", "kind_tests", "kind_code",
    "stage1", "depth",
)  # fmt: skip
COLUMNS = ("learned", "place", "log_place", "path_share", "stem_share", *EVIDENCE)

# Words a path or a question holds that say nothing of what a file does.
_STOP = frozenset({
    "the", "a", "an", "of", "in", "to", "and", "or", "for", "is", "are", "how", "what",
    "which", "does", "do", "why", "when", "where", "with", "by", "on", "as", "from", "this",
    "that", "it", "its", "be", "into", "class", "function", "method", "module", "file", "code",
    "use", "used", "src", "lib", "py", "init", "main", "core", "base", "util", "utils",
})  # fmt: skip
_SUFFIXES = ("ions", "ion", "ing", "ers", "er", "es", "ed", "s")
_WORD = re.compile(r"[A-Za-z]+")
_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_PATH_SPLIT = re.compile(r"[/_.\-]+")


def stem(word: str) -> str:
    """``word`` lower-cased without a common English ending (``formatters`` -> ``formatt``,
    ``parsing`` -> ``pars``): a crude stem, the same for a path's words and a question's."""
    word = word.lower()
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


_STOP_STEMS = frozenset(stem(w) for w in _STOP)


def is_how_question(question: str, analysis: QueryAnalysis) -> bool:
    """Whether ``question`` is one this module's steps are for: :data:`MIN_WORDS` words or
    more, and not a bug report (a question about the tests or the docs is the caller's to
    leave out where it must)."""
    return not analysis.reports and len(question.split()) >= MIN_WORDS


def question_words(question: str) -> frozenset[str]:
    """The stems of a question's words, each whole and in its camel-case parts."""
    words: set[str] = set()
    for word in _WORD.findall(question):
        words.add(stem(word))
        words.update(stem(part) for part in _PART.findall(word))
    return frozenset(words - _STOP_STEMS)


@lru_cache(maxsize=65536)  # a repository's paths come back question after question
def path_words(path: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The stems of a path's words (its folders and its file name without the suffix) and of
    its file name's alone; short words and :data:`_STOP` words left out."""
    stop = _STOP_STEMS
    bare = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path  # no suffix
    every = tuple(
        s for s in (stem(w) for w in _PATH_SPLIT.split(bare) if len(w) > 2) if s not in stop
    )
    name = bare.rsplit("/", 1)[-1]
    own = tuple(
        s for s in (stem(w) for w in _PATH_SPLIT.split(name) if len(w) > 2) if s not in stop
    )
    return every, own


def path_shares(path: str, words: frozenset[str]) -> tuple[float, float]:
    """The share of ``path``'s words, and of its file name's, that the question holds."""
    every, own = path_words(path)
    share = sum(w in words for w in every) / len(every) if every else 0.0
    own_share = sum(w in words for w in own) / len(own) if own else 0.0
    return share, own_share


def columns(
    paths: list[str], rows: np.ndarray, learned: np.ndarray, question: str, names: tuple[str, ...]
) -> np.ndarray:
    """The model's columns (:data:`COLUMNS`) for the first files ``paths`` (in the first
    model's order), their feature rows ``rows`` and first-model scores ``learned``; each
    column standardised over these files."""
    import numpy as np

    n = len(paths)
    words = question_words(question)
    shares = np.array([path_shares(p, words) for p in paths], dtype=np.float64).reshape(n, 2)
    place = np.arange(n, dtype=np.float64)
    raw = [
        learned.astype(np.float64), 1.0 / (1.0 + place), np.log1p(place),
        shares[:, 0], shares[:, 1],
        *(rows[:, names.index(name)].astype(np.float64) for name in EVIDENCE),
    ]  # fmt: skip
    out = np.stack(raw, axis=1)
    spread = out.std(axis=0)
    standardised: np.ndarray = (out - out.mean(axis=0)) / np.where(spread > 0, spread, 1.0)
    return standardised


@cache
def load(path: Path = MODEL_FILE) -> dict[str, Any] | None:
    """The fitted weights: ``columns``, and per index kind (``lexical``: no vectors,
    ``dense``: with them) its ``weights``; None when no file is shipped."""
    try:
        model: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    if tuple(model["columns"]) != COLUMNS:
        raise ValueError(f"{path}: fitted on other columns than {COLUMNS}")
    return model


def reorder(
    first: list[int],
    rows: np.ndarray,
    learned: np.ndarray,
    paths: list[str],
    question: str,
    names: tuple[str, ...],
    dense: bool = False,
) -> list[int]:
    """``first`` (the first model's first files, at most :data:`K`) in the order of the
    how-question model for the index's kind (``dense``: with vectors); unchanged when none is
    shipped for it or there is nothing to order."""
    import numpy as np

    model = load()
    fitted = (model or {}).get("models", {}).get("dense" if dense else "lexical")
    if fitted is None or len(first) < 2:
        return first
    scores = columns(paths, rows, learned, question, names) @ np.array(fitted["weights"])
    return [first[i] for i in np.argsort(-scores, kind="stable")]
