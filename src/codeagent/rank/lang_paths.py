"""The file-kind conventions of the other language families (Go, JavaScript/TypeScript, Rust,
Java and the like), for :func:`codeagent.rank.file_roles.path_kind`.

Python's rule is :func:`~codeagent.rank.file_roles.path_kind`'s own and never reaches this
module (a ``.py``, ``.pyi`` or ``.pyx`` path keeps the kind it always had). For the other
source files, their families' own names:

- **tests**: Go's ``x_test.go``; JavaScript's ``x.test.ts``, ``x.spec.js``, tsd's
  ``x.test-d.ts``, ``test.js``, ``__tests__/``, ``__mocks__/``, ``e2e/``, ``cypress/``;
  Java's ``FooTest.java``, ``FooTests.java``, ``FooIT.java``, ``FooTestCase.java``; Ruby's
  ``x_spec.rb``; Rust's ``tests.rs``; C's ``x_unittest.cc``; test data (``testdata/``,
  ``fixtures/``); fuzz targets (``fuzz/``);
- **docs**: benchmarks (Rust's ``benches/``, Java's ``jmh/``, ``x.bench.ts``), ``_examples/``
  and ``samples/``;
- **junk**: built or generated copies (``dist/``, ``build/``, ``target/``, ``deno_dist/``,
  ``x-dist/``);
- **config**: tool configuration written as code (``vite.config.ts``, ``karma.conf.js``,
  ``gulpfile.js``, dot files such as ``.eslintrc.js``);
- **other**: TypeScript declarations (``x.d.ts``), typings beside the code they describe.

The rules follow the evaluation's source rule (``eval/sources.py``), which the product does
not import (``eval`` reads the product, never the other way).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

PYTHON_SUFFIXES = frozenset({".py", ".pyi", ".pyx"})
# source suffixes of these families beyond path_kind's first list (CommonJS and ES modules,
# C++ and Kotlin script spellings)
MORE_CODE_SUFFIXES = frozenset({".cjs", ".mts", ".cts", ".cxx", ".hh", ".hxx", ".kts"})
TEST_DIRS = frozenset({
    "__tests__", "__mocks__", "e2e", "cypress", "testdata", "fixtures", "fuzz",
})  # fmt: skip
DOC_DIRS = frozenset({"benches", "bench", "benchmark", "jmh", "_examples", "sample", "samples"})
BUILT_DIRS = frozenset({"dist", "build", "target"})
BUILT_DIR_ENDS = ("_dist", "-dist")
_TEST_NAME = re.compile(
    r"(_test\.go|\.(test|spec)(-d)?\.[mc]?[jt]sx?|(^|[-_.])(tests?|spec)\.[mc]?[jt]sx?|"
    r"(^|_)tests?\.rs|"
    r"[a-z0-9](Tests?|IT|TestCase)\.(java|kt|scala|cs)|_(spec|test)\.rb|_unittest\.\w+)$"
)
_BENCH_NAME = re.compile(r"\.bench\.\w+$")
_TYPINGS = re.compile(r"\.d\.[mc]?ts$", re.IGNORECASE)
_TOOL_CONFIG = re.compile(
    r"(\.config\.\w+|\.conf\.[mc]?js|^(gulpfile|gruntfile|jakefile)\.[mc]?[jt]s)$", re.IGNORECASE
)


def is_other_language(path: str, code_suffixes: frozenset[str]) -> bool:
    """Whether ``path`` is a source file (a suffix of ``code_suffixes``) of a language other
    than Python."""
    suffix = PurePosixPath(path).suffix.lower()
    return suffix in code_suffixes and suffix not in PYTHON_SUFFIXES


def other_language_kind(path: str) -> str | None:
    """The kind its family's conventions give a non-Python source file, or None where they
    say nothing (the general rule of ``path_kind`` then applies)."""
    pure = PurePosixPath(path)
    name = pure.name
    dirs = [part.lower() for part in pure.parts[:-1]]
    if any(d in BUILT_DIRS or d.endswith(BUILT_DIR_ENDS) for d in dirs):
        return "junk"
    if _TEST_NAME.search(name) or any(d in TEST_DIRS for d in dirs):
        return "tests"
    if _BENCH_NAME.search(name) or any(d in DOC_DIRS for d in dirs):
        return "docs"
    if _TOOL_CONFIG.search(name) or name.startswith("."):
        return "config"
    if _TYPINGS.search(name):
        return "other"
    return None
