"""A how-question's first files put in order again (codeagent.rank.how_order): only for a
how-question answered without vectors; the same files, the shown scores still falling; the
words of a path and of a question read as the module says.

The model here is a stand-in that reads one column, the share of a path's words the question
holds, so the order it must give is counted from the paths below by the test itself; the
first model's own order puts another file first, so the test fails when the step is left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import how_order, ranking
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory

FILES = {
    # says the question's words most often; its path says none of them
    "shop/cart.py": "def cart_lines(cart):\n"
    "    # the invoice totals: each line of the invoice rendered with its total\n"
    "    invoice_total = sum(line.total for line in cart.lines)  # invoice total\n"
    "    return [(line, line.total, invoice_total) for line in cart.lines]  # rendered\n",
    # its path says two of the question's three words; its text says them once
    "shop/invoice_render.py": "def draw(doc):\n    return str(doc.total)\n",
    "shop/tax.py": "def tax(invoice):\n    return invoice.total * 0.2\n",
    "shop/stock.py": "def stock(item):\n    return item.count\n",
}
QUESTION = "how is an invoice rendered on the page together with the totals of its lines?"
SHORT = "invoice rendered totals"
REPORT = (
    "The invoice is rendered with the wrong totals. When I render an invoice for a cart with "
    "two lines, the total of the invoice is the total of the first line only, so the rendered "
    "invoice shows a total that is too low. It happens with every cart I tried, on a fresh "
    "install too, and it did not happen in the release before. Steps: make a cart, add two "
    "lines, render its invoice, read the total."
)
TESTS_QUESTION = "which tests check how an invoice is rendered on the page with its totals?"


@pytest.fixture
def store(git_repo: GitRepoFactory):  # type: ignore[no-untyped-def]
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    return store


@pytest.fixture
def path_words_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in model: all its weight on the path's share of the question's words."""
    weights = [1.0 if name == "path_share" else 0.0 for name in how_order.COLUMNS]
    model = {"columns": list(how_order.COLUMNS), "models": {"lexical": {"weights": weights}}}
    monkeypatch.setattr(how_order, "load", lambda path=None: model)


def ranked(store: Any, question: str) -> list[tuple[str, float]]:
    return rank_files(store, question, analyze(question)).files


def without_step(store: Any, question: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with monkeypatch.context() as patch:
        patch.setattr(ranking, "USE_HOW_ORDER", False)
        return [path for path, _ in ranked(store, question)]


def share_by_hand(path: str) -> float:
    """The share of the path's words (folders, file name; stems) that the question holds:
    `shop`, `invoice`, `render` against the question's `invoice`, `rendered`, `page`,
    `together`, `totals`, `lines`."""
    question = {"invoice", "render", "page", "together", "total", "line"}
    words = {
        "shop/cart.py": ["shop", "cart"],
        "shop/invoice_render.py": ["shop", "invoice", "render"],
        "shop/tax.py": ["shop", "tax"],
        "shop/stock.py": ["shop", "stock"],
    }[path]
    return sum(w in question for w in words) / len(words)


def test_a_how_question_gets_the_models_order(
    store: Any, path_words_only: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = without_step(store, QUESTION, monkeypatch)
    assert before[0] != "shop/invoice_render.py"  # the first model's order puts another first
    files = ranked(store, QUESTION)
    paths = [path for path, _ in files]
    head = paths[: how_order.K]
    assert sorted(head) == sorted(before[: how_order.K])  # the same files, put in order again
    assert paths[0] == max(head, key=share_by_hand) == "shop/invoice_render.py"
    shown = [score for _, score in files]
    assert shown == sorted(shown, reverse=True)  # the scores still fall down the list


@pytest.mark.parametrize(
    "question", [REPORT, TESTS_QUESTION, SHORT], ids=["bug report", "tests", "a few words"]
)
def test_a_report_a_question_about_the_tests_or_a_short_one_keeps_the_first_order(
    store: Any, path_words_only: None, monkeypatch: pytest.MonkeyPatch, question: str
) -> None:
    analysis = analyze(question)
    held_by = {
        REPORT: analysis.reports,
        TESTS_QUESTION: ranking.asked_kinds(analysis) == {"tests"}
        and len(question.split()) >= how_order.MIN_WORDS,
        SHORT: len(question.split()) < how_order.MIN_WORDS and not analysis.reports,
    }
    assert held_by[question]  # each question is held by its own rule alone
    assert [p for p, _ in ranked(store, question)] == without_step(store, question, monkeypatch)


def test_an_index_with_vectors_keeps_the_first_order_without_weights_for_it(
    store: Any, path_words_only: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from codeagent.rank import features

    compute = features.compute

    def with_vectors(*args: Any, **kwargs: Any) -> Any:
        found = compute(*args, **kwargs)
        found.has_dense = True
        return found

    before = without_step(store, QUESTION, monkeypatch)
    monkeypatch.setattr(features, "compute", with_vectors)
    monkeypatch.setattr("codeagent.rank.learned.model_for", lambda has_dense: _Lexical())
    assert [p for p, _ in ranked(store, QUESTION)] == before


class _Lexical:
    """The shipped lexical model, asked for whatever the index has (so only the vectors'
    flag differs from the run without the step)."""

    def __init__(self) -> None:
        from codeagent.rank import learned

        model = learned.load(learned.MODEL_FILE)["lexical"]
        self.score = model.score


def test_words_of_a_question_and_of_a_path() -> None:
    words = how_order.question_words("How does parseHeader handle the Formatters' buffering?")
    assert {"parse", "head", "parsehead", "formatt", "buffer", "handle"} <= words
    assert not {"how", "does", "the"} & words  # words that say nothing of a file
    assert how_order.stem("formatter") == how_order.stem("formatters") == "formatt"
    every, own = how_order.path_words("src/pkg/cli/output_formatters.py")
    assert every == ("pkg", "cli", "output", "formatt")  # `src` and the suffix left out
    assert own == ("output", "formatt")
    share, own_share = how_order.path_shares("src/pkg/cli/output_formatters.py", words)
    assert (share, own_share) == (1 / 4, 1 / 2)


def test_a_model_fitted_on_other_columns_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "how_order.json"
    bad.write_text(json.dumps({"columns": ["learned"], "models": {}}))
    with pytest.raises(ValueError, match="other columns"):
        how_order.load.__wrapped__(bad)
    shipped = how_order.load()
    assert shipped is not None
    assert len(shipped["models"]["lexical"]["weights"]) == len(how_order.COLUMNS)
