"""The repository symbol graph: definitions, imports, class bases and call sites of every
Python file, built at index time from the chunker's ``ast`` trees and saved as ``symbols.json``.

    graph.definitions("Session.request")      # by name, Class.method or dotted path
    graph.subclasses("Handler", transitive=True)
    graph.callers("send")                     # by name: see below

Names resolve through the repository's own imports: ``from .models import Request`` in
``requests/__init__.py`` makes ``requests.Request`` the class in ``requests/models.py``, as
``from ._auth import *`` does when ``_auth`` lists ``Auth`` in its ``__all__`` (or has none
and ``Auth`` is public), and a
class base written ``logging.Handler`` or ``Mixin`` (imported) resolves to the defining class
when it is in the repository (else it stays as written, e.g. ``Exception``).

Call sites are grouped by the called name (``self.send()``, ``obj.send()``, ``mod.send()`` and
``super().send()`` are all calls of ``send``; an imported alias is undone: ``from m import f as
g; g()`` is a call of ``f``; a name passed around without being called is not a call site),
and each Python one is **resolved by its receiver** where the code says what it is
(:mod:`codeagent.symbols.receivers` in the file, :mod:`codeagent.symbols.call_targets` across
files): ``self.send()`` in ``Client`` or a subclass, ``c.send()`` after ``c = Client()`` or
with ``c: Client``, ``super().send()``, ``mod.send()``, an imported ``send()``. The rest stay
"by name" (``CallSite.target`` empty). Files that do not parse have no symbols.

Files of the languages of :mod:`codeagent.lang` (tree-sitter) have records of the same shape
with ``"l"`` (the language) and their path as module name; their kinds are the language's own
(``struct``, ``trait``, ``impl``, ``interface``, ...: :data:`CLASS_KINDS`), their bases
resolve by name among the types of the same language, a type's methods are found across
files (Go methods by receiver in the type's package, Rust ``impl`` blocks anywhere, C++
``Type::method``), and a Go type implements an interface when it has all its methods.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from codeagent.pysyntax import Structure
from codeagent.symbols.assigned import assigned_to
from codeagent.symbols.call_targets import target_of
from codeagent.symbols.extract import extract, module_names
from codeagent.symbols.hierarchy import SymbolHierarchy
from codeagent.symbols.tables import CALL_FIELDS, CLASS_KINDS
from codeagent.symbols.types import CallSite, Definition, Import, call_target

__all__ = ["SymbolGraph"]

SYMBOLS = "symbols.json"
DEEP_RECURSION = 20_000  # for files whose expressions nest deeper than the default allows
# 2: call sites grouped by name; 3: a module's literal __all__ ("a"); 4: other languages ("l");
# 5: call sites kept in each file's record (grouped by name at first use), one record per file;
# 6: each Python call site's target as the file names it (symbols.receivers); 7: TypeScript's
# and JavaScript's too (lang.ts_calls), with their import bindings ("b") and exports ("e");
# 8: "e" names exported declarations (``export function f``), a class field whose value is a
# function is a method; 9: ``with T() as self.x`` binds the attribute (it was left unbound)
# 10: Java's call targets too (lang.java_calls), with its classes' typed fields ("b")
# 11: Rust's call targets too (lang.rust_calls), with its structs' typed fields ("b")
# 12: C's and C++'s call targets too (lang.c_calls, lang.cpp_calls), C++'s classes' fields
# 13: the call sites of a file that starts with blank lines read where they are written
# 14: C++: fields read on (x->y.f()), auto, typedefs, tests' fixtures, A::B::f, arguments (#N)
# 15: a definition starts at its attributes, decorators and wrappers (export, template <..>);
# 16: a tree-sitter definition's signature leaves its comments out
# 17: Python: a parameter pytest fills is the fixture's value ("@name"), fixtures' values ("x");
# 18: Python: a folder without __init__.py inside a package is a namespace package of it
# 19: Python: a name bound more than one way is read where the scope's statements say (flow);
# a test class's own fixtures ("@Class:name", recorded as "Class:name")
# 20: every base the matches capture (Go's embedded interfaces, structs, qualified types)
# 21: C#'s call targets too (lang.csharp_calls), with its fields' and properties' types ("b");
# 22: a C# file that does not parse whole is read with each #if's first branch (its chunks too);
# 23: a C# file-scoped namespace holds what follows it; C#'s global usings ("b")
# 24: C++'s xs[i].f(); C/C++ macros before a comment or an attribute blanked (definitions)
# 25: C++ namespace macros (a source file's written out, any file's recorded, "b" ['#', '', ns]);
#     T x(f(a)); is a variable; C/C++ conditional groups the grammar cannot read: first branch;
#     a::b::f() and ::f() are call sites (they were none)
# 26: C/C++: the words the grammar cannot place alone (FAR, ZEXPORT) blanked as macros; no
#     definition named for a statement (``else if (x) {`` after an ``#endif`` read as one)
# 27: Ruby: a class head's comments are its first method's; 28: PHP's call targets (php_calls)
FORMAT = 28
log = logging.getLogger(__name__)


def _extract_deep(
    tree: Any, module: str, is_package: bool, found: Structure | None = None
) -> dict[str, Any]:
    """:func:`extract` with a higher recursion limit; a file still too deep has no symbols."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, DEEP_RECURSION))
    try:
        return extract(tree, module, is_package, found)
    except RecursionError:
        log.info("%s is nested too deeply to read its symbols", module)
        return {"d": [], "i": [], "c": []}
    finally:
        sys.setrecursionlimit(limit)


def _extract_safe(
    tree: Any, module: str, path: str, found: Structure | None = None
) -> dict[str, Any]:
    is_package = path.endswith("/__init__.py") or path == "__init__.py"
    try:
        return extract(tree, module, is_package, found)
    except RecursionError:  # a pathologically nested expression: retry deeper
        return _extract_deep(tree, module, is_package, found)


def extract_record(
    tree: Any, path: str, root: Path, found: Structure | None = None
) -> dict[str, Any]:
    """One parsed file's record (with its call sites ``c``), as :meth:`SymbolGraph.build`
    takes it in ``reused``: a file's module name depends only on its own path and the
    ``__init__.py`` files of its directories, so the tree need not be kept for the graph."""
    return record_for(tree, path, module_names([path], root)[path], found)


def record_for(tree: Any, path: str, module: str, found: Structure | None = None) -> dict[str, Any]:
    """The record of the file at ``path``, parsed as ``tree``, whose module is ``module``."""
    return {"m": module, **_extract_safe(tree, module, path, found)}


def dumps(data: Any) -> str:
    """JSON as symbols.json holds it (compact, UTF-8 as is): a file's record is
    ``dumps({path: record})[1:-1]`` there (:mod:`codeagent.store.fragments`)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class SymbolGraph(SymbolHierarchy):
    """The symbols of a repository: built from ``ast`` trees, saved, loaded and queried."""

    # -- building and storing ----------------------------------------------------------------

    @classmethod
    def build(
        cls,
        trees: dict[str, Any],
        root: Path | None = None,
        reused: dict[str, dict[str, Any]] | None = None,
    ) -> SymbolGraph:
        """The graph of ``{path: ast.Module}`` (every parsed Python file of the repository).

        With ``root``, a directory also counts as a package when its ``__init__.py`` exists
        but was not indexed (empty files are not), and a root that is itself a package
        (``email/``) names the modules (``email.utils``). ``reused`` holds, for parsed files
        not in ``trees``, the record an earlier build extracted (with its call sites ``c``),
        valid only when its module name ``m`` is still what :func:`module_names` gives.
        """
        reused = reused or {}
        paths = sorted({*trees, *reused})
        python = [p for p in paths if p in trees or "l" not in reused[p]]
        modules = module_names(python, root)
        files: dict[str, dict[str, Any]] = {}
        for path in paths:
            module = modules.get(path, path)
            if path in trees:
                files[path] = record_for(trees[path], path, module)
            elif "l" in reused[path] or reused[path].get("m") == module:
                files[path] = dict(reused[path])
            else:
                raise ValueError(f"{path}: reused symbols are for module {reused[path].get('m')}")
        return cls(files)

    def records(self) -> dict[str, dict[str, Any]]:
        """Each file's record with its own call sites ``c`` (what :meth:`build` takes as
        ``reused``)."""
        return {path: dict(rec) for path, rec in self.files.items()}

    def save(self, directory: Path) -> None:
        (directory / SYMBOLS).write_text(dumps({"format": FORMAT, "files": self.files}), "utf-8")

    @classmethod
    def load(cls, directory: Path) -> SymbolGraph:
        """The saved graph (an empty one when the entry has none); ValueError if unreadable."""
        path = directory / SYMBOLS
        if not path.is_file():
            return cls({})
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{path}: unknown symbols format")
        files = data["files"]
        if not isinstance(files, dict):
            raise ValueError(f"{path}: unknown symbols format")
        return cls(files)

    # -- queries (the interface the tools and retrieval use) ---------------------------------

    def definitions(self, name: str) -> list[Definition]:
        """Definitions ``name`` names: a full dotted name (re-exports followed), a
        ``Class.method`` or ``module.name`` suffix, or a bare name (every definition so called,
        modules included)."""
        name = name.strip().strip("`").removesuffix("()")
        if not name:
            return []
        full = self.resolve(name) if "." in name else None
        if full is not None:
            return [self._by_full[full]]
        last = name.rsplit(".", 1)[-1]
        found = self._by_name.get(last, [])
        if "." in name:
            found = [d for d in found if ("." + d.full_name).endswith("." + name)] or (
                assigned_to(name, found)  # ``res.json = function json(…)``
            )
        return sorted(found, key=lambda d: (d.path, d.start_line))

    def definitions_in(self, path: str) -> list[Definition]:
        """Every class, function and method of one file, in source order."""
        return [d for d in self._defs if d.path == path and d.kind != "module"]

    def files_defining(self, identifier: str) -> list[str]:
        return sorted({d.path for d in self.definitions(identifier)})

    def subclasses(self, name: str, transitive: bool = False) -> list[Definition]:
        """Classes whose bases resolve to the class ``name`` (or, for a class outside the
        repository such as ``Exception``, are written with that name)."""
        targets = [d.full_name for d in self.definitions(name) if d.kind in CLASS_KINDS]
        if not targets:
            targets = [k for k in self._children if k == name or k.endswith("." + name)]
        found: dict[str, Definition] = {}
        todo = list(targets)
        while todo:
            for child in self._children.get(todo.pop(), []):
                if child.full_name not in found:
                    found[child.full_name] = child
                    if transitive:
                        todo.append(child.full_name)
        return sorted(found.values(), key=lambda d: (d.path, d.start_line))

    def importers(self, module_or_name: str) -> list[str]:
        """Files that import the module (or a submodule or member of it) or the name."""
        return sorted({imp.path for imp in self.import_sites(module_or_name)})

    def import_sites(self, module_or_name: str) -> list[Import]:
        """The imports behind :meth:`importers`, by file and line."""
        wanted = self.modules_named(module_or_name) or [module_or_name.replace("::", ".")]
        found: dict[int, Import] = {}
        for module in wanted:
            for imp in self._imports_under.get(module, []):
                found[id(imp)] = imp
        full = self.resolve(module_or_name)
        bare = "." not in module_or_name
        for imp in self._imports_naming.get(module_or_name.rsplit(".", 1)[-1], []):
            if (bare and imp.name == module_or_name) or (
                full is not None and self.resolve(imp.target) == full
            ):
                found[id(imp)] = imp
        return sorted(found.values(), key=lambda i: (i.path, i.line))

    def file_importers(self, path: str) -> list[Import]:
        """The imports of other files that load ``path``, a file of another language than
        Python (:mod:`codeagent.symbols.file_imports`), by file and line."""
        return sorted(self._file_importers.get(path, []), key=lambda i: (i.path, i.line))

    def imports_of(self, path_or_module: str) -> list[Import]:
        """The imports of one file, named by its path or its module name."""
        if path_or_module in self._imports:
            return list(self._imports[path_or_module])
        modules = self.modules_named(path_or_module)
        if len(modules) != 1:
            return []
        return list(self._imports[self.modules[modules[0]]])

    def callers(self, name: str) -> list[CallSite]:
        """Call sites of the last component of ``name``, each with the definition it resolves
        to when its receiver says (``target``; see the module docstring), by file and line."""
        last = name.strip().strip("`").removesuffix("()").rsplit(".", 1)[-1]
        flat = self.calls.get(last, [])
        out = []
        for n in range(0, len(flat), CALL_FIELDS):
            path = self.paths[flat[n]]
            rec = self.files[path]
            scope = rec["d"][flat[n + 2]][0] if flat[n + 2] >= 0 else ""
            written = call_target(rec["c"], flat[n + 3])
            found = target_of(self, path, written) if written else None
            target, outside = found if found is not None else ("", False)
            out.append(CallSite(path, flat[n + 1], last, scope, target, outside))
        return sorted(out, key=lambda c: (c.path, c.line))

    def methods(
        self, class_name: str, inherited: bool = True
    ) -> list[tuple[Definition, str | None]]:
        """The class's own methods ``(d, None)``, then, when ``inherited``, those it inherits
        from classes of the repository and does not override ``(d, base full name)``, in
        Python's method-resolution order (C3) over the repository's classes; breadth first,
        left to right, each base once, for other languages and where no C3 order exists."""
        classes = [d for d in self.definitions(class_name) if d.kind in CLASS_KINDS]
        classes = [d for d in classes if d.kind != "impl"] or classes
        if not classes:
            return []
        out: list[tuple[Definition, str | None]] = []
        seen_names: set[str] = set()
        seen_classes: set[str] = set()
        order = [(classes[0], None)] if not inherited else self._mro(classes[0], seen_classes)
        overloads = "l" in self.files[classes[0].path]  # Java, C#, C++ ...: one per signature
        for cls, via in order:
            for d in self._own_methods(cls):
                if d.name not in seen_names or (overloads and via is None):
                    seen_names.add(d.name)
                    out.append((d, via))
        return out
