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
    monkeypatch.setattr(
        "codeagent.rank.learned.model_for", lambda has_dense, report=False: _Lexical()
    )
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


def rrf_by_hand(first: list[str], second: list[str], k: int, depth: int) -> list[str]:
    """Reciprocal rank fusion as the literature writes it: a file's score is the sum of
    1 / (k + place) over the orders that hold it in their first ``depth``, places from 0;
    a tie goes to the file ``first`` holds, then to ``first``'s order, then ``second``'s."""
    score: dict[str, float] = {}
    for ranked in (first, second):
        for place, path in enumerate(ranked[:depth]):
            score[path] = score.get(path, 0.0) + 1 / (k + place)

    def tie(path: str) -> tuple[int, int]:
        if path in first[:depth]:
            return (0, first.index(path))
        return (1, second.index(path))

    head = sorted(score, key=lambda p: (-score[p], tie(p)))
    return head + [p for p in first if p not in score]


def test_fuse_is_reciprocal_rank_fusion() -> None:
    first, second = [1, 2, 3, 4, 5, 6], [4, 7, 1, 2]
    names = {i: f"f{i}" for i in range(8)}
    by_hand = rrf_by_hand([names[i] for i in first], [names[i] for i in second], 5, 3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranking, "FUSE_DEPTH", 3)
        fused = [names[i] for i in ranking.fuse(first, second)]
    assert fused == by_hand
    assert fused[:2] == ["f1", "f4"]  # 1/5 + 1/7 over 1/5, then 1/5 over 1/6 + 0
    assert sorted(fused) == sorted({names[i] for i in first + second[:3]})


def test_a_how_question_with_vectors_fuses_its_order_with_the_one_without(
    git_repo: GitRepoFactory, path_words_only: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The order with vectors fused with the order an index without vectors gives (read from
    a second index of the same files, built without them), by the test's own fusion."""
    root = git_repo(FILES)
    with_vectors, _ = load_or_build(root, Settings.load(embed="hash:32"))
    without, _ = load_or_build(root, Settings.load(embed="none"))
    lexical = [path for path, _ in ranked(without, QUESTION)]
    with monkeypatch.context() as patch:
        patch.setattr(ranking, "FUSE_HOW", False)
        dense = [path for path, _ in ranked(with_vectors, QUESTION)]
    assert lexical[0] == "shop/invoice_render.py" != dense[0]  # the two orders differ
    files = ranked(with_vectors, QUESTION)
    paths = [path for path, _ in files]
    assert paths == rrf_by_hand(dense, lexical, ranking.FUSE_K, ranking.FUSE_DEPTH)
    assert paths != dense
    shown = [score for _, score in files]
    assert shown == sorted(shown, reverse=True)  # the scores still fall down the list
    from codeagent.rank import features

    compute, passes = features.compute, []

    def counted(*args: Any, **kwargs: Any) -> Any:
        passes.append(kwargs.get("vectors", True))
        return compute(*args, **kwargs)

    monkeypatch.setattr(features, "compute", counted)
    for question in (REPORT, SHORT, TESTS_QUESTION):  # not for these: one pass, with vectors
        ranked(with_vectors, question)
    assert passes == [True, True, True]
    ranked(with_vectors, QUESTION)
    assert passes[3:] == [True, False]


def test_the_second_pass_has_its_model_order_fuse_pool_files(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first pass's model orders every kept file (fewer than POOL here); the second's, the
    first ``FUSE_POOL``."""
    from codeagent.rank import features

    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="hash:32"))
    compute, pools = features.compute, []

    def kept(*args: Any, **kwargs: Any) -> Any:
        found = compute(*args, **kwargs)
        pools.append((kwargs.get("vectors", True), len(found.pool)))
        return found

    monkeypatch.setattr(features, "compute", kept)
    monkeypatch.setattr(ranking, "FUSE_POOL", 2)
    ranked(store, QUESTION)
    assert pools == [(True, 3), (False, 2)]
