"""A capitalized word a short question calls a class ("the Mode class", "class Mode") is a
name of the code: the file that defines it leads, where its words alone put another first. A
word alone at a sentence's start, or a bug report's pasted ``class Foo(Base):``, is not."""

from __future__ import annotations

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory

KINDS = "".join(
    f"    def is_kind_{n}(self) -> bool:\n"
    f'        """Whether the line holds a class of kind {n}."""\n'
    f"        return self.kind == {n}\n\n"
    for n in range(6)
)
FILES = {
    "fmt/lines.py": (
        '"""Lines of code as the formatter holds them."""\n\n\n'
        "class Line:\n"
        '    """Holds the leaves and comments of one line; a class line holds a class\'s '
        'header."""\n\n'
        "    depth: int = 0\n\n"
        "    def is_class(self) -> bool:\n"
        '        """Whether this line holds a class definition."""\n'
        '        return self.leaves[0] == "class"\n\n' + KINDS
    ),
    "fmt/mode.py": (
        '"""The formatter\'s settings."""\n\n'
        "from dataclasses import dataclass\n\n\n"
        "@dataclass\n"
        "class Mode:\n"
        "    line_length: int = 88\n"
        "    string_normalization: bool = True\n"
        "    preview: bool = False\n\n"
        "    def key(self) -> str:\n"
        '        return f"{self.line_length}-{self.preview}"\n'
    ),
    "fmt/cli.py": (
        '"""The command line."""\n\n'
        "from fmt.mode import Mode\n\n\n"
        "def main(line_length: int) -> None:\n"
        "    mode = Mode(line_length=line_length)\n"
        "    print(mode.key())\n"
    ),
}


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("what does the Mode class hold?", ("Mode",)),
        ("The Mode dataclass holds what?", ("Mode",)),
        ("where is class Mode defined?", ("Mode",)),
        ("how does a Request interface send?", ("Request",)),
        ("what does Mode hold?", ()),  # a word alone may start a sentence
        ("An exception class is raised", ()),
        ("what does the Service trait do?\n\nThe Service is ...", ("Service",)),
    ],
)
def test_a_word_called_a_type_is_a_name(question: str, names: tuple[str, ...]) -> None:
    assert analyze(question).identifiers == names


def test_a_reports_pasted_class_is_its_own_code() -> None:
    report = "Saving fails:\n\n```python\nclass Article(Model):\n    pass\n```\n"
    assert "Article" not in analyze(report).identifiers
    long_report = " ".join(["the form saves twice"] * 20) + " with class Article: in models.py"
    assert "Article" not in analyze(long_report).identifiers


def test_the_class_a_question_names_leads(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    unnamed = "what does Mode hold?"
    by_words = [path for path, _ in rank_files(store, unnamed, analyze(unnamed)).files]
    assert by_words[0] == "fmt/lines.py"  # by its words alone the lines' module leads
    question = "what does the Mode class hold?"
    ranked = [path for path, _ in rank_files(store, question, analyze(question)).files]
    assert ranked[0] == "fmt/mode.py"
