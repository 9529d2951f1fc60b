"""The definitions of the languages whose imports name namespaces (C#: ``using A.B``), indexed
for :mod:`codeagent.symbols.csharp_targets`: each namespace's types, the types nested in
another, the extension methods, and the ``global using`` namespaces of every file."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from codeagent.lang import languages_where
from codeagent.lang.spec import TYPE_KINDS
from codeagent.symbols.file_imports import import_scope
from codeagent.symbols.types import Definition

# a method whose first parameter is ``this`` (C#'s extension method): ``F<T>(this T x``
_EXTENSION = re.compile(r"\w\s*(?:<[^()]*>)?\s*\(\s*this\s")


class Namespaces:
    """``types``: (language, namespace, name) -> the types of that name declared directly in
    the namespace ("": the global one), in path order; ``nested``: (language, outer type's
    qualified name, name) -> the types declared in that type, in any file (``partial``);
    ``extensions``: (language, name) -> the methods of that name whose first parameter is
    ``this``; ``names``: (language, name) of every type; ``global_usings``: language -> the
    namespaces a ``global using`` of any file
    names (a record's ``b`` rows ``["", "using", "A.B"]``: :mod:`codeagent.lang.csharp_calls`)."""

    def __init__(self, files: dict[str, dict[str, Any]], defs: list[Definition]) -> None:
        self.types: dict[tuple[str, str, str], list[Definition]] = defaultdict(list)
        self.nested: dict[tuple[str, str, str], list[Definition]] = defaultdict(list)
        self.extensions: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        self.global_usings: dict[str, list[str]] = defaultdict(list)
        self.names: set[tuple[str, str]] = set()  # (language, name) of every type
        scoped = {n: s for n in languages_where("import_scope") if (s := import_scope(n))}
        declared: dict[str, set[str]] = {}  # path -> the namespaces it declares
        for d in defs:
            language = files[d.path].get("l")
            if language not in scoped:
                continue
            if d.kind == "class" or d.kind in TYPE_KINDS:
                spaces = declared.get(d.path)
                if spaces is None:
                    rows = files[d.path]["d"]
                    spaces = declared[d.path] = {r[0] for r in rows if r[1] == scoped[language]}
                outer = d.qualname.rpartition(".")[0]
                index = self.types if not outer or outer in spaces else self.nested
                index[(language, outer, d.name)].append(d)
                self.names.add((language, d.name))
            elif d.kind == "method" and _EXTENSION.search(d.signature):
                self.extensions[(language, d.name)].append(d)
        for rec in files.values():
            if rec.get("l") in scoped:
                usings = self.global_usings[rec["l"]]
                for owner, field, module in rec.get("b", ()):
                    if not owner and field == "using" and module not in usings:
                        usings.append(module)
