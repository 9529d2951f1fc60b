"""A question on an index answered first embeds its best BM25 files' chunks first: dense search
over them answers it, the embedding cache keeps their vectors for the next process, and the
answer says what was embedded; all the candidates within the budget or none; none with a
budget of 0."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from background_builds import wait_for_entry, wait_until_ended
from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index import first_vectors
from codeagent.index.answer_first import cached_vectors
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

# "invoice" and "ledger": many times in billing/, once in reports/, never elsewhere
FILES = {
    "billing/invoice.py": "def invoice_total(invoice):\n    return sum(invoice.lines)\n\n\n"
    "def invoice_tax(invoice, ledger):\n    return ledger.rate * invoice_total(invoice)\n",
    "reports/summary.py": "def summary(rows):\n    # one invoice per row\n    return len(rows)\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
    "shop/stock.py": "def restock(store, item, count):\n    store[item] += count\n",
}
QUESTION = "how is the invoice tax computed from the ledger rate?"


class Budgeted(HashEmbedder):
    """The hash embedder with an estimate of ``per_text`` seconds a text."""

    def __init__(self, dim: int, per_text: float) -> None:
        super().__init__(dim)
        self.per_text = per_text
        self.documents: list[str] = []

    def estimate_seconds(self, texts: list[str]) -> float:
        return self.per_text * len(texts)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.documents += texts
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return HashEmbedder.embed_documents(self, [text])[0]  # not counted as a document


def chunks_of(root: Path, path: str) -> list[str]:
    """The embedding texts of ``path``'s chunks, straight from the chunker."""
    return [c.embed_text for c in chunk_file(path, (root / path).read_text(encoding="utf-8"))]


def answered_first(root: Path, settings: Settings, embedder: Budgeted):  # type: ignore[no-untyped-def]
    store, stats = load_or_build(root, settings, embedder=embedder, background=True)
    assert stats.dense_coverage == 0.0  # answered first, nothing cached
    return store, stats


def finish(settings: Settings, stats) -> None:  # type: ignore[no-untyped-def]
    wait_for_entry(Path(stats.cache_path))
    wait_until_ended(settings, stats.repo_id)


def test_the_question_s_candidate_files_are_embedded_first(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", background_after=0.0, first_embed_seconds=2.0)
    embedder = Budgeted(16, per_text=0.01)
    store, stats = answered_first(root, settings, embedder)
    store.take_notices()
    hits = retrieve(store, QUESTION, 3)
    assert hits[0].path == "billing/invoice.py"
    wanted = chunks_of(root, "billing/invoice.py") + chunks_of(root, "reports/summary.py")
    assert sorted(embedder.documents) == sorted(wanted)  # the two files with the words, whole
    assert len(store.dense) == len(wanted)
    found = {store.chunks[i].path for i, _score in store.dense_scores(QUESTION, 50)}
    assert found == {"billing/invoice.py", "reports/summary.py"}
    [said] = store.take_notices()
    assert said == (
        f"dense search: the question's 2 best BM25 files embedded first ({len(wanted)} chunks,"
        + said.split("chunks,", 1)[1]
    )
    # the embedding cache has them: the next process answers with their vectors at once
    texts = [c.embed_text for c in store.chunks]
    rows, _vectors, _missing = cached_vectors(texts, embedder, settings)
    assert sorted(texts[i] for i in rows) == sorted(wanted)
    # a second question embeds only what the first did not
    embedder.documents.clear()
    retrieve(store, "restock by a count", 3)
    assert embedder.documents == chunks_of(root, "shop/stock.py")
    finish(settings, stats)


@pytest.mark.parametrize("room", [0, 1], ids=["one-short", "just-enough"])
def test_all_the_candidates_or_none(git_repo: GitRepoFactory, room: int) -> None:
    root = git_repo(FILES)
    wanted = chunks_of(root, "billing/invoice.py") + chunks_of(root, "reports/summary.py")
    # one second a text: a budget one text short of the candidates, or just enough
    budget = float(len(wanted) - 1 + room)
    settings = Settings.load(embed="hash:16", background_after=0.0, first_embed_seconds=budget)
    embedder = Budgeted(16, per_text=1.0)
    store, stats = answered_first(root, settings, embedder)
    store.take_notices()
    assert retrieve(store, QUESTION, 3)[0].path == "billing/invoice.py"
    assert sorted(embedder.documents) == (sorted(wanted) if room else [])
    assert len(store.dense) == (len(wanted) if room else 0)
    assert len(store.take_notices()) == room  # said when done, silent when not
    finish(settings, stats)


def test_a_budget_of_zero_embeds_nothing_first(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", background_after=0.0, first_embed_seconds=0.0)
    embedder = Budgeted(16, per_text=0.01)
    store, stats = answered_first(root, settings, embedder)
    store.take_notices()
    assert retrieve(store, QUESTION, 3)[0].path == "billing/invoice.py"
    assert embedder.documents == []
    assert store.embedder is None  # BM25 only: no query model to load
    assert store.take_notices() == []
    finish(settings, stats)


class Slow(Budgeted):
    """Says it is quick, takes ``seconds`` a batch: the estimate is wrong."""

    def __init__(self, dim: int, seconds: float) -> None:
        super().__init__(dim, per_text=1e-6)
        self.seconds = seconds

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        time.sleep(self.seconds)
        return super().embed_documents(texts)


def test_past_the_budget_on_the_clock_nothing_is_added(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(first_vectors, "BATCH", 1)  # a look at the clock after every chunk
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", background_after=0.0, first_embed_seconds=0.2)
    embedder = Slow(16, seconds=0.3)  # the first batch alone is past the budget
    store, stats = answered_first(root, settings, embedder)
    store.take_notices()
    assert retrieve(store, QUESTION, 3)[0].path == "billing/invoice.py"
    assert len(embedder.documents) == 1  # one batch, then the clock said stop
    assert len(store.dense) == 0  # none of them: not one file lifted over the others
    [said] = store.take_notices()
    assert said == (
        "dense search: the question's candidate files took longer than 0.2 s to embed:"
        " answered without them"
    )
    finish(settings, stats)


class Unmeasured(Budgeted):
    """A quick estimate, but from a rate never measured on this machine."""

    def rate_known(self) -> bool:
        return False


def test_nothing_is_spent_on_a_rate_not_measured_here(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:16", background_after=0.0, first_embed_seconds=2.0)
    embedder = Unmeasured(16, per_text=0.01)
    store, stats = answered_first(root, settings, embedder)
    store.take_notices()
    assert retrieve(store, QUESTION, 3)[0].path == "billing/invoice.py"
    assert embedder.documents == []
    assert store.take_notices() == []
    finish(settings, stats)


def test_the_local_embedder_knows_its_rate_once_a_job_recorded_it(tmp_path: Path) -> None:
    from codeagent.embed import speed
    from codeagent.embed.embedders import LocalEmbedder

    embedder = LocalEmbedder(models_dir=tmp_path)
    assert not embedder.rate_known()
    speed.record_rate(tmp_path, 60_000.0, 6.0)  # what a job of six seconds records
    assert (tmp_path / speed.RATE_FILE).is_file()
    assert embedder.rate_known()
