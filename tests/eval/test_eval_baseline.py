"""The plain BM25 baseline: which files it sees, and files ranked by their best chunk."""

from __future__ import annotations

import pytest

from codeagent.eval.baseline import BaselineRanker, is_source_py
from codeagent.records import Chunk


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("src/pkg/core.py", True),
        ("pkg/testing_utils.py", True),  # a name, not a test directory
        ("setup.py", True),
        ("pkg/tests/test_core.py", False),
        ("tests/helpers.py", False),
        ("pkg/test_core.py", False),
        ("pkg/core_test.py", False),
        ("conftest.py", False),
        ("docs/conf.py", False),
        ("doc/ext/plugin.py", False),
        ("examples/demo.py", False),
        ("pkg/Testing/x.py", False),
        ("README.md", False),
        ("pkg/core.pyi", False),
        ("setup.cfg", False),
    ],
)
def test_is_source_py(path: str, source: bool) -> None:
    assert is_source_py(path) is source


def chunk(path: str, text: str, start: int = 1) -> Chunk:
    return Chunk(path=path, start_line=start, end_line=start + text.count("\n"), text=text)


CHUNKS = [
    chunk("pkg/cookies.py", "def merge_cookies(jar, cookies):\n    return jar\n"),
    chunk("pkg/cookies.py", "class CookieJar:\n    pass\n", 10),
    chunk("pkg/sessions.py", "class Session:\n    def send(self, request):\n        pass\n"),
    chunk("pkg/adapters.py", "def send(request, timeout):\n    retry timeout proxy\n"),
    chunk("tests/test_cookies.py", "merge_cookies merge_cookies merge_cookies jar\n"),
    chunk("docs/cookies.py", "merge_cookies merge_cookies\n"),
    chunk("README.md", "merge_cookies merge_cookies merge_cookies\n"),
]


def test_only_source_files_are_ranked() -> None:
    ranker = BaselineRanker(CHUNKS)
    assert sorted(set(ranker.paths)) == ["pkg/adapters.py", "pkg/cookies.py", "pkg/sessions.py"]
    # Only pkg/cookies.py holds the word among source files: tests, docs and README do not count.
    assert ranker.rank("Why does merge_cookies drop values?") == ["pkg/cookies.py"]


def test_a_file_appears_once_ranked_by_its_best_chunk() -> None:
    ranker = BaselineRanker(CHUNKS)
    # "timeout" is in adapters.py only; "send" in adapters.py and sessions.py.
    assert ranker.rank("send with a timeout") == ["pkg/adapters.py", "pkg/sessions.py"]
    assert ranker.rank("send with a timeout", depth=1) == ["pkg/adapters.py"]
    # Two chunks of cookies.py match (jar and CookieJar are different words): listed once.
    assert ranker.rank("cookies jar cookiejar").count("pkg/cookies.py") == 1


def test_the_path_is_part_of_a_chunk() -> None:
    ranker = BaselineRanker(CHUNKS)
    assert ranker.rank("sessions") == ["pkg/sessions.py"]


def test_no_match_and_no_source() -> None:
    assert BaselineRanker(CHUNKS).rank("zzz unknownword") == []
    assert BaselineRanker(CHUNKS).rank("the and of") == []  # stopwords only
    assert BaselineRanker([chunk("README.md", "text\n")]).rank("text") == []
    assert BaselineRanker(CHUNKS).rank("send", depth=0) == []
