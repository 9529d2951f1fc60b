"""What a file is, read from its path *and* its content, whatever the repository's layout.

The file kind (:func:`path_kind`, the one test/doc/config rule of the project) reads directory
and file names; a repository says more about itself than its names do:

- **vendored, minified or generated**: a bundled library (``static/jquery-3.5.1.js``, a
  ``_vendor/`` tree, a ``/*! … @license`` banner opening a script that names the library's
  version: a project's own licence header, as every file of express's ``lib/`` opens with,
  names none, and taken for a banner it had the map of express list no file and its code held
  back from every answer's first five), a minified asset (very long lines), a file that says
  it was generated (``DO NOT EDIT``, in its first five lines or in a script's opening
  comments);
- **the repository's own test tree**: the directories its pytest configuration names
  (``testpaths`` in ``pyproject.toml``, ``setup.cfg``, ``pytest.ini`` or ``tox.ini``), so a
  test tree under any name (``t/``, ``src/pkg/testsuite/``) is known as one;
- **helper scripts**: top-level ``scripts/``, ``extra/``, ``tools/``, ``bin/`` and the like;
- a package's ``__init__.py``.

Each becomes a feature of the learned ranker (:mod:`codeagent.rank.features`), never a filter:
a question about a test or a script still finds it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codeagent import lang
from codeagent.rank.lang_paths import MORE_CODE_SUFFIXES, is_other_language, other_language_kind

if TYPE_CHECKING:
    from codeagent.records import Chunk

_CODE_SUFFIXES = frozenset((
    ".py", ".pyi", ".pyx", ".js", ".jsx", ".mjs", ".ts", ".tsx", ".go", ".rs", ".java", ".kt",
    ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift", ".m", ".sh",
    ".lua", ".r", ".jl", ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".sql",
    *MORE_CODE_SUFFIXES,
))  # fmt: skip


def code_suffixes() -> frozenset[str]:
    """The suffixes of source files: the common languages' and every spec's extensions."""
    return _code_suffixes(lang.all_specs())


@cache
def _code_suffixes(specs: tuple[lang.LanguageSpec, ...]) -> frozenset[str]:
    return _CODE_SUFFIXES | {ext for spec in specs for ext in spec.extensions}


TEST_DIRS = frozenset({"tests", "test", "testing", "unittests", "integration", "functional"})
# a folder named for tests by its end: a package's own (``yapftests``), a kind's
# (``integration_tests``, ``e2e-tests``), a test package's (``idle_test``); not a hyphened
# ``-test`` (pylint's message folders, ``unsupported-membership-test``)
_TEST_DIR_END = re.compile(r"(?:[a-z0-9]tests|(?:^|[a-z0-9])(?:[_-]tests|_test))$")
_WORDS_ENDING_TESTS = frozenset({"contests", "protests", "attests", "detests", "retests"})
DOC_DIRS = frozenset({"docs", "doc", "examples", "example", "tutorials", "tutorial", "benchmarks"})
JUNK_DIRS = frozenset({"vendor", "vendored", "_vendor", "third_party", "extern", "node_modules"})
CONFIG_NAMES = frozenset({
    "setup.py", "setup.cfg", "tox.ini", "noxfile.py", "conftest.py", "pyproject.toml",
    "manifest.in", "makefile", "dockerfile", "requirements.txt", "pytest.ini", ".coveragerc",
    "codecov.yml", ".gitignore", ".gitattributes", ".gitblameignore", ".mailmap",
    ".pre-commit-config.yaml", ".readthedocs.yml", ".readthedocs.yaml", "environment.yml",
})  # fmt: skip
CONFIG_SUFFIXES = frozenset({".cfg", ".ini", ".toml", ".yml", ".yaml", ".lock", ".in"})
JUNK_SUFFIXES = frozenset({".po", ".pot", ".mo", ".map", ".svg", ".csv", ".min.js", ".min.css"})
KINDS = ("code", "tests", "docs", "config", "other", "junk")
_CHANGELOG = re.compile(r"^(changes|changelog|history|news|release|whatsnew|authors)", re.I)
# pip's requirement files under any name: ``requirements-dev.txt``, ``dev-requirements.in``,
# ``constraints.txt``, and every ``.txt`` of a ``requirements/`` folder
_REQUIREMENTS = re.compile(
    r"^(?:[\w.-]*[-_.])?(?:requirements|constraints)(?:[-_.][\w.-]*)?\.(?:txt|in|pip)$"
)


def path_kind(path: str) -> str:
    """``code``, ``tests``, ``docs``, ``config``, ``other`` or ``junk``, from the path alone.

    ``junk``: changelogs, translation catalogs, minified or vendored assets; ``tests``: a test
    module's name or a test directory; ``config``: build and CI configuration, pip's
    requirement files under any name, lock files, dotfiles; ``docs``: documentation,
    examples, tutorials, benchmarks; ``code``: source files; ``other``: Markdown, text, data.
    The first that applies, in that order. A source file of another language than Python
    is read by its family's conventions first
    (:func:`codeagent.rank.lang_paths.other_language_kind`: ``mux_test.go``, ``x.spec.ts``,
    ``benches/``, ``x.d.ts``, ``deno_dist/``), after the junk rule.
    """
    pure = PurePosixPath(path)
    parts = [p.lower() for p in pure.parts]
    name = parts[-1] if parts else ""
    dirs = parts[:-1]
    suffix = pure.suffix.lower()
    if (
        suffix in JUNK_SUFFIXES
        or name.endswith((".min.js", ".min.css"))
        or _CHANGELOG.match(name)
        or any(d in JUNK_DIRS or d.startswith("changelog") for d in dirs)
        or "locale" in dirs
    ):
        return "junk"
    code = code_suffixes()
    if is_other_language(path, code):
        kind = other_language_kind(path)
        if kind is not None:
            return kind
    spec = lang.spec_for(path)
    if (
        name.startswith("test_")
        or (spec is not None and spec.test_names and re.search(spec.test_names, pure.name))
        or any(is_test_dir(d) for d in dirs)
    ):
        return "tests"
    if name in CONFIG_NAMES or (dirs and dirs[0] in {".github", ".circleci", "ci"}):
        return "config"
    if _REQUIREMENTS.match(name) or (dirs and dirs[-1] == "requirements" and suffix == ".txt"):
        return "config"
    if any(d in DOC_DIRS for d in dirs):
        return "docs"
    if suffix in code:
        return "code"
    if suffix in CONFIG_SUFFIXES or name.startswith("."):
        return "config"
    return "other"


@lru_cache(maxsize=8192)  # a repository repeats its folder names across its files
def is_test_dir(name: str) -> bool:
    """Whether a folder's (lower-cased) ``name`` says it holds tests: one of
    :data:`TEST_DIRS`, or a name that ends so (``yapftests``, ``unit_tests``, ``e2e-tests``,
    ``idle_test``; not ``contests``, ``latest`` or ``membership-test``)."""
    if name in TEST_DIRS:
        return True
    return _TEST_DIR_END.search(name) is not None and name not in _WORDS_ENDING_TESTS


VENDOR_DIRS = frozenset({
    "vendor", "vendored", "_vendor", "third_party", "thirdparty", "3rdparty", "extern",
    "external", "node_modules", "bower_components", "static", "assets", "_static",
})  # fmt: skip
SCRIPT_DIRS = frozenset({
    "scripts", "script", "extra", "extras", "tools", "tool", "bin", "dev", "ci", "utils",
    "util", "misc", "contrib", "benchmarks", "bench", "docs_src", "examples", "example",
})  # fmt: skip
ASSET_SUFFIXES = frozenset({".js", ".css", ".mjs", ".cjs", ".map", ".scss", ".less"})
MINIFIED_LINE = 500  # a line this long is not written by hand
_VERSIONED = re.compile(r"[-_.]v?\d+(?:\.\d+)+(?:[-_.][a-z]+)*\.(?:js|css|mjs|cjs)$", re.IGNORECASE)
_BANNER = re.compile(
    r"/\*!|@license|\bMIT License\b|Licensed under the (?:MIT|BSD|Apache)|\(c\) ?\d{4}",
    re.IGNORECASE,
)
# a bundled library's banner names its version (``jQuery v3.5.1``, ``Axios v1.7.9``); a
# project's own licence header (express's ``Copyright(c) 2014-2015 … MIT Licensed``) does not
_BANNER_VERSION = re.compile(r"\bv\d+\b|\bv?\d+\.\d+(?:\.\d+)*")
# ... not the licence's own version ("Apache License, Version 2.0", "GPL-3.0", "MPL 2.0")
_LICENCE_VERSION = re.compile(
    r"\blicen[cs]e,?\s+version\s+[\d.]+|\b(?:a|l)?gpl(?:v|-)?\s?[\d.]+|\b(?:mpl|epl|cddl)-?\s?[\d.]+",
    re.IGNORECASE,
)
_HEAD_COMMENT = re.compile(
    r"\A(?:#![^\n]*\n)?\s*(/\*.*?(?:\*/|\Z)|(?://[^\n]*(?:\n|\Z)\s*)+)", re.DOTALL
)
# the comments a script opens with (``/* … */`` and ``//`` lines, one after another)
_LEADING_COMMENTS = re.compile(r"\A(?:#![^\n]*\n)?(?:\s*(?:/\*.*?(?:\*/|\Z)|//[^\n]*))*", re.DOTALL)
_GENERATED = re.compile(
    r"\b(?:DO NOT EDIT|auto-?generated|generated by|this file is generated|@generated)\b",
    re.IGNORECASE,
)
# ... and what the comments a script opens with must say (a package's comment may well speak
# of what is "generated by" its code)
_GENERATED_FILE = re.compile(
    r"\b(?:DO NOT EDIT|this file (?:is|was) (?:auto-?)?generated|@generated)\b", re.IGNORECASE
)
_TESTPATHS = re.compile(
    r"^\s*testpaths\s*=\s*(\[[^\]]*\]|[^\n]*(?:\n[ \t]+[^\n]+)*)", re.MULTILINE | re.IGNORECASE
)
_CONFIG_FILES = ("pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini")


def is_banner(head: str) -> bool:
    """Whether ``head``, a script's first characters, opens with a bundled library's banner: a
    comment that carries a licence or copyright and a version."""
    comment = _HEAD_COMMENT.match(head)
    if comment is None:
        return False
    text = _LICENCE_VERSION.sub(" ", comment.group(1))
    return _BANNER.search(text) is not None and _BANNER_VERSION.search(text) is not None


def is_generated(head: str) -> bool:
    """Whether ``head``, a file's first characters, says the file is generated: in its first
    five lines, or in the comments a script opens with (marked's bundle says ``DO NOT EDIT
    THIS FILE`` in its second comment, on line 8)."""
    if _GENERATED.search("\n".join(head.splitlines()[:5])) is not None:
        return True
    leading = _LEADING_COMMENTS.match(head)
    return leading is not None and _GENERATED_FILE.search(leading.group(0)) is not None


@dataclass(frozen=True, slots=True)
class FileRoles:
    """Per file (in the order of ``paths``), 1.0 where the role holds."""

    vendored: list[float]
    test_tree: list[float]
    script: list[float]
    init: list[float]
    test_dirs: tuple[str, ...]  # what the repository's configuration names as test paths


def configured_test_dirs(chunks: Sequence[Chunk]) -> tuple[str, ...]:
    """The directories a root-level pytest configuration names in ``testpaths``."""
    found: dict[str, None] = {}
    for chunk in chunks:
        if chunk.path not in _CONFIG_FILES:
            continue
        for match in _TESTPATHS.finditer(chunk.text):
            for word in re.findall(r"[\w./-]+", match.group(1)):
                word = word.strip("./")
                if word and word not in {"true", "false"}:
                    found[word] = None
    return tuple(found)


def _head_of(chunks: Sequence[Chunk]) -> dict[str, str]:
    head: dict[str, str] = {}
    for chunk in chunks:
        if chunk.path not in head or chunk.start_line == 1:
            head.setdefault(chunk.path, chunk.text[:2000])
    return head


def roles(paths: Sequence[str], chunks: Sequence[Chunk]) -> FileRoles:
    """The roles of every file of an index (one pass over the files' first chunks)."""
    dirs = configured_test_dirs(chunks)
    head = _head_of(chunks)
    longest: dict[str, int] = {}
    assets = {p for p in paths if PurePosixPath(p).suffix.lower() in ASSET_SUFFIXES}
    for chunk in chunks:  # each file's suffix read once, not each chunk's (30,000 at 0.15 s)
        if chunk.path in assets and chunk.text:
            line = max(len(line) for line in chunk.text.splitlines() or [""])
            longest[chunk.path] = max(longest.get(chunk.path, 0), line)
    vendored, test_tree, script, init = [], [], [], []
    for path in paths:
        pure = PurePosixPath(path)
        lowered = [p.lower() for p in pure.parts]
        asset = pure.suffix.lower() in ASSET_SUFFIXES
        text = head.get(path, "")
        is_vendored = (
            any(d in VENDOR_DIRS for d in lowered[:-1])
            or (asset and (_VERSIONED.search(pure.name) is not None or ".min." in pure.name))
            or (asset and is_banner(text[:600]))
            or longest.get(path, 0) >= MINIFIED_LINE
            or is_generated(text)
        )
        vendored.append(float(is_vendored))
        test_tree.append(float(any(path == d or path.startswith(d + "/") for d in dirs)))
        script.append(float(len(lowered) > 1 and lowered[0] in SCRIPT_DIRS))
        init.append(float(pure.name == "__init__.py"))
    return FileRoles(vendored, test_tree, script, init, dirs)
