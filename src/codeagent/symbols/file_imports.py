"""Which repository files an import of a language of the layer loads: the other side of "what
does src/server.ts import?", so that "which files import src/context.ts?" has an answer.

Each language writes imports its own way, and each language's spec holds its rule
(``LanguageSpec.import_files``: Go's import paths, Java's class path, Rust's crate paths, ...),
read from the paths of the repository only (no compiler, no configuration file). Python's
imports are the symbol graph's own, by module name.

    targets("web/a.ts", "typescript", "./request", None, layout)   # ["web/request.ts"]
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import TYPE_CHECKING, Any

from codeagent import lang
from codeagent.lang.layout import Layout

if TYPE_CHECKING:
    from codeagent.symbols.types import Import


def family(language: str) -> str:
    """Languages whose files import one another share a family (C and C++; JS and TS)."""
    spec = _named(lang.all_specs()).get(language)
    return spec.family or language if spec is not None else language


@cache
def _named(specs: tuple[lang.LanguageSpec, ...]) -> dict[str, lang.LanguageSpec]:
    return {spec.name: spec for spec in specs}


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
        scope = import_scope(language) if language else ""
        if scope:
            for row in rec["d"]:
                if row[1] == scope:
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
    spec = _named(lang.all_specs()).get(language)
    rule = spec.import_files if spec is not None else None
    found = rule(importer, module, name, layout) if rule is not None else []
    return [p for p in found if p != importer]


def import_scope(language: str) -> str:
    """The definition kind that groups files for the language's imports ("": none)."""
    spec = _named(lang.all_specs()).get(language)
    return spec.import_scope if spec is not None else ""
