"""A bug report ranks source code: tests, configuration, CI, packaging, issue templates and
vendored assets stay out of the first five files unless the question names them or asks about
them.

Each case is a fresh ``codeagent ask --json`` process on a real git repository built here,
whose configuration files share more words with the bug report than most of its code does
(as ``tox.ini`` and an issue template do in a real repository), and whose test module repeats
the report's words and calls more often than the code does (a report's snippet is written the
way a test is). Which files are configuration or tests is written down here by hand, from their
paths, not asked of the code under test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.rank.source_first import asks_about_build, held_back, names_file, source_first

REPORT = """Applying a coupon discount to the cart gives the wrong total

When I apply a coupon discount to a cart with two items, the cart total is wrong: the
discount is applied to every item twice. Steps: create a cart, add two items, apply the
coupon discount, read the cart total. Expected the discounted cart total, got less.
It happens with every coupon I tried, on a fresh cart too.
"""

WORDS = "coupon discount cart total items apply"
HELD = {
    "tox.ini",
    ".travis.yml",
    "setup.py",
    ".github/ISSUE_TEMPLATE/bug_report.md",
    "static/jquery-3.5.1.js",
    "CHANGELOG.md",
    "tests/test_cart.py",
}

FILES = {
    "tox.ini": f"[tox]\nenvlist = py311\n\n[testenv:coupon]\n# {WORDS}\n"
    + "".join(
        f"commands = pytest -k 'cart and coupon and discount and total {i}'\n" for i in range(6)
    ),
    ".travis.yml": "".join(f"- name: cart coupon discount total {i}\n" for i in range(6)),
    "setup.py": "from setuptools import setup\n\n"
    f"setup(name='shop', description='{WORDS} {WORDS} {WORDS}')\n",
    ".github/ISSUE_TEMPLATE/bug_report.md": "".join(
        f"Describe the cart, the coupon discount and the total you expected ({i}).\n"
        for i in range(6)
    ),
    "static/jquery-3.5.1.js": "/*! jQuery v3.5.1 | (c) JS Foundation | MIT License */\n"
    + "".join(f"function cart{i}(coupon, discount, total) {{ return items; }}\n" for i in range(6)),
    "CHANGELOG.md": "".join(
        f"- fixed the cart total with a coupon discount ({i})\n" for i in range(6)
    ),
    "tests/test_cart.py": "from shop.cart import Cart\nfrom shop.coupons import Coupon\n\n"
    + "".join(
        f"def test_coupon_discount_cart_total_{i}():\n"
        "    cart = Cart()  # apply the coupon discount, read the cart total of the items\n"
        "    cart.apply_coupon(Coupon(discount=1))\n    assert cart.total() == 0\n\n"
        for i in range(6)
    ),
    "src/shop/__init__.py": "",
    "src/shop/cart.py": "class Cart:\n"
    "    def __init__(self):\n        self.items = []\n\n"
    "    def apply_coupon(self, coupon):\n"
    "        # the coupon discount of every item of the cart\n"
    "        for item in self.items:\n"
    "            item.price -= coupon.discount\n\n"
    "    def total(self):\n        return sum(item.price for item in self.items)\n",
    "src/shop/coupons.py": "class Coupon:\n    def __init__(self, discount):\n"
    "        self.discount = discount  # a coupon's discount on a cart\n",
    "src/shop/items.py": "class Item:\n    def __init__(self, price):\n"
    "        self.price = price  # one of the cart's items\n",
    "src/shop/pricing.py": "def discounted(total, discount):\n"
    "    # the total after a discount\n    return total - discount\n",
    "src/shop/checkout.py": "def checkout(cart):\n    # read the cart total at checkout\n"
    "    return cart.total()\n",
    "src/shop/orders.py": "def order_total(items):\n    # the total of an order's items\n"
    "    return sum(i.price for i in items)\n",
}


def _ranked_files(repo: Path, question: str) -> list[str]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "codeagent",
            "ask",
            question,
            "--repo",
            str(repo),
            "--json",
            "--llm",
            "none",
            "--embed",
            "none",
            "-k",
            "10",
            "--no-server",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    files: list[str] = []
    for source in json.loads(proc.stdout)["sources"]:
        if source["path"] not in files:
            files.append(source["path"])
    return files


@pytest.fixture
def shop(git_repo) -> Path:
    return git_repo(FILES)


def test_a_bug_report_gets_source_files_in_its_first_five(shop: Path) -> None:
    assert len(REPORT.split()) > 60  # a report by its length (codeagent.rank.query)
    files = _ranked_files(shop, REPORT)
    assert files[0] == "src/shop/cart.py"
    assert not HELD & set(files[:5]), files[:5]
    assert len(files) >= 5


SHORT_REPORT = """The cart total is wrong after apply_coupon. A test that shows it:

```python
cart = Cart()
cart.apply_coupon(Coupon(discount=1))
assert cart.total() == 0
```
"""


def test_a_short_report_with_a_snippet_gets_the_source_first(shop: Path) -> None:
    """Under sixty words, and it says "test": a report all the same (it pastes code)."""
    files = _ranked_files(shop, SHORT_REPORT)
    assert files[0] == "src/shop/cart.py", files
    assert "tests/test_cart.py" not in files[:5], files


def test_a_question_about_the_tests_still_finds_them(shop: Path) -> None:
    files = _ranked_files(shop, "which tests cover the coupon discount of the cart total?")
    assert "tests/test_cart.py" in files[:5], files


def test_a_question_about_the_build_still_finds_its_configuration(shop: Path) -> None:
    files = _ranked_files(shop, "why does tox fail on the coupon discount environment?")
    assert "tox.ini" in files[:5], files


# a report that says "wheel" and "changelog" in passing, as a packaging tool's reports do
BUILD_REPORT = (
    REPORT + "\nI installed the wheel of the last release; the changelog says nothing of it.\n"
)


def test_a_report_with_a_build_word_still_gets_source_before_its_tests(git_repo) -> None:
    """A build word lets the build's files keep their places (the report may be about them),
    not the tests: until now it turned the whole rule off, and in a repository of code and
    tests alone the test module, which repeats the report's words, came fourth."""
    assert asks_about_build(BUILD_REPORT)
    code = git_repo({p: t for p, t in FILES.items() if p.startswith(("src/", "tests/"))})
    files = _ranked_files(code, BUILD_REPORT)
    assert files[0] == "src/shop/cart.py", files
    assert "tests/test_cart.py" not in files[:5], files


def test_a_report_about_the_build_still_finds_its_configuration(shop: Path) -> None:
    report = REPORT + "\nIt only happens under tox: the coupon environment of tox.ini fails.\n"
    files = _ranked_files(shop, report)
    assert "tox.ini" in files[:5], files
    assert "tests/test_cart.py" not in files[:5], files


def test_a_question_naming_a_file_still_finds_it(shop: Path) -> None:
    files = _ranked_files(shop, "the .travis.yml job for the cart coupon discount total runs twice")
    assert ".travis.yml" in files[:5], files


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("why does tox fail on py311?", True),
        ("where is the CI matrix defined?", True),
        ("setup.py install breaks on Windows", True),
        ("the cart total is wrong after a discount", False),
        ("How do I configure retries?", False),
        ("Wrong total\n\n## Environment\npackaging==23.1\nwheel: 0.41.2\n", False),
    ],
)
def test_what_asks_about_the_build(question: str, expected: bool) -> None:
    assert asks_about_build(question) is expected


def test_names_file_by_name_or_path() -> None:
    assert names_file("tox.ini", "tox.ini says py311", ())
    assert names_file("ci/azure-pipelines.yml", "the pipelines", ("ci/azure-pipelines.yml",))
    assert not names_file("setup.py", "setup.pyc is stale", ())


def test_held_files_move_right_after_the_first_five_others() -> None:
    order, moved = source_first(list(range(10)), lambda f: f in {0, 3, 9})
    assert order == [1, 2, 4, 5, 6, 0, 3, 7, 8, 9]
    assert moved == 2
    untouched, none = source_first(list(range(10)), lambda f: f == 7)
    assert untouched == list(range(10))
    assert none == 0


@pytest.mark.parametrize(
    ("path", "kind", "vendored", "expected"),
    [
        ("tox.ini", "config", False, True),
        ("setup.py", "config", False, True),
        ("CHANGES.rst", "junk", False, True),
        ("static/jquery-3.5.1.js", "code", True, True),
        ("src/pkg/_vendor/six.py", "junk", True, False),  # vendored Python is code
        ("astropy/extern/ply/cpp.py", "junk", False, False),
        ("src/pkg/core.py", "code", False, False),
        ("tests/test_core.py", "tests", False, True),
        ("src/pkg/tests/conftest.py", "tests", False, True),
    ],
)
def test_what_is_held_back(path: str, kind: str, vendored: bool, expected: bool) -> None:
    assert held_back(path, kind, vendored) is expected


def test_a_report_about_the_build_holds_only_its_tests_docs_and_prose() -> None:
    assert held_back("tests/test_core.py", "tests", False, report=True, build=True)
    assert held_back("docs/usage.rst", "docs", False, report=True, build=True)
    assert held_back("README.md", "other", False, report=True, build=True)
    assert not held_back("setup.cfg", "config", False, report=True, build=True)
    assert not held_back("CHANGES.rst", "junk", False, report=True, build=True)
    assert not held_back("static/jquery-3.5.1.js", "code", True, report=True, build=True)
    assert not held_back("tests/test_core.py", "tests", False, report=False, build=True)


def test_tests_are_held_back_for_a_report_only() -> None:
    """A how-question may be answered by a test; a bug report's fix is in the code."""
    assert held_back("tests/test_core.py", "tests", False, report=True)
    assert not held_back("tests/test_core.py", "tests", False, report=False)
    assert held_back("tox.ini", "config", False, report=False)


def test_a_how_question_keeps_a_test_module_that_answers_it(shop: Path) -> None:
    files = _ranked_files(shop, "how is apply_coupon used on a Cart with a Coupon discount?")
    assert "tests/test_cart.py" in files[:5], files


def test_a_long_how_question_keeps_configuration_out_of_its_first_five(shop: Path) -> None:
    """A how-question of ten words or more has its first files put in order again by the
    how-question model (codeagent.rank.how_order), after configuration was held back: the
    configuration stays out of the first five all the same."""
    question = "how does the cart apply a coupon discount to the total of its items?"
    assert len(question.split()) >= 10
    files = _ranked_files(shop, question)
    held = {p for p in HELD if not p.startswith("tests/")}  # a how-question may want a test
    assert not held & set(files[:5]), files[:5]
    assert len(files) >= 5
