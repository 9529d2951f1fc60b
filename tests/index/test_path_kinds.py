"""Every rule of the file-kind prior, one path per listed name, suffix and folder, the expected
kind written out by hand from docs/index.md (never read from the constants under test)."""

from __future__ import annotations

import pytest

from codeagent.index.ranking import module_names, path_kind

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
