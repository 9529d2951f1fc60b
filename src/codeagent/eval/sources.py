"""Which files of a repository are its "source files", per language family: what the plain
baseline indexes and what the commit miner (``eval/mine_commits.py``) may take as expected
files.

A rule is a set of suffixes, the directories that hold no source (tests, docs, examples,
vendored and generated trees) and the file names that are tests or tooling. These rules are
the evaluation's own on purpose, fixed and naive, not the product's
(``codeagent.rank.file_roles``) nor the language layer's (``codeagent.lang``): every baseline
figure must keep meaning the same floor while the product changes. Python's rule is the one
every earlier figure used, unchanged.

    is_source("src/router.ts", "js")          # True
    is_source("src/router.test.ts", "js")     # False: a test
    is_source("mux_test.go", "go")            # False
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeagent.errors import EvalError


@dataclass(frozen=True)
class SourceRule:
    """Source files of one language family: a suffix of ``suffixes``, no directory of
    ``skip_dirs`` or ending in one of ``skip_dir_ends`` (case-insensitive), and a name that
    ``skip_name`` does not match."""

    suffixes: tuple[str, ...]
    skip_dirs: frozenset[str]
    skip_name: re.Pattern[str] | None = None
    skip_dir_ends: tuple[str, ...] = ("_dist", "-dist")  # generated copies (``deno_dist``)


# Directories that hold no source in any language family but Python (whose rule stays as the
# earlier figures had it): tests, docs, examples, benchmarks, vendored and generated trees.
_COMMON_SKIP = frozenset(
    {
        "test",
        "tests",
        "testing",
        "testdata",
        "fixtures",
        "doc",
        "docs",
        "example",
        "examples",
        "_examples",
        "sample",
        "samples",
        "bench",
        "benches",
        "benchmark",
        "benchmarks",
        "vendor",
        "third_party",
        "third-party",
        "node_modules",
        "dist",
        "build",
        "target",
    }
)

RULES: dict[str, SourceRule] = {
    "python": SourceRule(
        (".py",),
        frozenset({"test", "tests", "testing", "doc", "docs", "example", "examples"}),
        re.compile(r"^(conftest\.py|test_.*|.*_test\.py)$"),
        (),
    ),
    "go": SourceRule((".go",), _COMMON_SKIP, re.compile(r"_test\.go$")),
    "rust": SourceRule((".rs",), _COMMON_SKIP | {"fuzz"}),
    "java": SourceRule(
        (".java",),
        _COMMON_SKIP | {"androidtest", "jmh"},
        re.compile(r"(Tests?|[a-z0-9]IT|TestCase)\.java$"),
    ),
    # JavaScript and TypeScript: one family (a project mixes them, and its typings).
    "js": SourceRule(
        (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"),
        _COMMON_SKIP | {"__tests__", "__mocks__", "coverage", "cypress", "e2e"},
        # typings, tests (``x.test.ts``, ``x.spec.js``, tsd's ``x.test-d.ts``, ``x-tests.ts``,
        # ``test.js``), minified bundles, tool configs, dot files
        re.compile(
            r"(\.d\.[mc]?ts|\.(test|spec|bench)(-d)?\.\w+|(^|[-_.])(tests?|spec)\.\w+|"
            r"\.min\.js|\.config\.\w+)$|^\."
        ),
    ),
    "c": SourceRule(
        (".c", ".h", ".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".ipp", ".tpp"),
        _COMMON_SKIP | {"unity", "googletest", "gtest"},
        re.compile(r"(^test_|_test\.\w+$|_unittest\.\w+$)"),
    ),
    "csharp": SourceRule(
        (".cs",),
        _COMMON_SKIP | {"obj", "bin"},
        re.compile(r"(Tests?\.cs$|\.Designer\.cs$|AssemblyInfo\.cs$)"),
    ),
    "ruby": SourceRule((".rb",), _COMMON_SKIP | {"spec"}, re.compile(r"(_spec|_test)\.rb$")),
    "php": SourceRule((".php",), _COMMON_SKIP, re.compile(r"Test\.php$")),
}
LANGUAGES = tuple(RULES)
# The family of every repository the corpus files under no other (the mined ones) and of every
# figure from before the other families.
DEFAULT_FAMILY = "python"


def rule_for(language: str) -> SourceRule:
    """The rule of ``language`` (a key of :data:`RULES`); EvalError for any other name."""
    try:
        return RULES[language]
    except KeyError:
        raise EvalError(
            f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}"
        ) from None


def is_source(path: str, language: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) is a source file of ``language``."""
    rule = rule_for(language)
    parts = PurePosixPath(path).parts
    if not parts or not parts[-1].endswith(rule.suffixes):
        return False
    dirs = [part.lower() for part in parts[:-1]]
    if any(part in rule.skip_dirs or part.endswith(rule.skip_dir_ends) for part in dirs):
        return False
    return rule.skip_name is None or not rule.skip_name.search(parts[-1])
