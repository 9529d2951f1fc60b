"""An irregular verb form ("written", "overridden", "built") is read as its verb in BM25
terms: the table against an English lemmatizer's (lemminflect's) own forms, and a question
worded with such a form finding the code that uses the verb, through a real index."""

from __future__ import annotations

from pathlib import Path

import lemminflect
import pytest
import Stemmer

from codeagent import Workspace
from codeagent.config import Settings
from codeagent.tokens import IRREGULAR, bm25_terms
from conftest import GitRepoFactory

STEM = Stemmer.Stemmer("english").stemWord


@pytest.mark.parametrize(("form", "base"), sorted(IRREGULAR.items()))
def test_each_form_is_an_inflection_of_its_base_word(form: str, base: str) -> None:
    lemmas = lemminflect.getAllLemmas(form)
    assert any(base in found for found in lemmas.values()), lemmas


@pytest.mark.parametrize(("form", "base"), sorted(IRREGULAR.items()))
def test_each_form_meets_its_base_word_where_the_stemmer_alone_does_not(
    form: str, base: str
) -> None:
    assert STEM(form) != STEM(base)  # the entry is needed
    assert bm25_terms(form) == bm25_terms(base) == [STEM(base)]
    assert bm25_terms(form.capitalize()) == [STEM(base)]
    assert base not in IRREGULAR  # one step: a base word is not a form of another


def test_a_form_inside_an_identifier_is_read_as_its_base_word() -> None:
    assert bm25_terms("bytes_written") == ["bytes_written", "byte", "write"]
    assert bm25_terms("wasOverridden") == ["wasoverridden", STEM("override")]
    assert bm25_terms("rebuilt_index") == ["rebuilt_index", STEM("rebuild"), "index"]
    # A regular form is the stemmer's alone; a word outside the table is left as it is.
    assert bm25_terms("writes writing left hidden") == [STEM("write")] * 2 + ["left", "hidden"]


REPO = {
    "results/cache.py": (
        "import json\n\n\n"
        "class Store:\n"
        '    """Keeps the outcome of each run on disk."""\n\n'
        "    def write(self, path, outcome):\n"
        "        with open(path, 'w') as handle:\n"
        "            json.dump(outcome, handle)\n"
    ),
    "results/report.py": (
        "def summary(cache, results):\n"
        '    """A line per entry of the results cache: the cache of results, counted."""\n'
        "    cached = [r for r in results if r in cache]\n"
        "    return f'{len(cached)} of {len(results)} results in the cache'\n"
    ),
    "results/clock.py": "def now():\n    return 0\n",
}


def test_a_question_with_an_irregular_form_finds_the_code_with_the_base_word(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo(REPO)
    settings = Settings(home=tmp_path / "home", llm="none", embed="none", k=4)
    result = Workspace(root, settings).ask("where is the cache of results written?")
    assert result.route.tool == "rag"
    first = result.sources[0]  # the chunk that holds Store.write (line 7)
    assert first.path == "results/cache.py"
    assert first.start_line <= 7 <= first.end_line
