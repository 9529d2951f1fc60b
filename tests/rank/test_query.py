"""analyze(): code names, dotted names, paths and traceback frames, against hand-read truth."""

from __future__ import annotations

import pytest

from codeagent.rank.query import Frame, analyze, looks_like_code

ISSUE = """Modeling's `separability_matrix` does not compute separability correctly

```python
from astropy.modeling import models as m
cm = m.Linear1D(10) & m.Linear1D(5, name="wide_model")
print(len(cm))
```

The CompoundModel result is wrong. See astropy/modeling/separable.py for the code.
"""

TRACEBACK = """Traceback (most recent call last):
  File "/home/u/app.py", line 3, in <module>
    requests.get(url)
  File "/usr/lib/python3.8/site-packages/requests/sessions.py", line 512, in request
    resp = self.send(prep, **send_kwargs)
  File "/usr/lib/python3.8/site-packages/requests/adapters.py", line 498, in send
    raise ConnectionError(err, request=request)
"""


def test_names_from_backticks_code_blocks_and_prose() -> None:
    found = analyze(ISSUE)
    for name in ("separability_matrix", "Linear1D"):
        assert name in found.identifiers
    assert found.weak == ("astropy", "modeling", "models", "cm", "name")  # words of the code
    assert "CompoundModel" in found.identifiers  # CamelCase in prose
    assert "print" not in found.identifiers
    assert "len" not in found.identifiers
    assert "import" not in found.identifiers
    assert "as" not in found.identifiers
    assert "Modeling" not in found.identifiers
    assert "compute" not in found.identifiers
    assert "astropy.modeling" in found.dotted
    assert "m.Linear1D" in found.dotted
    assert found.paths == ("astropy/modeling/separable.py",)
    assert "separable" not in found.identifiers  # part of a path, not a name
    assert "wide_model" not in found.identifiers  # a string, not a name
    assert "python" not in found.weak  # the code block's language tag


def test_traceback_frames_in_order() -> None:
    found = analyze(TRACEBACK)
    assert found.frames == (
        Frame("/home/u/app.py", 3, "<module>"),
        Frame("/usr/lib/python3.8/site-packages/requests/sessions.py", 512, "request"),
        Frame("/usr/lib/python3.8/site-packages/requests/adapters.py", 498, "send"),
    )
    assert "request" in found.identifiers
    assert "send" in found.identifiers
    assert "/usr/lib/python3.8/site-packages/requests/adapters.py" in found.paths


def test_urls_are_not_names() -> None:
    found = analyze("See https://github.com/psf/requests/issues/2844 and www.example.org/a_b")
    assert found.identifiers == ()
    assert found.dotted == ()


def test_calls_in_prose_count_as_code() -> None:
    assert "parse" in analyze("Calling parse() on an empty string crashes").identifiers
    assert "parse" not in analyze("we parse the header").identifiers


def test_what_a_question_is_about() -> None:
    assert analyze("Which tests cover the retry logic?").wants_tests
    assert analyze("How does the test function for backoff check the delay?").wants_tests
    assert not analyze("How is the retry delay computed?").wants_tests
    assert analyze("Where is parse_header tested?").wants_tests
    report = "I tested parse_header with a header. " * 15 + "It fails on commas."
    assert not analyze(report).wants_tests
    assert analyze("Where in the documentation is the config described?").wants_docs
    issue = "The parser fails on commas. " * 15 + "The tests and docs do not cover it."
    found = analyze(issue)
    assert found.issue_like
    assert not found.wants_tests
    assert not found.wants_docs


def test_a_short_report_that_pastes_code_or_a_traceback_asks_about_neither() -> None:
    snippet = "The total is wrong. A test that shows it:\n```python\nassert total(2) == 4\n```"
    assert not analyze(snippet).issue_like  # short, yet a report
    assert analyze(snippet).reports
    assert not analyze(snippet).wants_tests
    trace = (
        "The docs example fails:\nTraceback (most recent call last):\n"
        '  File "shop/cart.py", line 3, in total\nValueError: bad'
    )
    assert analyze(trace).frames
    assert not analyze(trace).wants_docs
    assert analyze("Which tests cover `total`?").wants_tests  # backticks are not a snippet
    assert not analyze("How is the total computed?").reports


@pytest.mark.parametrize(
    "question",
    [
        'update() is lost with the cache\n\ndb = TinyDB("db.json")\ndb.close()\n\nIt is lost.',
        "total is off by one:\n>>> total(2)\n5",
        "Why does this fail?\n    cart.total()",
        "this breaks:\nfrom shop import cart\ncart.total()",
    ],
)
def test_code_pasted_without_a_fence_makes_a_report(question: str) -> None:
    assert analyze(question).reports


@pytest.mark.parametrize(
    "question",
    [
        "how is the total computed?\nand where is it stored?",
        "list the classes\nin models.py",
        "x = 1 breaks the total",  # one line: a question that names code, not a paste
        "where is the cache written?\n",
    ],
)
def test_lines_of_words_are_no_paste(question: str) -> None:
    assert not analyze(question).reports


def test_looks_like_code() -> None:
    assert looks_like_code("snake_case")
    assert looks_like_code("CamelCase")
    assert looks_like_code("a.b")
    assert looks_like_code("HTTPAdapter")
    assert looks_like_code("MAX_SIZE")
    assert looks_like_code("getX")
    assert not looks_like_code("Hello")
    assert not looks_like_code("parse")
    assert looks_like_code("_private")
    assert not looks_like_code("__")


ENV_REPORT = """Saving a figure drops the title.

Calling `save_figure` loses it.

### Environment
- OS: Ubuntu 22.04
- numpy: 1.26.4

Traceback (most recent call last):
  File "/site/pkg/figure.py", line 12, in save_figure
ValueError: no title

**Versions**

python: 3.11.4 (main, Jun 7 2023)
show_versions_helper()
requests==2.31.0

Python's own pickle is not involved.
"""


def test_a_pasted_environment_report_is_left_out() -> None:
    from codeagent.rank.query import strip_noise

    kept = strip_noise(ENV_REPORT)
    for gone in ("Ubuntu", "numpy", "1.26.4", "show_versions_helper", "requests==", "3.11.4"):
        assert gone not in kept
    for stays in ("save_figure", 'File "/site/pkg/figure.py", line 12', "ValueError: no title",
                  "Python's own pickle"):  # fmt: skip
        assert stays in kept
    found = analyze(ENV_REPORT)
    assert "show_versions_helper" not in found.identifiers
    assert [f.function for f in found.frames] == ["save_figure"]


@pytest.mark.parametrize(
    "line",
    [
        "why does 8 == 8.0 come out true in a template? how are the two compared?",
        "where is timeout: 2.5 turned into seconds?",
        "plt.subplots_adjust(left=0.05, bottom=0.4, right=0.95, top=0.9)",
    ],
)
def test_a_question_or_code_that_holds_a_number_like_a_version_is_kept(line: str) -> None:
    from codeagent.rank.query import strip_noise

    assert strip_noise(line) == line


@pytest.mark.parametrize(
    "line",
    [
        "Django Version: 2.2.24, 3.2.9 (reproduced using two different versions)",
        "    python: 3.6.7 | packaged by conda-forge | (default, Feb 19 2019, 18:37:23)",
        "Sympy version == 1.10.1",
        "Execution time: 0.000647s [Database: default]",
    ],
)
def test_a_version_line_with_a_note_is_left_out(line: str) -> None:
    from codeagent.rank.query import strip_noise

    assert strip_noise(f"Saving drops the title.\n{line}") == "Saving drops the title."
    assert strip_noise(line) == line  # nothing else: the question is kept whole


@pytest.mark.parametrize(
    ("question", "left"),
    [
        ("where does a WHERE clause end, e.g. at GROUP BY?", ["e", "g"]),
        ("which options (e.g., timeout, retries, etc.) are read?", ["e", "g", "etc"]),
        ("how is the proxy chosen, i.e. which one wins?", ["e"]),  # "i" a stopword
        ("E.g. how are retries counted", ["e", "g"]),
    ],
)
def test_the_latin_abbreviations_of_prose_are_no_terms(question: str, left: list[str]) -> None:
    from codeagent.rank.query import strip_noise
    from codeagent.tokens import bm25_terms

    assert set(left) <= set(bm25_terms(question))  # as the question is written
    assert not set(left) & set(bm25_terms(strip_noise(question)))


@pytest.mark.parametrize("code", ["value = cfg.e.g.h", "x = node.i.e.value", "print(etc.path)"])
def test_code_that_spells_an_abbreviation_is_kept(code: str) -> None:
    from codeagent.rank.query import strip_noise

    assert strip_noise(code) == code
