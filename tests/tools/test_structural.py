"""The shape of a structural question (pure functions): long reports, multi-line texts, code
blocks, tracebacks and statements are not structural questions; placeholders name nothing."""

from __future__ import annotations

import pytest

from codeagent.tools.structural import (
    MAX_WORDS,
    is_placeholder,
    not_a_question,
    opens_as_question,
    sentences,
)

REPORT = """params: classes that inherit from list or set are sent as their repr

When I pass values that are instances of classes that inherit from list, the whole object
ends up in the URL.

```python
requests.get(url, params={"tag": Tags(["a", "b"])})
```

## Environment

- requests 2.32.3
- Python 3.12.4
"""

TRACEBACK = """Traceback (most recent call last):
  File "upload.py", line 12, in <module>
TypeError: where is super_len defined"""


@pytest.mark.parametrize(
    "question",
    [
        "where is Session.request defined?",
        "list all subclasses of RequestException",
        "who calls send?",
        "which classes inherit from something in x/_decoders.py",
        "what in src/requests/exceptions.py subclasses anything",
        "Session's methods",
        "Session.request definition",
        "methods of class Cart in shop/models.py",
        "module-level constants in shop/models.py",
        "show me Cart.checkout in shop/models.py",
        "please, in models.py, which classes are defined?",
        "I want to know where Session is defined",
        "Can you list the functions in models.py?",
        "How does the cart compute the total with tax?",  # a question: its rules say how/why
        "list the classes in shop/models.py.",
        "what does `email.utils.parseaddr` do (e.g. with a comma)?",
    ],
)
def test_questions_are_shaped_like_questions(question: str) -> None:
    assert not_a_question(question) is None


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (REPORT, "a long report ("),
        ("subclasses of HTTPAdapter:\n```python\nclass A(HTTPAdapter): pass\n```", "multi-line"),
        ("who calls send?\nand where is it defined?", "a multi-line text (2 lines)"),
        (TRACEBACK, "a multi-line text (3 lines, a traceback)"),
        ('who calls it? File "a.py", line 3, in f', "a text with a traceback"),
        ("subclasses of X: ```class A(X): pass```", "a text with a code block"),
        ("Our wrapper broke. It catches subclasses of RequestException only.", "one sentence"),
        ("My adapter breaks when classes that inherit from dict are passed", "a statement"),
        ("HTTPAdapter breaks when classes inherit from dict", "a statement"),
        ("When I pass classes that inherit from dict it fails", "a statement"),
        ("It's the subclasses of dict that fail", "a statement"),
    ],
)
def test_reports_and_statements_are_not(text: str, why: str) -> None:
    got = not_a_question(text)
    assert got is not None
    assert why in got


def test_the_word_bound() -> None:
    ask = "list the classes in shop/models.py"
    filler = " and".join([""] * (MAX_WORDS - len(ask.split()) + 1))
    at_bound = ask + filler
    assert len(at_bound.split()) == MAX_WORDS
    assert not_a_question(at_bound) is None
    over = not_a_question(at_bound + " more")
    assert over == f"a long report ({MAX_WORDS + 1} words)"


def test_report_details_list_what_was_found() -> None:
    got = not_a_question(REPORT)
    assert got is not None
    assert got.startswith("a long report (")
    assert "lines" in got
    assert got.endswith("a code block)")


def test_sentences_ignore_dots_in_names_code_and_abbreviations() -> None:
    assert sentences("what does requests.utils.super_len do?") == 1
    assert sentences("list the classes in models.py, e.g. Cart") == 1
    assert sentences("who calls `a. B`?") == 1
    assert sentences("It broke. Who calls send?") == 2


def test_opens_as_question_reads_past_courtesies_and_a_place() -> None:
    assert opens_as_question("hi, could you please list the classes")
    assert opens_as_question("in src/requests/models.py, which classes are there?")
    assert not opens_as_question("in my app, classes that inherit from dict break")
    assert not opens_as_question("")


@pytest.mark.parametrize("word", ["something", "anything", "it", "this", "these", "one", "`it`"])
def test_placeholders_name_nothing(word: str) -> None:
    assert is_placeholder(word)


@pytest.mark.parametrize(
    "name", ["Session", "send", "x", "ones_complement", "item", "Thing", "`Something`"]
)
def test_real_names_are_not_placeholders(name: str) -> None:
    assert not is_placeholder(name)
