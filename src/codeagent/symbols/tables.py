"""The symbol graph's lookup tables (built on first use from the saved records) and name
resolution through the repository's own imports (see :mod:`codeagent.symbols.graph`)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from functools import cached_property
from typing import Any

from codeagent.lang import languages_where
from codeagent.lang.layout import Layout
from codeagent.lang.spec import TYPE_KINDS
from codeagent.symbols.file_imports import family, importers_index
from codeagent.symbols.import_keys import import_keys
from codeagent.symbols.namespaces import Namespaces
from codeagent.symbols.ruby_types import RubyTypes
from codeagent.symbols.types import Definition, Import, unpack_calls

MAX_HOPS = 8  # re-export chains followed when resolving a dotted name
# Kinds that have methods and bases: Python's class, the other languages' types.
CLASS_KINDS = frozenset({"class"}) | TYPE_KINDS
METHOD_KINDS = frozenset({"method", "constructor"})
CALL_FIELDS = 4  # numbers per call site in SymbolTables.calls
_NO_CALLS: list[list[Any]] = [[], []]


class SymbolTables:
    """``files`` maps a path to its extracted record; the tables index it."""

    def __init__(self, files: dict[str, dict[str, Any]]) -> None:
        self.files = files  # each record keeps its own call sites ``c`` (types.pack_calls)
        self._by_file: dict[str, tuple[list[int], list[str]]] = {}
        self.modules: dict[str, str] = {rec["m"]: path for path, rec in sorted(files.items())}

    # -- indexes (built on first use) --------------------------------------------------------

    @cached_property
    def paths(self) -> list[str]:
        """The files with symbols, sorted: the numbering :attr:`calls` refers to."""
        return sorted(self.files)

    @cached_property
    def calls(self) -> dict[str, list[int]]:
        """Call sites by called name, flat, :data:`CALL_FIELDS` numbers a site: [path index,
        line, scope index in "d" (-1), site number in the file's record, ...]."""
        grouped: dict[str, list[int]] = {}
        for index, path in enumerate(self.paths):
            packed = self.files[path].get("c", _NO_CALLS)
            for site, (line, name, scope) in enumerate(unpack_calls(packed)):
                grouped.setdefault(name, []).extend((index, line, scope, site))
        return grouped

    @cached_property
    def top_names(self) -> frozenset[str]:
        """The first folder (or module stem) of every file, and under ``src/``: the names an
        import of the repository's own code starts with, packages or not."""
        names = set()
        for path in self.files:
            parts = path.removeprefix("src/").split("/")
            names.add(parts[0].removesuffix(".py"))
        return frozenset(names)

    @cached_property
    def target_cache(self) -> dict[tuple[str, str], tuple[str, bool] | None]:
        """(path, target as written there) -> its resolution (codeagent.symbols.call_targets)."""
        return {}

    @cached_property
    def php_types(self) -> dict[str, list[Definition]]:
        """PHP's classes, interfaces, traits and enums by whole name, lowercase, in path order
        (:mod:`codeagent.symbols.php_classes`): a namespace block's by its qualified name
        (``namespace A { .. }``), one after ``namespace A;`` by the last such line above it."""
        php = languages_where("qualified_types")
        spaces: dict[str, list[tuple[int, str]]] = defaultdict(list)  # path -> namespace A;
        for d in self._defs:
            if d.kind == "namespace" and self.files[d.path].get("l") in php:
                spaces[d.path].append((d.line, d.qualname))
        index: dict[str, list[Definition]] = defaultdict(list)
        for d in self._defs:
            if d.kind in CLASS_KINDS and self.files[d.path].get("l") in php:
                outer = d.qualname.rpartition(".")[0]
                if not outer:
                    above = [name for line, name in spaces.get(d.path, ()) if line <= d.line]
                    outer = above[-1] if above else ""
                index[f"{outer}\\{d.name}".lower() if outer else d.name.lower()].append(d)
        return dict(index)

    @cached_property
    def ruby_types(self) -> RubyTypes:
        """Ruby's classes and modules by name, with their methods and mixins
        (:mod:`codeagent.symbols.ruby_types`)."""
        return RubyTypes(self.files, self._defs, languages_where("lexical_constants"))

    @cached_property
    def js_layout(self) -> Layout:
        """The files of the family of the languages whose call targets are followed
        (``LanguageSpec.receivers``: JavaScript and TypeScript), for their import specifiers
        (file_imports)."""
        own = languages_where("declared_types") | languages_where("members_in_folder")
        followed = {family(language) for language in languages_where("receivers") - own}
        return Layout(p for p, rec in self.files.items() if family(rec.get("l", "")) in followed)

    @cached_property
    def java_layout(self) -> Layout:
        """The files of the languages whose call targets name declared types
        (``LanguageSpec.declared_types``: Java), for their class path
        (:mod:`codeagent.symbols.java_targets`)."""
        return self._layout_where("declared_types")

    @cached_property
    def go_layout(self) -> Layout:
        """The files of the languages whose packages are folders
        (``LanguageSpec.members_in_folder``: Go), for their import paths
        (:mod:`codeagent.symbols.go_targets`)."""
        return self._layout_where("members_in_folder")

    def _layout_where(self, field: str) -> Layout:
        """The files of the languages whose spec sets ``field``."""
        languages = languages_where(field)
        return Layout(p for p, rec in self.files.items() if rec.get("l") in languages)

    @cached_property
    def package_index(self) -> dict[tuple[str, str], Definition]:
        """(folder, name) -> the top-level function or type of that name in the folder, for
        the languages whose packages are folders (Go), the first in path order."""
        folders = languages_where("members_in_folder")
        index: dict[tuple[str, str], Definition] = {}
        for d in self._defs:
            if "." not in d.qualname and self.files[d.path].get("l") in folders:
                index.setdefault((d.path.rpartition("/")[0], d.name), d)
        return index

    @cached_property
    def namespaces(self) -> Namespaces:
        """The types of the languages whose imports name namespaces (C#), by namespace."""
        return Namespaces(self.files, self._defs)

    @cached_property
    def package_level(self) -> dict[tuple[str, str], tuple[str, str]]:
        """(folder, name) -> (the file, its type or value as written) of each package-level
        variable, and (folder, "") -> ("", the package's name), for the languages whose
        packages are folders (Go: the record's ``b`` rows whose owner is "")."""
        folders = languages_where("members_in_folder")
        index: dict[tuple[str, str], tuple[str, str]] = {}
        for path, rec in self.files.items():
            if rec.get("l") in folders:
                folder = path.rpartition("/")[0]
                for owner, name, written in rec.get("b", ()):
                    if not owner and (name or not written.endswith("_test")):  # not a test's
                        index.setdefault((folder, name), ("" if not name else path, written))
        return index

    def _calls_by_line(self, path: str) -> tuple[list[int], list[str]]:
        """One file's call sites as two lists, by line: the lines, the called names."""
        found = self._by_file.get(path)
        if found is None:
            packed = self.files.get(path, {}).get("c", _NO_CALLS)
            calls = sorted((line, name) for line, name, _scope in unpack_calls(packed))
            found = self._by_file[path] = ([n for n, _ in calls], [name for _, name in calls])
        return found

    def used_names(self, path: str, start: int, end: int) -> set[str]:
        """The names called on lines ``start``..``end`` of ``path``, and the bases (last
        component) of the classes defined there: what that code builds on."""
        lines, called = self._calls_by_line(path)
        names = set(called[bisect_left(lines, start) : bisect_right(lines, end)])
        for row in self.files.get(path, {}).get("d", ()):
            if start <= row[2] <= end:
                names.update(base.rsplit(".", 1)[-1] for base in row[7] or ())
        return names

    @cached_property
    def _defs(self) -> list[Definition]:
        out: list[Definition] = []
        for path, rec in self.files.items():
            module = rec["m"]
            short = path.rpartition("/")[2] if "l" in rec else module.rsplit(".", 1)[-1]
            out.append(Definition(module, short, "module", path, 1, 1, module=module, line=1))
            for q, kind, line, start, end, sig, doc, bases in rec["d"]:
                name = q.rsplit(".", 1)[-1]
                out.append(
                    Definition(q, name, kind, path, start, end, sig, doc, (*bases,), module, line)
                )
        return out

    @cached_property
    def _by_name(self) -> dict[str, list[Definition]]:
        index: dict[str, list[Definition]] = defaultdict(list)
        for d in self._defs:
            index[d.name].append(d)
        return index

    @cached_property
    def _by_full(self) -> dict[str, Definition]:
        index: dict[str, Definition] = {}
        for d in self._defs:
            index.setdefault(d.full_name, d)
        return index

    @cached_property
    def _imports(self) -> dict[str, list[Import]]:
        return {
            path: [Import(path, line, mod, name, alias) for line, mod, name, alias in rec["i"]]
            for path, rec in self.files.items()
        }

    @cached_property
    def _file_importers(self) -> dict[str, list[Import]]:
        """A file of another language than Python -> the imports of other files that load it
        (:mod:`codeagent.symbols.file_imports`)."""
        return importers_index(self.files, self._imports)

    # -- resolution ----------------------------------------------------------------------------

    def resolve(self, dotted: str, hops: int = 0) -> str | None:
        """The full name of the repository definition or module ``dotted`` refers to, following
        the repository's imports (re-exports); None when it is not in the repository."""
        if dotted in self._by_full:
            return dotted
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module not in self.modules:
                continue
            head, rest = parts[cut], parts[cut + 1 :]
            if hops >= MAX_HOPS:
                return None
            imports = self._imports[self.modules[module]]
            for imp in imports:
                if imp.bound == head and imp.name != "*":
                    return self.resolve(".".join([imp.target, *rest]), hops + 1)
            for imp in reversed(imports):  # the last star import binding the name wins
                if imp.name == "*" and self._star_exports(imp.module, head):
                    found = self.resolve(".".join([imp.module, head, *rest]), hops + 1)
                    if found is not None:
                        return found
            return None
        return None

    def _star_exports(self, module: str, name: str) -> bool:
        """Whether ``from module import *`` binds ``name``: listed in the module's literal
        ``__all__``, or, without one, a public name (resolution then checks it is there)."""
        path = self.modules.get(module)
        if path is None:
            return False
        exported = self.files[path].get("a")
        return name in exported if exported is not None else not name.startswith("_")

    def modules_named(self, name: str) -> list[str]:
        """Modules called ``name``: a dotted name, its last components, or a file path."""
        name = name.strip().removesuffix(".py")
        if name in self.modules:
            return [name]
        dotted_name = name.replace("/", ".")
        return sorted(
            m
            for m, path in self.modules.items()
            if m.endswith("." + dotted_name) or path.removesuffix(".py") == name
        )

    @cached_property
    def _imports_under(self) -> dict[str, list[Import]]:
        """Every dotted prefix of an import's module and target -> the imports (a Rust
        ``use`` tree's paths and a Go import path's too: :mod:`codeagent.symbols.import_keys`)."""
        index: dict[str, list[Import]] = defaultdict(list)
        for imports in self._imports.values():
            for imp in imports:
                for key in import_keys(imp.module, imp.target):
                    index[key].append(imp)
        return index

    @cached_property
    def _imports_naming(self) -> dict[str, list[Import]]:
        """``from m import name`` imports by the imported name."""
        index: dict[str, list[Import]] = defaultdict(list)
        for imports in self._imports.values():
            for imp in imports:
                if imp.name not in (None, "*"):
                    index[imp.name].append(imp)
        return index

    def warm(self) -> None:
        """Build every lookup table now (a server does this once after loading)."""
        for table in ("_defs", "_by_name", "_by_full", "_imports", "_children",
                      "_imports_under", "_imports_naming", "calls"):  # fmt: skip
            getattr(self, table)
