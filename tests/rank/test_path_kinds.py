"""Every rule of the file-kind prior, one path per listed name, suffix and folder, the expected
kind written out by hand from docs/index.md (never read from the constants under test)."""

from __future__ import annotations

import pytest

from codeagent.rank.file_roles import path_kind
from codeagent.rank.file_table import module_names
from codeagent.rank.first_ranker import kind_prior
from codeagent.rank.query import analyze

CODE = "py pyi pyx js jsx mjs ts tsx go rs java kt scala c h cc cpp hpp cs rb php swift m sh lua r jl ex exs erl hs ml clj sql"  # noqa: E501
CONFIG_FILES = [
    "setup.py", "setup.cfg", "tox.ini", "noxfile.py", "conftest.py", "pyproject.toml",
    "MANIFEST.in", "Makefile", "Dockerfile", "requirements.txt", "pytest.ini", ".coveragerc",
    "codecov.yml", ".gitignore", ".gitattributes", ".gitblameignore", ".mailmap",
    ".pre-commit-config.yaml", ".readthedocs.yml", ".readthedocs.yaml", "environment.yml",
]  # fmt: skip
CASES = (
    [(f"src/pkg/mod.{s}", "code") for s in CODE.split()]
    + [(f"src/pkg/MOD.{s.upper()}", "code") for s in ("py", "go")]
    + [(f"pkg/{d}/helpers.py", "tests") for d in
       ("tests", "test", "testing", "unittests", "integration", "functional", "Tests")]
    # a folder named for tests by its end (yapf's own ``yapftests/yapf_test_helper.py``)
    + [(f"{d}/helpers.py", "tests") for d in
       ("yapftests", "pkg/unit_tests", "integration_tests", "e2e-tests", "_tests",
        "idlelib/idle_test", "PkgTests")]
    + [(f"pkg/{d}/models.py", "code") for d in
       ("contests", "protests", "latest", "fastest", "requests", "manifests", "digests",
        "testament", "attest")]
    + [("doc/data/messages/u/unsupported-membership-test/bad.py", "docs")]
    + [("pkg/test_x.py", "tests"), ("pkg/x_test.py", "tests"), ("pkg/x_tests.py", "tests"),
       ("pkg/TEST_X.py", "tests"), ("pkg/testament.py", "code"), ("pkg/contest.py", "code")]
    + [(f"{d}/guide.py", "docs") for d in
       ("docs", "doc", "examples", "example", "tutorials", "tutorial", "benchmarks", "Docs")]
    + [(f"pkg/{d}/lib.py", "junk") for d in
       ("vendor", "vendored", "_vendor", "third_party", "extern", "node_modules")]
    + [(f"pkg/data.{s}", "junk") for s in ("po", "pot", "mo", "map", "svg", "csv", "SVG")]
    + [("static/app.min.js", "junk"), ("static/app.min.css", "junk"),
       ("static/APP.MIN.JS", "junk"), ("static/app.js", "code"), ("static/app.css", "other")]
    + [(f"{n}.rst", "junk") for n in
       ("CHANGES", "changelog", "HISTORY", "news", "release-notes", "whatsnew", "AUTHORS")]
    + [("changelog.d/1.feature", "junk"), ("changelogs/x.md", "junk"),
       ("pkg/locale/de/LC_MESSAGES/pkg.py", "junk"), ("pkg/locales/x.py", "code")]
    + [(f"sub/{n}", "config") for n in CONFIG_FILES]
    + [(f".github/workflows/{n}", "config") for n in ("ci.yml", "lint.py")]
    + [(f"{d}/run.py", "config") for d in (".circleci", "ci")]
    + [("src/ci/run.py", "code")]  # only a top-level ci/ folder is CI configuration
    + [(f"conf/app.{s}", "config") for s in ("cfg", "ini", "toml", "yml", "yaml", "lock", "in")]
    + [("pkg/.env.example", "config"), ("pkg/.hidden", "config")]
    + [("README.md", "other"), ("notes.txt", "other"), ("data.json", "other"), ("LICENSE", "other")]
    # pip's requirement files under any name
    + [(n, "config") for n in
       ("requirements-dev.txt", "dev-requirements.txt", "requirements_test.in", "constraints.txt",
        "requirements/base.txt", "requirements/docs.in", "docs/requirements.txt")]
    + [("src/pkg/requirements.py", "code"), ("myrequirements.txt", "other"),
       ("requirements.md", "other"), ("tests/requirements.txt", "tests")]
    # the order of the rules: junk before tests, tests before config and docs
    + [("tests/CHANGES.rst", "junk"), ("tests/vendor/x.py", "junk"),
       ("tests/conftest.py", "tests"), ("docs/tests/x.py", "tests"), ("docs/setup.py", "config"),
       ("tests/data.yml", "tests"), ("docs/conf.yml", "docs")]
)  # fmt: skip


@pytest.mark.parametrize(("path", "kind"), CASES)
def test_path_kind(path: str, kind: str) -> None:
    assert path_kind(path) == kind


@pytest.mark.parametrize(
    ("path", "names"),
    [
        ("src/flask/app.py", ["src.flask.app", "flask.app", "app"]),
        ("pkg/sub/__init__.py", ["pkg.sub", "sub"]),
        ("pkg/types.pyi", ["pkg.types", "types"]),
        ("__init__.py", []),
        ("mod.py", ["mod"]),
        ("pkg/mod.pyx", []),
        ("pkg/mod.PY", []),
        ("README.md", []),
    ],
)
def test_module_names(path: str, names: list[str]) -> None:
    assert module_names(path) == names


# The priors as docs/index.md states them: code 0, tests -0.35, docs and examples -0.45,
# other text -0.4, configuration -0.6, changelogs and catalogs -1; a short question about
# tests takes the tests' prior to 0, one about docs moves docs to -0.4 and other text to -0.1;
# an issue report doubles them all.
PRIORS = {"code": 0.0, "tests": -0.35, "docs": -0.45, "other": -0.4, "config": -0.6, "junk": -1.0}
ABOUT_TESTS = {**PRIORS, "tests": 0.0}
ABOUT_DOCS = {**PRIORS, "docs": -0.4, "other": -0.1}
REPORT = "The parser fails on nested input. " + "It fails every time we run it on a file. " * 8


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how is the header parsed?", PRIORS),
        ("which test checks the header parser?", ABOUT_TESTS),
        ("where is the parser documented in the docs?", ABOUT_DOCS),
        (REPORT, {kind: 2 * value for kind, value in PRIORS.items()}),
    ],
)
def test_the_prior_of_each_kind(question: str, expected: dict[str, float]) -> None:
    analysis = analyze(question)
    for kind in ("code", "tests", "docs", "other", "config", "junk"):
        assert kind_prior(kind, analysis) == pytest.approx(expected[kind]), kind
