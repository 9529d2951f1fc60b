"""The language layer: every language codeagent reads the structure of. Python is read by its
own ``ast`` (:mod:`codeagent.pysyntax`); the others by tree-sitter grammars bundled in wheels
(no download at run time).

Each language is one module here with a ``SPEC`` (:class:`~codeagent.lang.spec.LanguageSpec`):
its file extensions, who reads it (``structure``), its test files' names and, for tree-sitter,
its queries for definitions, imports and calls. Adding a language is one module and one name
in :data:`MODULES` (a dotted name for a module outside this package).

    spec = spec_for("src/app.py")             # any language, Python included; None: none
    spec = language_for("src/server.ts")      # a tree-sitter language only
    parsed = parse_file("src/server.ts", text)
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import re
from functools import cache
from typing import TYPE_CHECKING

from codeagent.lang.spec import (
    PYTHON_AST,
    SCOPE_KINDS,
    TREE_SITTER,
    TYPE_KINDS,
    LanguageSpec,
    suffix_of,
)

if TYPE_CHECKING:
    from codeagent.lang.extract import Parsed
else:
    Parsed = "codeagent.lang.extract.Parsed"

log = logging.getLogger(__name__)
# A `.h` file that declares a class, a namespace or a template is read as C++.
_CPP_HEADER = re.compile(r"^\s*(?:class\s+\w+\s*[:{]|namespace\s+\w+|template\s*<)", re.MULTILINE)
_broken: set[str] = set()  # languages whose grammar rejected their queries (logged once)

MODULES = (
    "python", "go", "rust", "java", "javascript", "typescript", "c", "cpp", "csharp", "ruby",
    "php",
)  # fmt: skip

__all__ = [
    "MODULES",
    "PYTHON_AST",
    "SCOPE_KINDS",
    "TREE_SITTER",
    "TYPE_KINDS",
    "LanguageSpec",
    "all_specs",
    "available",
    "language_for",
    "language_name",
    "languages_where",
    "members_in_body",
    "parse_file",
    "spec_for",
    "specs",
    "suffixes_read_by",
]


@cache
def available() -> bool:
    """Whether the tree-sitter runtime is installed (without it every file keeps windows)."""
    return importlib.util.find_spec("tree_sitter") is not None


# Every table below is cached on the specs it is made from: a language added to MODULES
# (a plug-in, a test's toy language) is in them from the next call.
def all_specs() -> tuple[LanguageSpec, ...]:
    """Every language of :data:`MODULES`, its reader installed or not."""
    return _load(MODULES)


def specs() -> tuple[LanguageSpec, ...]:
    """Every language whose reader is installed (a tree-sitter one: its grammar package)."""
    return _installed(all_specs())


def members_in_body() -> frozenset[str]:
    """Names of the languages whose types declare their methods in their body only
    (:attr:`LanguageSpec.members_in_body`), grammar installed or not."""
    return languages_where("members_in_body")


def languages_where(field: str) -> frozenset[str]:
    """Names of the languages whose spec sets ``field`` (a flag or a reader of
    :class:`LanguageSpec`: ``members_in_folder``, ``receivers``, ...), grammar installed or
    not: what the code asks of a language, never its name."""
    return _where(all_specs(), field)


def suffixes_read_by(structure: str) -> tuple[str, ...]:
    """The extensions of the installed languages whose structure ``structure`` reads
    (:data:`PYTHON_AST`: ``.py``, ``.pyi``, ``.pyw``)."""
    return _read_by(specs(), structure)


def spec_for(path: str) -> LanguageSpec | None:
    """The language of ``path`` by its extension (Python included), or None."""
    return _by_suffix(specs()).get(suffix_of(path))


def language_for(path: str) -> LanguageSpec | None:
    """The tree-sitter language of ``path`` by its extension, or None (Python has its own
    reader: :func:`spec_for`)."""
    spec = spec_for(path)
    return spec if spec is not None and spec.structure == TREE_SITTER else None


@cache
def _load(modules: tuple[str, ...]) -> tuple[LanguageSpec, ...]:
    names = (name if "." in name else f"codeagent.lang.{name}" for name in modules)
    return tuple(importlib.import_module(name).SPEC for name in names)


@cache
def _installed(found: tuple[LanguageSpec, ...]) -> tuple[LanguageSpec, ...]:
    return tuple(
        spec
        for spec in found
        if spec.structure != TREE_SITTER
        or (available() and importlib.util.find_spec(spec.package) is not None)
    )


@cache
def _where(found: tuple[LanguageSpec, ...], field: str) -> frozenset[str]:
    return frozenset(spec.name for spec in found if getattr(spec, field))


@cache
def _by_suffix(found: tuple[LanguageSpec, ...]) -> dict[str, LanguageSpec]:
    return {ext: spec for spec in found for ext in spec.extensions}


@cache
def _read_by(found: tuple[LanguageSpec, ...], structure: str) -> tuple[str, ...]:
    return tuple(ext for spec in found if spec.structure == structure for ext in spec.extensions)


# Names of common languages the layer does not structure (for the index report).
_OTHER = {
    ".md": "markdown", ".rst": "rst",
    ".txt": "text", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
    ".html": "html", ".css": "css", ".scss": "scss", ".sh": "shell", ".bash": "shell",
    ".kt": "kotlin", ".swift": "swift", ".scala": "scala", ".lua": "lua", ".sql": "sql",
    ".xml": "xml", ".ini": "ini", ".cfg": "ini",
}  # fmt: skip


def language_name(path: str) -> str:
    """A language name for ``path`` (``other`` when its extension says nothing)."""
    spec = spec_for(path)
    if spec is not None:
        return spec.name
    return _OTHER.get(suffix_of(path), "other")


def parse_file(path: str, text: str) -> Parsed | None:
    """The symbols of ``path`` when the layer knows its language (None otherwise); a file the
    grammar cannot read has ``errors`` > 0 (never an exception)."""
    spec = language_for(path)
    if spec is None:
        return None
    from codeagent.lang.extract import Parsed, parse

    if spec.name == "c" and path.endswith(".h") and _CPP_HEADER.search(text):
        spec = next((s for s in specs() if s.name == "cpp"), spec)  # a C++ header

    if "\r" in text:  # the line breaks the chunker counts
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        return parse(spec, path, text)
    except (ValueError, RecursionError, MemoryError, UnicodeError) as exc:
        log.info("%s does not parse as %s: %s", path, spec.name, exc)
        return Parsed(spec.name, [], [], [], 1)
    except Exception as exc:  # a grammar whose node names no longer fit the queries
        if spec.name not in _broken:
            _broken.add(spec.name)
            log.warning(
                "the %s grammar does not fit its queries (%s): line windows", spec.name, exc
            )
        return None
