"""The language layer: structure for languages other than Python, from tree-sitter grammars
bundled in wheels (no download at run time). Python stays on ``ast``.

Each language is one module here with a ``SPEC`` (:class:`~codeagent.lang.spec.LanguageSpec`):
its file extensions and its tree-sitter queries for definitions, imports and calls. Adding a
language is one module and one name in :data:`MODULES`.

    spec = language_for("src/server.ts")      # None: not a language of the layer
    parsed = parse(spec, "src/server.ts", text)
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import re
from functools import cache
from typing import TYPE_CHECKING

from codeagent.lang.spec import SCOPE_KINDS, TYPE_KINDS, LanguageSpec

if TYPE_CHECKING:
    from codeagent.lang.extract import Parsed
else:
    Parsed = "codeagent.lang.extract.Parsed"

log = logging.getLogger(__name__)
# A `.h` file that declares a class, a namespace or a template is read as C++.
_CPP_HEADER = re.compile(r"^\s*(?:class\s+\w+\s*[:{]|namespace\s+\w+|template\s*<)", re.MULTILINE)
_broken: set[str] = set()  # languages whose grammar rejected their queries (logged once)

MODULES = ("go", "rust", "java", "javascript", "typescript", "c", "cpp", "csharp", "ruby", "php")

__all__ = [
    "MODULES",
    "SCOPE_KINDS",
    "TYPE_KINDS",
    "LanguageSpec",
    "available",
    "language_for",
    "language_name",
    "members_in_body",
    "parse_file",
    "specs",
]


@cache
def available() -> bool:
    """Whether the tree-sitter runtime is installed (without it every file keeps windows)."""
    return importlib.util.find_spec("tree_sitter") is not None


@cache
def specs() -> tuple[LanguageSpec, ...]:
    """Every language whose grammar package is installed."""
    out = []
    for name in MODULES:
        spec: LanguageSpec = importlib.import_module(f"codeagent.lang.{name}").SPEC
        if available() and importlib.util.find_spec(spec.package) is not None:
            out.append(spec)
    return tuple(out)


@cache
def members_in_body() -> frozenset[str]:
    """Names of the languages whose types declare their methods in their body only
    (:attr:`LanguageSpec.members_in_body`), grammar installed or not."""
    found = (importlib.import_module(f"codeagent.lang.{name}").SPEC for name in MODULES)
    return frozenset(spec.name for spec in found if spec.members_in_body)


@cache
def _by_suffix() -> dict[str, LanguageSpec]:
    return {ext: spec for spec in specs() for ext in spec.extensions}


def language_for(path: str) -> LanguageSpec | None:
    """The layer's language of ``path`` by its extension, or None."""
    from codeagent.lang.extract import suffix_of

    return _by_suffix().get(suffix_of(path))


# Names of common languages the layer does not structure (for the index report).
_OTHER = {
    ".py": "python", ".pyi": "python", ".pyw": "python", ".md": "markdown", ".rst": "rst",
    ".txt": "text", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
    ".html": "html", ".css": "css", ".scss": "scss", ".sh": "shell", ".bash": "shell",
    ".kt": "kotlin", ".swift": "swift", ".scala": "scala", ".lua": "lua", ".sql": "sql",
    ".xml": "xml", ".ini": "ini", ".cfg": "ini",
}  # fmt: skip


def language_name(path: str) -> str:
    """A language name for ``path`` (``other`` when its extension says nothing)."""
    from codeagent.lang.extract import suffix_of

    spec = language_for(path)
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
