"""The fit / choose / sealed protocol: split membership, selection and the commit sample."""

from __future__ import annotations

import pytest

from codeagent.errors import EvalError
from codeagent.eval.sources import RULES
from codeagent.eval.splits import (
    CHOOSE,
    FIT,
    LANGS,
    SEALED,
    SPLITS,
    language_of,
    repos_of,
    sample_commits,
    select,
    split_of,
)
from codeagent.eval.suite import SuiteItem
from codeagent.eval.tables import table_of


def item(ident: str, repo: str, commit: str | None, suite: str = "swebench-dev") -> SuiteItem:
    return SuiteItem(id=ident, question="q", repo=repo, commit=commit, source="test", suite=suite)


def test_no_repository_on_two_sides() -> None:
    assert not FIT & CHOOSE
    assert not FIT & SEALED
    assert not CHOOSE & SEALED
    # The protocol as eval/README.md states it: at least 8 sealed, 40 repositories mined.
    assert len(SEALED) >= 8
    assert len(FIT | CHOOSE | SEALED) >= 50
    assert {"sympy/sympy", "psf/requests", "sqlfluff/sqlfluff"} <= FIT
    assert {"astropy/astropy", "pallets/flask", "reflex-dev/reflex"} <= CHOOSE
    # benchmark repositories outside ../shared/bench are in no split and no corpus
    for outside in ("pytest-dev/pytest", "sphinx-doc/sphinx", "pydata/xarray"):
        assert split_of(outside) is None


def test_the_sealed_issue_group_is_drawn_as_written_and_apart_from_every_other_split() -> None:
    """The issue-shaped sealed group: the first three of its sorted candidates shuffled with
    its seed (a replaced one named in ``replaced``), on no other side and in no benchmark."""
    import json
    import random

    from codeagent.eval.splits import CORPUS, ISSUES_SEALED

    group = json.loads(CORPUS.read_text(encoding="utf-8"))[ISSUES_SEALED]
    order = sorted(group["candidates"])
    random.Random("41:issues").shuffle(order)
    kept = [r for r in order if r not in group["replaced"]]
    assert group["repos"] == kept[:3]
    assert {r.lower() for r in repos_of(ISSUES_SEALED)} == SPLITS[ISSUES_SEALED]
    others = set().union(*(v for k, v in SPLITS.items() if k != ISSUES_SEALED))
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    benches = {r.lower() for v in corpus["bench"].values() for r in v}
    outside = {r.lower() for r in corpus["excluded"]["repos"]}
    for repo in group["candidates"]:
        assert repo.lower() not in others | benches | outside
    assert split_of("pytest-dev/pluggy") == ISSUES_SEALED


def test_the_larger_issue_group_is_drawn_as_written_and_apart_from_every_other_split() -> None:
    """The larger repositories' group: sorted candidates shuffled with its seed, the first
    three that were not replaced sealed, the next three for development; none on another side,
    in a benchmark, kept for the check from outside or among the first group's candidates."""
    import json
    import random

    from codeagent.eval.splits import CORPUS, ISSUES_LARGE, ISSUES_LARGE_SPLITS

    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    group = corpus[ISSUES_LARGE]
    order = sorted(group["candidates"])
    random.Random(group["seed"]).shuffle(order)
    kept = [r for r in order if r not in group["replaced"]]
    assert (group["sealed"], group["dev"], group["sealed2"]) == (kept[:3], kept[3:6], kept[6:9])
    sealed, dev, sealed2 = ISSUES_LARGE_SPLITS
    later = {r.lower() for r in kept[6:9]}
    assert {r.lower() for r in repos_of(sealed2)} == SPLITS[sealed2] == later
    assert {r.lower() for r in repos_of(sealed)} == SPLITS[sealed] == {r.lower() for r in kept[:3]}
    assert {r.lower() for r in repos_of(dev)} == SPLITS[dev]
    others = set().union(*(v for k, v in SPLITS.items() if k not in ISSUES_LARGE_SPLITS))
    benches = {r.lower() for v in corpus["bench"].values() for r in v}
    outside = {r.lower() for r in corpus["excluded"]["repos"]}
    first = {r.lower() for r in corpus["issues_sealed"]["candidates"]}
    for repo in group["candidates"]:
        assert repo.lower() not in others | benches | outside | first
    assert split_of("Pylons/pyramid") == sealed
    assert split_of("locustio/locust") == dev
    assert split_of("spotify/luigi") == sealed2


def test_the_third_sealed_issue_group_is_its_first_three_candidates_in_the_seeded_order() -> None:
    """issues_sealed3's repositories are the first three of its ten candidates sorted and
    shuffled with its seed, as written down before any was fetched; in no other split."""
    import json
    import random

    from codeagent.eval.splits import CORPUS

    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    group = corpus["issues_sealed3"]
    order = sorted(group["candidates"])
    random.Random(group["seed"]).shuffle(order)
    assert group["sealed"] == order[:3]
    assert repos_of("issues_sealed3") == order[:3]
    assert SPLITS["issues_sealed3"] == {r.lower() for r in order[:3]}
    others = set().union(*(v for k, v in SPLITS.items() if k != "issues_sealed3"))
    benches = {r.lower() for v in corpus["bench"].values() for r in v}
    assert not SPLITS["issues_sealed3"] & (others | benches)
    assert split_of("https://github.com/pypa/pip") == "issues_sealed3"


def test_the_fourth_and_fifth_sealed_issue_groups_follow_the_third_s_draw() -> None:
    """issues_sealed4's repositories are the fourth to sixth of issues_sealed3's ten candidates
    in that group's seeded order, issues_sealed5's the seventh to ninth (the tenth its
    replacement), as written down before any was fetched; each in no other split."""
    import json
    import random

    from codeagent.eval.splits import CORPUS

    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    third = corpus["issues_sealed3"]
    order = sorted(third["candidates"])
    random.Random(third["seed"]).shuffle(order)
    assert corpus["issues_sealed4"]["candidates"] == order[3:]
    assert corpus["issues_sealed5"]["candidates"] == order[6:]
    benches = {r.lower() for v in corpus["bench"].values() for r in v}
    for split, drawn in (("issues_sealed4", order[3:6]), ("issues_sealed5", order[6:9])):
        assert repos_of(split) == drawn
        others = set().union(*(v for k, v in SPLITS.items() if k != split))
        assert SPLITS[split] == {r.lower() for r in drawn}
        assert not SPLITS[split] & (others | benches)
    assert split_of("https://github.com/pypa/virtualenv") == "issues_sealed4"
    assert split_of("pypa/setuptools") == "issues_sealed5"


def test_the_sixth_to_eighth_sealed_issue_groups_are_their_own_draw() -> None:
    """issues_sealed6's repositories are the first three of its ten candidates sorted and
    shuffled with its seed, issues_sealed7's the next three, issues_sealed8's the last three,
    as written down before any was fetched; no candidate is in another split or a benchmark,
    and the sixth's three are none of an earlier group's candidates."""
    import json
    import random

    from codeagent.eval.splits import CORPUS

    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    group = corpus["issues_sealed6"]
    order = sorted(group["candidates"])
    random.Random(group["seed"]).shuffle(order)
    assert repos_of("issues_sealed6") == group["sealed"] == order[:3]
    assert SPLITS["issues_sealed6"] == {r.lower() for r in order[:3]}
    drawn = ("issues_sealed6", "issues_sealed7", "issues_sealed8")  # all from these candidates
    others = set().union(*(v for k, v in SPLITS.items() if k not in drawn))
    benches = {r.lower() for v in corpus["bench"].values() for r in v}
    earlier = {r.lower() for r in corpus["issues_sealed3"]["candidates"]}
    assert not {r.lower() for r in group["candidates"]} & (others | benches)
    assert not {r.lower() for r in order[:3]} & earlier
    assert split_of("https://github.com/urwid/urwid") == "issues_sealed6"
    # the seventh: the next three in the same order, the rest its replacements (the fifth
    # gave too few items: the seventh took its place)
    seventh = corpus["issues_sealed7"]
    assert seventh["candidates"] == order[3:]
    assert list(seventh["replaced"]) == [order[4]]
    assert repos_of("issues_sealed7") == [order[3], order[5], order[6]]
    assert not SPLITS["issues_sealed7"] & SPLITS["issues_sealed6"]
    assert split_of("pyqtgraph/pyqtgraph") == "issues_sealed7"
    # the eighth: the last three in that order, none of the seventh's
    assert repos_of("issues_sealed8") == order[7:10] == seventh["candidates"][4:]
    assert not SPLITS["issues_sealed8"] & (SPLITS["issues_sealed7"] | SPLITS["issues_sealed6"])
    assert split_of("https://github.com/nedbat/coveragepy") == "issues_sealed8"


@pytest.mark.parametrize(
    ("repo", "split"),
    [
        ("https://github.com/sympy/sympy", "fit"),
        ("sympy/sympy", "fit"),
        ("https://github.com/pallets/flask.git", "choose"),
        ("PyCQA/flake8", "sealed"),  # a name with capitals: GitHub names ignore case
        ("https://github.com/django/django", "how_sealed"),
        ("https://github.com/pytest-dev/pytest", None),  # kept for the check from outside
        ("stdlib:json", None),
    ],
)
def test_split_of(repo: str, split: str | None) -> None:
    assert split_of(repo) == split


def test_the_how_question_group_is_apart_from_every_other_split() -> None:
    """The sealed how-question group: SWE-QA's three repositories no suite here was made of,
    in no other split (so no fit, choice or development run reads them)."""
    from codeagent.eval.splits import HOW_SEALED

    group = SPLITS[HOW_SEALED]
    assert group == {"django/django", "matplotlib/matplotlib", "scikit-learn/scikit-learn"}
    assert {r.lower() for r in repos_of(HOW_SEALED)} == group
    others = set().union(*(v for k, v in SPLITS.items() if k != HOW_SEALED))
    assert not group & others


def test_select() -> None:
    items = [
        item("a", "https://github.com/sympy/sympy", "aaaa"),
        item("b", "https://github.com/pallets/flask", "bbbb"),
        item("c", "https://github.com/django/django", "cccc"),
        item("d", "https://github.com/sqlfluff/sqlfluff", "dddd", suite="swe-qa-sqlfluff"),
    ]
    assert [i.id for i in select(items, "fit")] == ["a", "d"]
    assert [i.id for i in select(items, "choose")] == ["b"]
    assert [i.id for i in select(items, "dev")] == ["a", "b", "d"]
    assert [i.id for i in select(items, "sealed")] == []
    assert [i.id for i in select(items, "how_sealed")] == ["c"]
    with pytest.raises(EvalError, match="unknown split"):
        select(items, "test")


def test_sample_commits_keeps_whole_commits_per_suite_and_repository() -> None:
    sympy = "https://github.com/sympy/sympy"
    items = [item(f"s{n}", sympy, f"{n:04x}") for n in range(10)]
    items.append(item("s0-again", sympy, "0000"))  # a second question on commit 0000
    items += [item(f"qa{n}", sympy, "ffff", suite="swe-qa-sympy") for n in range(3)]
    items.append(item("r", "https://github.com/psf/requests", "abcd"))
    kept = sample_commits(items, 4, seed=0)
    swebench = [i for i in kept if i.suite == "swebench-dev" and "sympy" in i.repo]
    assert len({i.commit for i in swebench}) == 4
    # Questions of a kept commit all stay; other suites and small repositories are untouched.
    if "0000" in {i.commit for i in swebench}:
        assert {"s0", "s0-again"} <= {i.id for i in kept}
    assert [i.id for i in kept if i.suite == "swe-qa-sympy"] == ["qa0", "qa1", "qa2"]
    assert "r" in {i.id for i in kept}
    # The order of the input is kept, and the same seed draws the same sample.
    assert [i.id for i in kept] == [i.id for i in items if i in kept]
    assert sample_commits(items, 4, seed=0) == kept
    assert sample_commits(list(reversed(items)), 4, seed=0) == list(reversed(kept))
    assert sample_commits(items, None) == items
    with pytest.raises(EvalError):
        sample_commits(items, 0)


def test_a_smaller_sample_is_part_of_a_larger_one() -> None:
    items = [item(f"s{n}", "sympy/sympy", f"{n:04x}") for n in range(130)]
    small, large = sample_commits(items, 8, seed=3), sample_commits(items, 24, seed=3)
    assert len(small) == 8
    assert len(large) == 24
    assert {i.id for i in small} < {i.id for i in large}
    assert {i.id for i in sample_commits(items, 8, seed=4)} != {i.id for i in small}


def test_langs_split_is_held_out_by_language_family() -> None:
    assert LANGS
    assert not LANGS & (FIT | CHOOSE | SEALED)
    assert split_of("https://github.com/gorilla/mux") == "langs"
    assert language_of("https://github.com/gorilla/mux") == "go"
    assert language_of("HonoJS/Hono") == "js"
    assert language_of("psf/requests") == "python"  # every other repository
    # at least two repositories per family measured, each family a known source rule
    families: dict[str, int] = {}
    for repo in repos_of("langs"):
        families[language_of(repo)] = families.get(language_of(repo), 0) + 1
    assert set(families) <= set(RULES) - {"python"}
    assert min(families.values()) >= 2
    assert {r.lower() for r in repos_of("langs")} == LANGS
    assert {r.lower() for r in repos_of("sealed")} == SEALED
    items = [
        item("m", "gorilla/mux", "aaaa", suite="mined-langs"),
        item("s", "sympy/sympy", "bbbb"),
    ]
    assert [i.id for i in select(items, "langs")] == ["m"]
    assert [i.id for i in select(items, "dev")] == ["s"]
    with pytest.raises(EvalError, match="unknown split"):
        repos_of("bench")


def test_langs2_is_a_second_held_out_group_by_family() -> None:
    held = {r.lower() for r in repos_of("langs2")}
    assert held
    assert held == SPLITS["langs2"]
    assert not held & (FIT | CHOOSE | SEALED | LANGS)
    assert split_of("https://github.com/go-chi/chi") == "langs2"
    assert language_of("jhy/jsoup") == "java"
    assert table_of("tokio-rs/bytes") == "langs:rust"
