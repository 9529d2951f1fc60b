"""The file kinds of other language families' paths (issue 25), and Python's kinds unchanged.

The expected kinds are written out by hand from each family's conventions (``go test``'s
``_test.go``, Jest's ``__tests__`` and ``*.test.ts``, Cargo's ``benches/`` and ``target/``,
Maven's ``*Test.java``, TypeScript's ``.d.ts``). Python's rule is checked against a copy of
the rule as it stood before (:func:`_python_rule`, frozen here) on every Python file of the
standard library and of the installed packages: a tree nobody wrote for this test.
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig
from pathlib import Path, PurePosixPath

import pytest

from codeagent.rank.file_roles import path_kind

CASES = [
    # Go
    ("mux_test.go", "tests"), ("internal/x/route_test.go", "tests"), ("mux.go", "code"),
    ("testdata/sample.go", "tests"), ("_examples/hello/main.go", "docs"),
    ("doc.go", "code"), ("latest.go", "code"),
    # JavaScript / TypeScript
    ("src/router.test.ts", "tests"), ("lib/x.spec.js", "tests"), ("src/x.test-d.ts", "tests"),
    ("src/__tests__/router.ts", "tests"), ("src/__mocks__/fs.js", "tests"),
    ("test.js", "tests"), ("lib/x-tests.ts", "tests"), ("e2e/login.ts", "tests"),
    ("src/index.d.ts", "other"), ("index.d.mts", "other"), ("types/index.d.cts", "other"),
    ("deno_dist/index.ts", "junk"), ("pkg/hono-dist/x.js", "junk"), ("dist/index.js", "junk"),
    ("vite.config.ts", "config"), ("karma.conf.js", "config"), ("gulpfile.js", "config"),
    (".eslintrc.js", "config"), ("src/bench/x.bench.ts", "docs"),
    ("src/router.ts", "code"), ("lib/index.cjs", "code"), ("src/index.mts", "code"),
    ("src/contest.ts", "code"), ("src/specification.ts", "code"),
    ("spec/helpers/server.js", "tests"), ("test/specs/__helpers.js", "tests"),
    ("src/inspect/x.ts", "code"), ("src/specs_parser/x.ts", "code"),
    # Ruby (RSpec's folder and Cucumber's steps)
    ("spec/support/ssl_test_server.rb", "tests"), ("spec/spec_helper.rb", "tests"),
    ("spec/httparty/request_spec.rb", "tests"), ("features/steps/env.rb", "tests"),
    ("lib/httparty/request.rb", "code"), ("lib/features/toggle.rb", "code"),
    ("lib/spec_parser.rb", "code"),
    # Rust
    ("benches/parse.rs", "docs"), ("src/lib.rs", "code"), ("src/tests.rs", "tests"),
    ("target/debug/build/out.rs", "junk"), ("fuzz/fuzz_targets/x.rs", "tests"),
    ("src/attest.rs", "code"),
    # Java
    ("src/main/java/org/x/Parser.java", "code"), ("src/main/java/org/x/ParserTest.java", "tests"),
    ("core/ParserTests.java", "tests"), ("core/ParserIT.java", "tests"),
    ("core/ParserTestCase.java", "tests"), ("src/jmh/java/Bench.java", "docs"),
    ("src/main/java/org/x/Latest.java", "code"), ("src/main/java/org/x/Test.java", "code"),
    ("src/main/java/org/x/spec/TypeSpec.java", "code"), ("api/spec/types.go", "code"),
    ("build/generated/X.java", "junk"),
    # C and C++ (Google's x_test.cc, Chromium's x_unittest.cc)
    ("util/bloom_test.cc", "tests"), ("db/log_test.cc", "tests"), ("net/url_unittest.cc", "tests"),
    ("src/parser_tests.cpp", "tests"), ("tests/helpers.h", "tests"), ("util/bloom.cc", "code"),
    ("src/latest.c", "code"), ("src/contest.cpp", "code"), ("include/x/attest.h", "code"),
    # the general rule still applies after the families' own
    ("src/test/java/org/x/Helper.java", "tests"), ("vendor/github.com/x/y_test.go", "junk"),
    ("docs/example.go", "docs"), ("node_modules/x/index.d.ts", "junk"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "kind"), CASES)
def test_other_language_kinds(path: str, kind: str) -> None:
    assert path_kind(path) == kind


# The rule as it stood before issue 25, copied here (not imported) so that a change to
# Python's kinds is caught. Its names and suffixes are written out again on purpose.
_CODE = set(
    [
        ".py",
        ".pyi",
        ".pyx",
        ".js",
        ".jsx",
        ".mjs",
        ".ts",
        ".tsx",
        ".go",
        ".rs",
        ".java",
        ".kt",
        ".scala",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".rb",
        ".php",
        ".swift",
        ".m",
        ".sh",
        ".lua",
        ".r",
        ".jl",
        ".ex",
        ".exs",
        ".erl",
        ".hs",
        ".ml",
        ".clj",
        ".sql",
    ]
)
_TESTS = {"tests", "test", "testing", "unittests", "integration", "functional"}
_DOCS = {"docs", "doc", "examples", "example", "tutorials", "tutorial", "benchmarks"}
_JUNK = {"vendor", "vendored", "_vendor", "third_party", "extern", "node_modules"}
_CONFIG = set(
    [
        "setup.py",
        "setup.cfg",
        "tox.ini",
        "noxfile.py",
        "conftest.py",
        "pyproject.toml",
        "manifest.in",
        "makefile",
        "dockerfile",
        "requirements.txt",
        "pytest.ini",
        ".coveragerc",
        "codecov.yml",
        ".gitignore",
        ".gitattributes",
        ".gitblameignore",
        ".mailmap",
        ".pre-commit-config.yaml",
        ".readthedocs.yml",
        ".readthedocs.yaml",
        "environment.yml",
    ]
)
_CHANGES = re.compile(r"^(changes|changelog|history|news|release|whatsnew|authors)", re.I)


def _python_rule(path: str) -> str:
    pure = PurePosixPath(path)
    parts = [p.lower() for p in pure.parts]
    name, dirs, suffix = parts[-1], parts[:-1], pure.suffix.lower()
    if (
        suffix in {".po", ".pot", ".mo", ".map", ".svg", ".csv", ".min.js", ".min.css"}
        or name.endswith((".min.js", ".min.css"))
        or _CHANGES.match(name)
        or any(d in _JUNK or d.startswith("changelog") for d in dirs)
        or "locale" in dirs
    ):
        return "junk"
    if name.startswith("test_") or name.endswith(("_test.py", "_tests.py")):
        return "tests"
    if any(d in _TESTS for d in dirs):
        return "tests"
    if name in _CONFIG or (dirs and dirs[0] in {".github", ".circleci", "ci"}):
        return "config"
    if any(d in _DOCS for d in dirs):
        return "docs"
    if suffix in _CODE:
        return "code"
    return (
        "config"
        if suffix in {".cfg", ".ini", ".toml", ".yml", ".yaml", ".lock", ".in"}
        else ("config" if name.startswith(".") else "other")
    )


def _python_paths() -> list[str]:
    found: set[str] = set()
    roots = {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"]}
    for root in roots:  # os.walk: the same files as Path.rglob, in about a third of the time
        for folder, _dirs, files in os.walk(root):
            for name in files:
                if os.path.splitext(name)[1].lower() in {".py", ".pyi", ".pyx"}:
                    found.add(Path(folder, name).relative_to(root).as_posix())
    return sorted(found)


def test_python_kinds_on_real_trees_moved_only_by_test_folder_names() -> None:
    paths = _python_paths()
    assert len(paths) > 1000, sys.prefix  # the standard library alone has more
    rules = {p: _python_rule(p) for p in paths}
    assert {"code", "tests", "docs", "config"} <= set(rules.values())  # the tree exercises it
    changed = [(p, rules[p], kind) for p in paths if (kind := path_kind(p)) != rules[p]]
    # the one change since: a folder named for tests by its end is a test folder (IDLE's
    # own tests live in the standard library's idlelib/idle_test)
    if (Path(sysconfig.get_paths()["stdlib"]) / "idlelib" / "idle_test").is_dir():
        assert "idlelib/idle_test/__init__.py" in [p for p, _, _ in changed]
    for path, before, after in changed:
        folders = PurePosixPath(path).parts[:-1]
        assert after == "tests", (path, before, after)
        assert any(re.search(r"(tests|_test)$", f.lower()) for f in folders), path


@pytest.mark.parametrize(
    "path",
    ["pkg/__tests__/x.py", "pkg/x.test.py", "benches/x.py", "dist/x.py", "pkg/x.d.py",
     "testdata/x.py", "pkg/.eslintrc.py", "vite.config.py", "pkg/FooTest.py", "pkg/tests.py",
     "target/x.pyi", "fixtures/x.pyx", "_examples/x.py", "e2e/x.py"],
)  # fmt: skip
def test_python_paths_ignore_other_families_conventions(path: str) -> None:
    assert path_kind(path) == _python_rule(path)
