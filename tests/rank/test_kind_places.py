"""A question about the tests gets the tests and the code: the first ranker keeps its places
for the test files, the learned model orders the source files around them; a bug report still
holds its tests back.

The model here is a stand-in that prefers longer files (its score is the ``lines`` column), so
the order it should give the source files is read from the files written below (their line
counts, counted here), not asked of the code under test; the first ranker's own order of those
files is the other way round, so the test fails when the model is left out.
"""

from __future__ import annotations

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.features import NAMES
from codeagent.rank.file_roles import path_kind
from codeagent.rank.query import analyze
from codeagent.rank.ranking import asked_kinds, kind_places, rank_files
from conftest import GitRepoFactory

FILLER = "".join(f"def step_{i}(value):\n    return value + {i}\n\n\n" for i in range(40))
FILES = {
    # says the question's words most often, and is the shortest source file
    "shop/discount.py": "def coupon_discount(cart, coupon):\n"
    "    # coupon discount: the coupon takes its discount off the cart\n"
    "    return cart.total - coupon.discount  # coupon discount\n",
    # the same words once, and longer
    "shop/pricing.py": "def price_with_coupon(cart, coupon):\n"
    "    return cart.total - coupon.discount\n\n\n" + FILLER[: len(FILLER) // 2],
    # the words once more, and the longest
    "shop/ledger.py": "def record_discount(entry, coupon):\n    return entry, coupon\n\n\n"
    + FILLER,
    "tests/test_discount.py": "from shop.discount import coupon_discount\n\n\n"
    "def test_coupon_discount():\n    # the coupon discount of the cart\n"
    "    assert coupon_discount\n",
    "tests/test_ledger.py": "from shop.ledger import record_discount\n\n\n"
    "def test_record_discount():\n    assert record_discount(1, 2) == (1, 2)\n",
}
SOURCES = ("shop/discount.py", "shop/pricing.py", "shop/ledger.py")
QUESTION = "which tests check the coupon discount of the cart?"
REPORT = (
    "The coupon discount of the cart is applied twice. When I take a cart with two items and "
    "apply a coupon, the discount comes off the cart total twice, so the total is lower than "
    "it should be. A test that shows it: apply one coupon discount to a cart and read the "
    "total; it is the total minus two discounts. It happens with every coupon and every cart "
    "I tried, on a fresh install too, and it did not happen in the release before."
)


class LongestFirst:
    """A stand-in for the learned model: the longer the file, the higher its score."""

    def score(self, matrix: np.ndarray, report: bool = False) -> np.ndarray:
        return np.asarray(matrix[:, NAMES.index("lines")], dtype=np.float64)


@pytest.fixture
def store(git_repo: GitRepoFactory):  # type: ignore[no-untyped-def]
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    return store


def ranked(store, question: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [path for path, _ in rank_files(store, question, analyze(question)).files]


@pytest.fixture
def longest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "codeagent.rank.learned.model_for", lambda has_dense, report=False: LongestFirst()
    )


def lines(path: str) -> int:
    return len(FILES[path].splitlines())


def test_the_first_ranker_places_the_tests_and_the_model_orders_the_code(
    store, longest_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    assert analyze(QUESTION).wants_tests
    order = ranked(store, QUESTION)
    monkeypatch.setattr("codeagent.rank.ranking.USE_MODEL", False)
    first = ranked(store, QUESTION)
    assert sorted(order) == sorted(first)
    tests = [i for i, path in enumerate(first) if path_kind(path) == "tests"]
    assert tests, first
    assert [i for i, path in enumerate(order) if path_kind(path) == "tests"] == tests
    by_length = sorted(SOURCES, key=lines, reverse=True)
    assert [p for p in first if p in SOURCES] != by_length  # else the model changed nothing
    assert [p for p in order if p in SOURCES] == by_length


def under_tests(order: list[str]) -> set[str]:
    return {path for path in order if path.startswith("tests/")}


def test_scores_still_fall_down_the_list(store, longest_first: None) -> None:  # type: ignore[no-untyped-def]
    scores = [score for _, score in rank_files(store, QUESTION, analyze(QUESTION)).files]
    assert scores == sorted(scores, reverse=True)


def test_a_bug_report_still_holds_its_tests_back(store, longest_first: None) -> None:  # type: ignore[no-untyped-def]
    assert analyze(REPORT).reports
    order = ranked(store, REPORT)
    # the stand-in model puts both test modules above shop/discount.py (they are longer);
    # held back, they come after every source file (there are fewer than five)
    assert lines("tests/test_ledger.py") > lines("shop/discount.py")
    assert order[: len(SOURCES)] == sorted(SOURCES, key=lines, reverse=True), order
    assert under_tests(order) == {"tests/test_discount.py", "tests/test_ledger.py"}


def test_kind_places_keeps_the_asked_files_where_they_stand() -> None:
    first = [10, 1, 11, 2, 3, 12]  # 10, 11, 12: the kind asked about
    model = [3, 12, 2, 11, 10, 1]
    assert kind_places(first, model, lambda f: f >= 10) == [10, 3, 11, 2, 1, 12]
    assert kind_places(first, model, lambda f: False) == [3, 12, 2, 11, 10, 1]
    assert kind_places(first, model, lambda f: True) == first
    # a file the model did not order keeps the first ranker's order after the model's
    assert kind_places([10, 1, 2, 3], [3, 1], lambda f: f >= 10) == [10, 3, 1, 2]


def test_only_a_short_question_asks_for_a_kind() -> None:
    assert asked_kinds(analyze(QUESTION)) == {"tests"}
    assert asked_kinds(analyze("where does the documentation describe coupons?")) == {"docs"}
    assert asked_kinds(analyze(REPORT)) == frozenset()
    assert asked_kinds(analyze("how is a coupon discount applied?")) == frozenset()
