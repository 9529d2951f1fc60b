"""eval/fit_dense_reports.py replays the product's order for a bug report from a dumped pool:
truth is the product's own ranking of a real repository, with and without its source-first
rule."""

from __future__ import annotations

from types import ModuleType

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import ranking
from codeagent.rank.query import analyze
from conftest import GitRepoFactory
from eval_scripts import load_with_siblings

WORDS = "the parser drops the last token of a quoted header value"
FILES = {
    "pkg/parser.py": "def parse_header(value):\n"
    '    """Split a quoted header value into tokens."""\n'
    "    return value.split()[:-1]\n",
    "pkg/tokens.py": "def last_token(tokens):\n    return tokens[-1]\n",
    "pkg/quoting.py": "def quoted(value):\n    return value.startswith('\"')\n",
    "pkg/headers.py": "def header_value(header):\n    return header.partition(':')[2]\n",
    "pkg/lexer.py": "def tokens_of(text):\n    # each token of the text\n    return text.split()\n",
    "pkg/values.py": "def drop_last(values):\n    # drops the last value\n    return values[:-1]\n",
    # the question's words over and over
    "tests/test_parser.py": "def test_parser_quoted_header_value_last_token():\n"
    + f"    # {WORDS}\n" * 8
    + "    assert parse_header('a \"b\"') == ['a', '\"b\"']\n",
    "docs/parser.md": f"# The parser\n\n{WORDS}. {WORDS}.\n",
    "tox.ini": f"[tox]\n# {WORDS}\nenvlist = py311\n",
}
REPORT = (
    f"Bug: {WORDS}\n\nThis snippet shows it:\n\n```python\nfrom pkg.parser import parse_header\n"
    "print(parse_header('a \"b c\"'))\n```\n\nExpected the quoted token to be kept."
)


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_with_siblings("fit_dense_reports")


def test_the_replayed_order_is_the_products(
    script: ModuleType, git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    analysis = analyze(REPORT)
    assert analysis.reports
    shown = [path for path, _ in ranking.rank_files(store, REPORT, analysis).files]
    monkeypatch.setattr(ranking, "SOURCE_FIRST", False)
    before = [path for path, _ in ranking.rank_files(store, REPORT, analysis).files]
    # the rule moved tox.ini out of the first five: after five source files
    assert before.index("tox.ini") < 5
    assert shown.index("tox.ini") == 5
    assert script.product_order(before, REPORT) == shown


def test_a_question_about_the_tests_keeps_its_order(script: ModuleType) -> None:
    files = ["tests/test_parser.py", "pkg/parser.py", "docs/parser.md"]
    assert script.product_order(files, "which tests cover the parser?") == files
    assert script.product_order(files, REPORT)[0] == "pkg/parser.py"
    # a report that names the test module leaves it where it is
    named = f"{REPORT}\n\nIt fails in tests/test_parser.py too."
    assert script.product_order(files, named) == files
