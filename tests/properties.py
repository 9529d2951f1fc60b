"""Hypothesis settings for the property tests of the default suite: few examples, no deadline
(a shared machine's pauses are not failures), nothing written into the checkout (no example
database, no explain phase, which writes patches into ``.hypothesis/``)."""

from __future__ import annotations

from hypothesis import Phase, settings

PHASES = (Phase.explicit, Phase.generate, Phase.shrink)


def fast(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, database=None, phases=PHASES)
