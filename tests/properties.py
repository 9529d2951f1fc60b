"""Hypothesis settings for the property tests of the default suite: few examples, no deadline
(a shared machine's pauses are not failures), no example database and no explain phase
(hypothesis keeps only its Unicode tables, and a failing case's patch, in ``.hypothesis/``,
which it git-ignores itself)."""

from __future__ import annotations

from hypothesis import Phase, settings

PHASES = (Phase.explicit, Phase.generate, Phase.shrink)


def fast(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, database=None, phases=PHASES)
