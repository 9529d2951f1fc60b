"""A bug report ranks source code: the first places go to the code, not to the build or the
tests around it.

An issue report shares many words with a repository's configuration (``tox.ini`` names every
test environment, ``setup.py`` every dependency, an issue template repeats the words of every
bug report), with vendored assets (a bundled ``jquery-3.5.1.js`` holds every DOM word) and with
its tests (a report's snippet is written the way a test is: the same imports, the same calls).
The learned ranker sees the file kind as one column among many and still let them into the top
five: on issue-shaped items a test file came first for one question in five, and the fix is in
the code.

So, after the ranking: configuration, CI, packaging, issue templates, changelogs and catalogs
(:func:`codeagent.rank.file_roles.path_kind` ``config`` and ``junk``), vendored or generated
files (a bundled script, a minified asset) and, for a bug report
(:attr:`codeagent.rank.query.QueryAnalysis.reports`: a long question, or one that pastes code
or a traceback), test files, docs and examples, and the repository's prose about itself (its
README, licence, FAQ) give their places among the first :data:`TOP` to the next source files,
unless

- the question asks about configuration, CI or packaging (:func:`asks_about_build`:
  "why does tox fail on …", "where is the CI matrix", "setup.py install breaks …": a bug
  report that says so still holds its tests, docs and prose back, since a packaging tool's
  reports say "wheel" in passing), or, a short one, about the tests or the docs
  (``wants_tests``, ``wants_docs``: "which tests cover the retry logic?"; the ranking then
  leaves every file where it is), or
- the question names the file (its path, or its name: ``tox.ini``, ``test_sessions.py``).

A one-module library had shown its README, ``LICENSE.txt`` and docs pages among a bug report's
first five windows (python-schedule, each of its eight issue-shaped items): its source ran out,
and nothing held them. The code of every issue-shaped and SWE-bench item measured here is Python
source, so no measured answer can be one of them; of 118 development items of three larger
repositories one changed (a documentation template left the fifth place for a function the fix
edits; docs/eval.md, twenty-fourth round).

They keep their order among themselves and come right after the first :data:`TOP` files. A
Python file is held back only when it is a test, configuration (``setup.py``) or, where docs
are held, an example or a page of the docs: vendored Python code (``extern/ply/cpp.py``) is code
a question can be about, and measured, holding it back lost two how-questions of one
repository.

A question how (or where) the code does something
(:func:`~codeagent.rank.query.asks_workings`: "how does res.send set the content type?", not
"how do I …", not naming a test) holds back tests, examples and docs, READMEs and data as well
(:data:`HOW_HELD`): a web framework's tests are named after the API they exercise (express's
``test/res.send.js``) and its examples call it in every line, and they took all five places. On
20 hand-written how-questions about axios and express (``eval/js-how.jsonl``, a fresh
``codeagent ask`` each), a function that does the work among the first five chunks for
40 -> 80 % of them with BM25 alone and 40 -> 85 % with the vectors (express 0 -> 8 and 9 of 10);
SWE-QA's how-questions, whose reference answers cite tests, kept every file within ten and lost
some within five (requests 96.2 -> 93.0 %) (docs/eval.md, twenty-first round).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from codeagent.lang import PYTHON_AST, suffixes_read_by

TOP = 5  # the places a bug report's answer is read from
HELD_KINDS = frozenset({"config", "junk"})
HOW_HELD = frozenset({"tests", "docs", "other"})  # ... and a question how the code works
REPORT_HELD = frozenset({"tests", "docs"})  # ... and a bug report
# a repository's prose about itself, which a bug report is not about: its README, licence, FAQ
_PROSE = re.compile(
    r"(?:readme|licen[cs]e|copying|notice|faq|contributing|code_of_conduct|security)"
    r"(?:[._-][\w.-]*)?$",
    re.IGNORECASE,
)

_BUILD_WORDS = re.compile(
    r"\b(?:tox|nox|ci|continuous integration|github actions?|gh actions?|"
    r"(?:ci|github|gh) workflows?|workflow files?|travis|azure[- ]pipelines?|circleci|appveyor|"
    r"pre-commit|packaging|sdist|wheels?|setup\.py|setup\.cfg|pyproject(?:\.toml)?|"
    r"manifest\.in|build (?:system|backend|matrix)|test matrix|ci matrix|dockerfile|"
    r"docker image|makefile|requirements\.txt|requirements files?|issue templates?|"
    r"config(?:uration)? files?|lint(?:er|ing)? (?:config|settings)|coverage (?:config|settings)|"
    r"codecov|readthedocs|dependabot|vendored|bundled (?:library|copy|version)|minified|"
    r"changelog|release notes)\b",
    re.IGNORECASE,
)
_WORD_EDGE = r"(?<![\w.-]){}(?![\w-])"


def asks_about_build(question: str) -> bool:
    """Whether ``question`` is about configuration, CI, packaging or bundled assets (its
    pasted environment report left out: ``packaging==23.1`` is no question about packaging)."""
    from codeagent.rank.query import strip_noise

    return _BUILD_WORDS.search(strip_noise(question)) is not None


def held_back(
    path: str,
    kind: str,
    vendored: bool,
    report: bool = True,
    how: bool = False,
    build: bool = False,
) -> bool:
    """Whether ``path`` gives its place in the first :data:`TOP` to source code: build
    configuration always (``setup.py`` and ``noxfile.py`` included); tests for a bug
    ``report``; tests, docs and examples, READMEs and data for a question ``how`` the code
    works (:func:`~codeagent.rank.query.asks_workings`; other how-questions may be answered
    by a test: SWE-QA's reference answers cite tests); changelogs, catalogs and vendored or
    minified files unless they are Python (a question about a bundled Python module,
    ``extern/configobj/configobj.py``, is about code). A bug report that speaks of the
    ``build`` (:func:`asks_about_build`: a wheel, ``setup.cfg``, the changelog) may be about
    those files, so they keep their places; its tests, docs and the repository's prose about
    itself are still held (a report on a packaging tool says "wheel" in every other line)."""
    prose = report and kind == "other" and _PROSE.match(PurePosixPath(path).name) is not None
    if build:
        return report and (kind in REPORT_HELD or prose)
    if kind == "config" or (report and kind in REPORT_HELD) or (how and kind in HOW_HELD):
        return True
    if prose:
        return True
    if PurePosixPath(path).suffix.lower() in suffixes_read_by(PYTHON_AST):
        return False
    return kind in HELD_KINDS or vendored


def names_file(path: str, question: str, paths: Sequence[str]) -> bool:
    """Whether ``question`` names ``path``: a path it gives ends with it (or it with that
    path), or the file's name stands in it as a word (``tox.ini``, ``.travis.yml``)."""
    for given in paths:
        given = given.lstrip("./")
        if given and (path == given or path.endswith("/" + given) or given.endswith("/" + path)):
            return True
    name = PurePosixPath(path).name
    if len(name) < 4:
        return False
    return re.search(_WORD_EDGE.format(re.escape(name)), question, re.IGNORECASE) is not None


def source_first(
    order: list[int], held: Callable[[int], bool], top: int = TOP
) -> tuple[list[int], int]:
    """``order`` with the files ``held`` says so of moved out of its first ``top`` places:
    right after the first ``top`` files that are not held, in their own order; and how many
    moved. ``held`` is asked only of the files it takes to fill those places."""
    kept: list[int] = []
    moved: list[int] = []
    for position, f in enumerate(order):
        if len(kept) >= top:
            return (order, 0) if not moved else (kept + moved + order[position:], len(moved))
        (moved if held(f) else kept).append(f)
    return kept + moved, len(moved)
