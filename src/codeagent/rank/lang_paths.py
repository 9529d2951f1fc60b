"""The file-kind conventions of the other language families (Go, JavaScript/TypeScript, Rust,
Java and the like), for :func:`codeagent.rank.file_roles.path_kind`.

The rule of a language read by ``ast`` (Python, and its dialects: Cython's ``.pyx``) is
:func:`~codeagent.rank.file_roles.path_kind`'s own and never reaches this module. For the
other source files, their families' own names:

- **tests**: each language's test file names, from its spec (``LanguageSpec.test_names``:
  Go's ``x_test.go``, JavaScript's ``x.test.ts``, Java's ``FooTest.java``, Ruby's
  ``x_spec.rb``, Rust's ``tests.rs``, C's and C++'s ``x_test.cc`` and ``x_unittest.cc``;
  Kotlin's and Scala's, which have no spec, are written here); ``__tests__/``, ``__mocks__/``,
  ``e2e/``, ``cypress/``; test data (``testdata/``, ``fixtures/``); fuzz targets
  (``fuzz/``); a Ruby, JavaScript or TypeScript file under ``spec/`` (RSpec's and Jasmine's
  helpers and servers beside the specs: httparty's ``spec/support/ssl_test_server.rb`` took a
  how-question's third place) and a Ruby file under ``features/`` (Cucumber's step
  definitions);
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
from functools import cache
from pathlib import PurePosixPath

from codeagent import lang

# source suffixes of these families beyond path_kind's first list (CommonJS and ES modules,
# C++ and Kotlin script spellings)
MORE_CODE_SUFFIXES = frozenset({".cjs", ".mts", ".cts", ".cxx", ".hh", ".hxx", ".kts"})
TEST_DIRS = frozenset({
    "__tests__", "__mocks__", "e2e", "cypress", "testdata", "fixtures", "fuzz",
})  # fmt: skip
SPEC_DIRS = frozenset({"spec", "specs"})  # tests, in these families (not a Go or Java package)
SPEC_SUFFIXES = frozenset({".rb", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"})
DOC_DIRS = frozenset({"benches", "bench", "benchmark", "jmh", "_examples", "sample", "samples"})
BUILT_DIRS = frozenset({"dist", "build", "target"})
BUILT_DIR_ENDS = ("_dist", "-dist")
# the test names of languages without a spec (Kotlin, Scala: JUnit's names, as Java's)
_MORE_TEST_NAMES = r"[a-z0-9](Tests?|IT|TestCase)\.(kt|scala)$"
_BENCH_NAME = re.compile(r"\.bench\.\w+$")
_TYPINGS = re.compile(r"\.d\.[mc]?ts$", re.IGNORECASE)
_TOOL_CONFIG = re.compile(
    r"(\.config\.\w+|\.conf\.[mc]?js|^(gulpfile|gruntfile|jakefile)\.[mc]?[jt]s)$", re.IGNORECASE
)


@cache
def _ast_read(specs: tuple[lang.LanguageSpec, ...]) -> frozenset[str]:
    return frozenset(
        ext
        for spec in specs
        if spec.structure == lang.PYTHON_AST
        for ext in (*spec.extensions, *spec.dialects)
    )


@cache
def _test_name(specs: tuple[lang.LanguageSpec, ...]) -> re.Pattern[str]:
    names = [spec.test_names for spec in specs if spec.test_names]
    return re.compile("|".join(f"(?:{n})" for n in [*names, _MORE_TEST_NAMES]))


def test_name() -> re.Pattern[str]:
    """A test file's name in any language's convention (every spec's ``test_names``)."""
    return _test_name(lang.all_specs())


def is_other_language(path: str, code_suffixes: frozenset[str]) -> bool:
    """Whether ``path`` is a source file (a suffix of ``code_suffixes``) of a language not
    read by ``ast``."""
    suffix = PurePosixPath(path).suffix.lower()
    return suffix in code_suffixes and suffix not in _ast_read(lang.all_specs())


def other_language_kind(path: str) -> str | None:
    """The kind its family's conventions give a non-Python source file, or None where they
    say nothing (the general rule of ``path_kind`` then applies)."""
    pure = PurePosixPath(path)
    name = pure.name
    dirs = [part.lower() for part in pure.parts[:-1]]
    if any(d in BUILT_DIRS or d.endswith(BUILT_DIR_ENDS) for d in dirs):
        return "junk"
    if test_name().search(name) or any(d in TEST_DIRS for d in dirs):
        return "tests"
    suffix = pure.suffix.lower()
    if suffix in SPEC_SUFFIXES and any(d in SPEC_DIRS for d in dirs):
        return "tests"
    if suffix == ".rb" and dirs[:1] == ["features"]:
        return "tests"
    if _BENCH_NAME.search(name) or any(d in DOC_DIRS for d in dirs):
        return "docs"
    if _TOOL_CONFIG.search(name) or name.startswith("."):
        return "config"
    if _TYPINGS.search(name):
        return "other"
    return None
