"""Which repository files an import of another language than Python loads: the other side of
"what does src/server.ts import?", so that "which files import src/context.ts?" has an answer.

Each language writes imports its own way; the rules here are the usual layouts, read from the
paths of the repository only (no compiler, no configuration file):

- JavaScript/TypeScript: a relative specifier (``./request``, ``../utils/y.js``) is the file
  with that path and one of the usual extensions, a ``.js`` written for a ``.ts`` file, or the
  folder's ``index`` file (``.d.ts`` declarations last); a module augmentation (``declare
  module '../..'``) names one too; a package name or a path alias loads nothing of the repository.
- Java: ``import a.b.C`` is the file ``a/b/C.java`` under any source root; ``import a.b.*``
  every file of the folder ``a/b``; ``import static a.b.C.m`` the file of ``a.b.C``.
- C, C++: ``#include "x/y.h"`` is the file next to the including one, else every file whose
  path ends with ``x/y.h`` (an include folder).
- Go: an import path loads the files of the folder it ends with (``github.com/o/r/sub`` is
  ``sub/``; the module's root package is not told apart from an outside one).
- Rust: ``use crate::a::b::Item`` is ``a/b.rs``, ``a/b/mod.rs``, ``a.rs`` or ``a/mod.rs`` of
  the importing crate's source folder, the longest that exists.
- Ruby: ``require_relative 'x'`` (and ``require 'x'``) is ``x.rb`` next to the requiring
  file, else under ``lib/``.
- PHP: ``use App\\Models\\User`` is a file ending with ``Models/User.php`` (the longest
  ending that names a file; the namespace's root folder is not known).
- C#: ``using App.Models`` is every file that declares something in the namespace.

    targets("web/a.ts", "typescript", "./request", None, layout)   # ["web/request.ts"]
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeagent.symbols.types import Import

# The languages whose imports may load each other's files.
FAMILY = {"javascript": "js", "typescript": "js", "c": "c", "cpp": "c"}

_JS_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_JS_WRITTEN_FOR_TS = {".js": (".ts", ".tsx"), ".mjs": (".mts",), ".cjs": (".cts",),
                      ".jsx": (".tsx",)}  # fmt: skip


def family(language: str) -> str:
    """Languages whose files import one another share a family (C and C++; JS and TS)."""
    return FAMILY.get(language, language)


class Layout:
    """The paths of the repository's files of the language layer, with the lookups the rules
    need: by exact path, by folder, by path ending, and C#'s namespaces."""

    def __init__(self, paths: Iterable[str], namespaces: dict[str, set[str]] | None = None):
        self.paths = frozenset(paths)
        self.namespaces = namespaces or {}

    @cached_property
    def by_folder(self) -> dict[str, list[str]]:
        return self._grouped(posixpath.dirname)

    @cached_property
    def by_name(self) -> dict[str, list[str]]:
        return self._grouped(posixpath.basename)

    def _grouped(self, key: Callable[[str], str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.paths):
            out[key(path)].append(path)
        return out

    def ending_with(self, tail: str) -> list[str]:
        """Files whose path is ``tail`` or ends with ``/tail``."""
        return [
            p
            for p in self.by_name.get(posixpath.basename(tail), [])
            if p == tail or p.endswith("/" + tail)
        ]

    def folders_ending_with(self, tail: str) -> list[str]:
        return [f for f in self.by_folder if f and (f == tail or f.endswith("/" + tail))]


def importers_index(
    files: dict[str, dict[str, Any]], imports: dict[str, list[Import]]
) -> dict[str, list[Import]]:
    """A file of the language layer -> the imports of other files that load it, within its
    language family; ``files`` are the symbol graph's records, ``imports`` its imports by file."""
    by_family: dict[str, list[str]] = defaultdict(list)
    namespaces: dict[str, set[str]] = defaultdict(set)
    for path, rec in files.items():
        language = rec.get("l")
        if language:
            by_family[family(language)].append(path)
        if language == "csharp":
            for row in rec["d"]:
                if row[1] == "namespace":
                    namespaces[row[0]].add(path)
    layouts = {name: Layout(paths, namespaces) for name, paths in by_family.items()}
    index: dict[str, list[Import]] = defaultdict(list)
    for path, found in imports.items():
        language = files[path].get("l")
        if not language:
            continue
        layout = layouts[family(language)]
        for imp in found:
            for target in targets(path, language, imp.module, imp.name, layout):
                index[target].append(imp)
    return index


def targets(
    importer: str, language: str, module: str, name: str | None, layout: Layout
) -> list[str]:
    """The files of the repository that the import ``module`` (``name``: what it imports from
    it, where the language says) of the file ``importer`` loads; empty when none does."""
    rule = _RULES.get(language)
    found = rule(importer, module, name, layout) if rule is not None else []
    return [p for p in found if p != importer]


def _js(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    if not module.startswith("."):
        return []  # a package (or a path alias): nothing of the repository's own
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
    stem, ext = posixpath.splitext(base)
    candidates = [base, *(stem + e for e in _JS_WRITTEN_FOR_TS.get(ext, ()))]
    candidates += [base + e for e in (*_JS_EXTENSIONS, ".d.ts")]
    if ext in _JS_WRITTEN_FOR_TS:  # "./types.js" for types.d.ts
        candidates.append(stem + ".d.ts")
    folder = "" if base == "." else base + "/"  # "../.." from two folders down: the root's
    candidates += [f"{folder}index{e}" for e in (*_JS_EXTENSIONS, ".d.ts")]
    return next(([c] for c in candidates if c in layout.paths), [])


def _java(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    if name is None:  # import a.b.*: the package
        folder = module.replace(".", "/")
        return [p for f in layout.folders_ending_with(folder) for p in layout.by_folder[f]]
    found = layout.ending_with(f"{module}.{name}".replace(".", "/") + ".java")
    return found or layout.ending_with(module.replace(".", "/") + ".java")  # a static import


def _c(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    near = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
    if near in layout.paths:
        return [near]
    return layout.ending_with(posixpath.normpath(module).lstrip("./"))


def _go(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    if "/" not in module:
        return []  # the standard library
    folders = [f for f in layout.by_folder if f and (module == f or module.endswith("/" + f))]
    if not folders:
        return []
    folder = max(folders, key=len)  # github.com/o/r/a/sub: a/sub before sub
    return list(layout.by_folder[folder])


def _rust(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    parts = module.split("::")
    if parts[0] != "crate":
        return []
    head, marker, _ = importer.rpartition("src/")
    root = head + marker if marker else posixpath.dirname(importer) + "/"
    parts = parts[1:]
    for k in range(len(parts), 0, -1):
        stem = root + "/".join(parts[:k])
        for candidate in (stem + ".rs", stem + "/mod.rs"):
            if candidate in layout.paths:
                return [candidate]
    return []


def _ruby(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    file = module if module.endswith(".rb") else module + ".rb"
    for candidate in (posixpath.normpath(posixpath.join(posixpath.dirname(importer), file)),
                      "lib/" + file):  # fmt: skip
        if candidate in layout.paths:
            return [candidate]
    return []


def _php(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    parts = [p for p in module.replace("\\", "/").split("/") if p]
    for start in range(len(parts) - 1):
        found = layout.ending_with("/".join(parts[start:]) + ".php")
        if found:
            return found
    return []


def _csharp(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    return sorted(layout.namespaces.get(module, ()))


_RULES = {
    "javascript": _js,
    "typescript": _js,
    "java": _java,
    "c": _c,
    "cpp": _c,
    "go": _go,
    "rust": _rust,
    "ruby": _ruby,
    "php": _php,
    "csharp": _csharp,
}
