"""The base-class orders of ``symbols/mro.py`` on their own: C3 against Python's own ``__mro__``
(and its refusals), breadth first against hand-worked hierarchies."""

from __future__ import annotations

import random

import pytest

from codeagent.symbols.mro import breadth_first, c3_order
from codeagent.symbols.types import Definition


def _class(name: str) -> Definition:
    return Definition(qualname=name, name=name, kind="class", path="m.py", start_line=1,
                      end_line=1, module="m")  # fmt: skip


def _hierarchies(count: int) -> list[dict[str, list[str]]]:
    """Random class hierarchies: each class takes up to three earlier ones as bases, in a
    random order (some of them ones Python refuses: no C3 order exists)."""
    rng = random.Random(28)
    out = []
    for _ in range(count):
        names = [f"C{i}" for i in range(rng.randint(2, 8))]
        bases = {n: rng.sample(names[:i], rng.randint(0, min(3, i))) for i, n in enumerate(names)}
        out.append(bases)
    return out


def _python_mro(bases: dict[str, list[str]], name: str) -> list[str] | None:
    """The order Python itself computes (``type.__mro__``), or None when it refuses the class."""
    made: dict[str, type] = {}
    for n, own in bases.items():
        try:
            made[n] = type(n, tuple(made[b] for b in own), {})
        except (TypeError, KeyError):
            continue  # refused, and so is every class built on it
        if n == name:
            return [c.__name__ for c in made[n].__mro__ if c is not object]
    return None


@pytest.mark.parametrize("bases", _hierarchies(60))
def test_c3_order_is_pythons_own(bases: dict[str, list[str]]) -> None:
    defs = {n: _class(n) for n in bases}

    def bases_of(d: Definition) -> list[Definition]:
        return [defs[b] for b in bases[d.name]]

    for name in bases:
        linear = c3_order(defs[name], bases_of)
        got = [d.name for d in linear] if linear is not None else None
        assert got == _python_mro(bases, name), name


def test_c3_order_needs_a_merge_that_looks_past_the_first_tail() -> None:
    # X(A, B), Y(B, A) are fine alone; Z(X, Y) has no C3 order: B must follow A and A follow B
    bases = {"A": [], "B": [], "X": ["A", "B"], "Y": ["B", "A"], "Z": ["X", "Y"]}
    assert _python_mro(bases, "Z") is None
    defs = {n: _class(n) for n in bases}
    assert c3_order(defs["Z"], lambda d: [defs[b] for b in bases[d.name]]) is None
    # the textbook case (Python's documentation): O, then F, E, D, C, B, A
    bases = {"O": [], "F": ["O"], "E": ["O"], "D": ["O"], "C": ["D", "F"], "B": ["D", "E"],
             "A": ["B", "C"]}  # fmt: skip
    defs = {n: _class(n) for n in bases}
    linear = c3_order(defs["A"], lambda d: [defs[b] for b in bases[d.name]])
    assert linear is not None
    assert [d.name for d in linear] == ["A", "B", "C", "D", "E", "F", "O"]


def test_c3_order_refuses_a_cycle() -> None:
    defs = {n: _class(n) for n in "AB"}
    cycle = {"A": ["B"], "B": ["A"]}
    assert c3_order(defs["A"], lambda d: [defs[b] for b in cycle[d.name]]) is None


def _named(bases: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    defs = {n: _class(n) for n in bases}

    def bases_of(d: Definition) -> list[tuple[str, Definition]]:
        return [(f"m.{b}", defs[b]) for b in bases[d.name]]

    return defs, bases_of


def test_breadth_first_lists_each_base_once_level_by_level() -> None:
    # D(B, C), B(A), C(A), A(Root): D, then B and C, then A once, then Root
    bases = {"Root": [], "A": ["Root"], "B": ["A"], "C": ["A"], "D": ["B", "C"]}
    defs, bases_of = _named(bases)
    seen: set[str] = set()
    out = breadth_first(defs["D"], bases_of, seen)
    assert [(d.name, via) for d, via in out] == [
        ("D", None), ("B", "m.B"), ("C", "m.C"), ("A", "m.A"), ("Root", "m.Root")
    ]  # fmt: skip
    assert seen == {"m.D", "m.B", "m.C", "m.A", "m.Root"}


def test_breadth_first_stops_at_a_cycle_back_to_the_class() -> None:
    defs, bases_of = _named({"A": ["B"], "B": ["A"]})
    out = breadth_first(defs["A"], bases_of, set())
    assert [d.name for d, _ in out] == ["A", "B"]


def test_breadth_first_skips_names_already_seen() -> None:
    defs, bases_of = _named({"A": [], "B": ["A"], "C": ["B"]})
    out = breadth_first(defs["C"], bases_of, {"m.A"})
    assert [d.name for d, _ in out] == ["C", "B"]
