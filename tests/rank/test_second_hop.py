"""A how-question reaches the file that the code answering it names (the second hop of
``rank/named_files.py``), through the public ranking only: a real repository written here, a
real index, :func:`codeagent.rank.ranking.rank_files`.

The repository holds a checker whose ``msgs`` name three messages, and for each message a
documentation example and a functional test named after its symbol. No word of the question
is in the examples; the question paraphrases one message's text. The example of that message
is therefore ranked only if the hop follows the checker's name for it, and the examples of
the other two messages must stay out."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.store.store import IndexStore
from conftest import GitRepoFactory

CHECKER = "lint/checkers/loops.py"
ASKED = "doc/messages/useless-else-on-loop/bad.py"
OTHERS = (
    "doc/messages/unreachable-after-return/bad.py",
    "doc/messages/literal-identity-comparison/bad.py",
)
EXAMPLE = (
    "def first_even(values):\n    for value in values:\n        print(value)\n"
    "    else:\n        return None\n"
)
FILES = {
    CHECKER: '''"""Checks of loops and statements."""


class LoopChecker:
    """Warns about loops and statements."""

    name = "loops"
    msgs = {
        "W0120": (
            "Else clause on loop without a break statement",
            "useless-else-on-loop",
            "Loops should only have an else clause if they can exit early with a break.",
        ),
        "W0121": (
            "Unreachable code after a return statement",
            "unreachable-after-return",
            "Code placed after a return statement is never executed.",
        ),
        "W0122": (
            "Comparison to a literal with the identity operator",
            "literal-identity-comparison",
            "Use equality when a statement compares with a literal.",
        ),
    }

    def visit_for(self, node):
        """Warn when the loop's else clause cannot be reached through a break."""
        return node
''',
    "lint/checkers/__init__.py": '"""The checkers."""\n',
    "lint/runner.py": "def run(paths):\n    return [p for p in paths if p]  # run each checker\n",
    ASKED: EXAMPLE,
    "doc/messages/useless-else-on-loop/good.py": "def evens(values):\n    return values[::2]\n",
    "tests/functional/useless_else_on_loop.py": EXAMPLE,
    "tests/functional/useless_else_on_loop.txt": "useless-else-on-loop:4:4:first_even\n",
    OTHERS[0]: "def stop():\n    return 1\n    print(2)\n",
    OTHERS[1]: "def same(x):\n    return x is 3\n",
}
QUESTION = "Which warning fires when a trailing clause of a for statement cannot exit early?"


@pytest.fixture
def store(git_repo: GitRepoFactory) -> IndexStore:
    root: Path = git_repo(FILES)
    found, _ = load_or_build(root, Settings.load(embed="none"))
    return found


def _ranked(store: IndexStore, question: str) -> list[str]:
    return [path for path, _ in rank_files(store, question, analyze(question)).files]


def test_the_example_the_checker_names_for_the_asked_message_is_ranked(
    store: IndexStore,
) -> None:
    ranked = _ranked(store, QUESTION)
    assert ranked[0] == CHECKER  # the code that answers, found by the question's words
    assert ASKED in ranked  # no word of the question is in it: reached through the checker
    assert not set(OTHERS) & set(ranked)  # the checker names these too, for other messages


def test_code_names_code_the_expected_output_beside_a_test_is_not_lifted(
    store: IndexStore,
) -> None:
    ranked = _ranked(store, QUESTION)
    assert "tests/functional/useless_else_on_loop.py" in ranked
    assert "tests/functional/useless_else_on_loop.txt" not in ranked


def test_a_bug_report_does_not_take_the_hop(store: IndexStore) -> None:
    report = (
        QUESTION
        + "\n\n```python\nfor item in items:\n    pass\n```\n"
        + "The warning fires on this trailing clause although it cannot exit early. " * 3
    )
    assert analyze(report).reports
    assert ASKED not in _ranked(store, report)
