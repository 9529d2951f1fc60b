"""The dev/test protocol: which repositories the ranker is fitted on, which decide between
models, and which are sealed until the one final run.

A split is a set of repositories (``owner/name``), read from ``corpus.json`` beside this
module: ``fit`` (fitted on, with grouped cross-validation by repository), ``choose`` (model and
feature choices) and ``sealed`` (run once, at the end, reported as it comes out). Every suite's
questions about a repository belong to that repository's split, so no repository is ever on
two sides. ``eval/README.md`` states the protocol. A repository in no split is not run by
``codeagent eval-dev``.

A fourth split, ``langs`` (and ``langs2``, a second such group), holds repositories in other
languages than Python, by language family (``corpus.json``'s ``langs``): held out like
``sealed`` (nothing is fitted or chosen on them), scored per family; :func:`language_of`
names a repository's family (the baseline's and the miner's source rule,
:mod:`codeagent.eval.sources`), ``python`` for every other one.

Sampling is by commit, because a commit is what costs (one checkout, one index): a suite's
repository with more distinct commits than ``max_commits`` keeps the questions of a fixed
sample of its commits: the first ``max_commits`` of its sorted commit ids shuffled by
:class:`random.Random` seeded by ``seed`` (so a smaller sample is part of a larger one).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from codeagent.errors import EvalError
from codeagent.eval.repos import repo_key
from codeagent.eval.sources import DEFAULT_FAMILY
from codeagent.eval.suite import SuiteItem

CORPUS = Path(__file__).with_name("corpus.json")


def _load_corpus() -> dict[str, Any]:
    corpus: dict[str, Any] = json.loads(CORPUS.read_text(encoding="utf-8"))
    return corpus


# by language family; langs2: held out after langs was read; langs_fit: the ranker of other
# languages is fitted on it; langs3: sealed for that ranker's first round (read since);
# langs4: sealed for its second round
LANG_SPLITS = ("langs", "langs2", "langs_fit", "langs3", "langs4")
# sealed for issue-shaped items (eval/issue_items.py): run once, reported as it comes out
ISSUES_SEALED = "issues_sealed"
# the third such group (the GPU-tuned embedder's, run once): its repositories listed as "sealed"
ISSUES_SEALED3 = "issues_sealed3"
# the fourth: the next three of the third's candidates in its seeded order
ISSUES_SEALED4 = "issues_sealed4"
# the fifth: the three after the fourth's
ISSUES_SEALED5 = "issues_sealed5"
# the sixth: ten new candidates of its own seeded draw, its first three
ISSUES_SEALED6 = "issues_sealed6"
# the seventh: the next three of the sixth's candidates in its seeded order
ISSUES_SEALED7 = "issues_sealed7"
# the eighth: the last three of the sixth's candidates, the product as it stands
ISSUES_SEALED8 = "issues_sealed8"
# the larger repositories' issue-shaped group: its sealed three, its development three and a
# second sealed three (the last candidates, for the product after the development rounds)
ISSUES_LARGE = "issues_large"
ISSUES_LARGE_SPLITS = ("issues_large_sealed", "issues_large_dev", "issues_large_sealed2")
# sealed for how-questions: SWE-QA's repositories run from a release snapshot
HOW_SEALED = "how_sealed"
# the groups that list their repositories (:func:`_listed`)
LISTED_SPLITS = (
    ISSUES_SEALED, ISSUES_SEALED3, ISSUES_SEALED4, ISSUES_SEALED5, ISSUES_SEALED6,
    ISSUES_SEALED7, ISSUES_SEALED8, HOW_SEALED,
)  # fmt: skip


def _load_languages(split: str) -> dict[str, str]:
    """``owner/name`` (lower case) -> language family, for a split of :data:`LANG_SPLITS`."""
    langs = _load_corpus().get(split, {})
    return {
        repo.lower(): family
        for family, repos in langs.items()
        if isinstance(repos, list)
        for repo in repos
    }


def _listed(corpus: dict[str, Any], split: str) -> list[str]:
    """The repositories of a group that lists them (``repos``, or ``sealed`` for a group that
    lists its candidates too)."""
    group = corpus.get(split, {})
    return list(group.get("repos", group.get("sealed", [])))


def _load_splits() -> dict[str, frozenset[str]]:
    corpus = _load_corpus()
    bench = corpus.get("bench", {})
    # owner/name as repo_key spells it (lower case), whatever the case of the list
    splits = {
        name: frozenset(repo.lower() for repo in (*corpus[name], *bench.get(name, ())))
        for name in ("fit", "choose", "sealed")
    }
    for split in LANG_SPLITS:
        splits[split] = frozenset(_load_languages(split))
    for split in LISTED_SPLITS:
        splits[split] = frozenset(r.lower() for r in _listed(corpus, split))
    large = corpus.get(ISSUES_LARGE, {})
    for split in ISSUES_LARGE_SPLITS:
        splits[split] = frozenset(r.lower() for r in large.get(split.rsplit("_", 1)[1], ()))
    return splits


LANGUAGES = {key: family for split in LANG_SPLITS for key, family in _load_languages(split).items()}
SPLITS = _load_splits()
FIT, CHOOSE, SEALED = SPLITS["fit"], SPLITS["choose"], SPLITS["sealed"]
LANGS = SPLITS["langs"]
# dev: fit and choose
SPLIT_CHOICES = (
    "fit", "choose", "sealed", "dev", *LANG_SPLITS, ISSUES_SEALED, *ISSUES_LARGE_SPLITS,
    HOW_SEALED, ISSUES_SEALED3, ISSUES_SEALED4, ISSUES_SEALED5, ISSUES_SEALED6, ISSUES_SEALED7,
    ISSUES_SEALED8,
)  # fmt: skip


def language_of(repo: str) -> str:
    """The language family of ``repo`` (URL or ``owner/name``): its ``langs`` family in
    ``corpus.json``, :data:`~codeagent.eval.sources.DEFAULT_FAMILY` for any other repository."""
    return LANGUAGES.get(repo_key(repo), DEFAULT_FAMILY)


def repos_of(split: str) -> list[str]:
    """The repositories of ``split`` (fit, choose, sealed: the mined ones; langs: all), as
    ``corpus.json`` spells them."""
    corpus = _load_corpus()
    if split in LANG_SPLITS:
        langs = corpus.get(split, {})
        return [repo for repos in langs.values() if isinstance(repos, list) for repo in repos]
    if split in LISTED_SPLITS:
        return _listed(corpus, split)
    if split in ISSUES_LARGE_SPLITS:
        return list(corpus.get(ISSUES_LARGE, {}).get(split.rsplit("_", 1)[1], []))
    if split not in ("fit", "choose", "sealed"):
        raise EvalError(
            f"unknown split {split!r}: choose from fit, choose, sealed, "
            f"{', '.join((*LANG_SPLITS, *ISSUES_LARGE_SPLITS, *LISTED_SPLITS))}"
        )
    return list(corpus[split])


def split_of(repo: str) -> str | None:
    """``fit``, ``choose``, ``sealed`` or None for a suite's ``repo`` (URL or ``owner/name``)."""
    key = repo_key(repo)
    for name, repos in SPLITS.items():
        if key in repos:
            return name
    return None


def select(items: Sequence[SuiteItem], split: str) -> list[SuiteItem]:
    """The items whose repository is in ``split`` (``dev``: in fit or choose), in order."""
    if split not in SPLIT_CHOICES:
        raise EvalError(f"unknown split {split!r}: choose one of {', '.join(SPLIT_CHOICES)}")
    wanted = {"fit", "choose"} if split == "dev" else {split}
    return [item for item in items if split_of(item.repo) in wanted]


def sample_commits(
    items: Sequence[SuiteItem], max_commits: int | None, seed: int = 0
) -> list[SuiteItem]:
    """The items of at most ``max_commits`` commits per repository, in their order."""
    if max_commits is None:
        return list(items)
    if max_commits < 1:
        raise EvalError("the commit sample must keep at least one commit per repository")
    commits: dict[tuple[str, str], set[str | None]] = {}
    for item in items:
        commits.setdefault((item.suite, repo_key(item.repo)), set()).add(item.commit)
    kept: dict[tuple[str, str], set[str | None]] = {}
    for repo, found in commits.items():
        if len(found) <= max_commits:
            kept[repo] = found
        else:
            ordered = sorted(found, key=lambda c: c or "")
            random.Random(seed).shuffle(ordered)
            kept[repo] = set(ordered[:max_commits])
    return [item for item in items if item.commit in kept[(item.suite, repo_key(item.repo))]]
