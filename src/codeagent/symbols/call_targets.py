"""A call site's target across files: the dotted name a file wrote for its callee
(:mod:`codeagent.symbols.receivers`) resolved to the repository definition it calls.

    target_of(graph, "pkg/client.py", "Client.send")     # ("pkg._client.Client.send", False)
    target_of(graph, "pkg/app.py", "json.dumps")          # ("json.dumps", True): outside
    target_of(graph, "pkg/app.py", "handler.send")        # None: a call by name

The first part of the written name is a definition of the file (its qualified name) or a name
an import binds there (the import applied: ``from .client import Client as C`` makes ``C.send``
``pkg.client.Client.send``); the rest is followed through the repository's modules and
re-exports (:meth:`SymbolTables.resolve`); an attribute a class does not define itself is
looked up in its bases, in Python's method order (C3); ``^C.f`` (``super().f()``) starts after
``C``; ``@env.f``: ``f`` of the value of the pytest fixture ``env``, read where the fixture is
defined (:mod:`codeagent.symbols.fixtures`; ``@TestX:env.f``: the fixture class ``TestX``
defines, recorded by its file under that name). A name bound outside the repository (an import of
another package, a builtin) is "outside"; one that leads nowhere (an attribute no class of the
repository has, a function's attribute) is None: the call stays by name.

Resolved when a question asks (one name's sites at a time), cached per written name and file.
"""

from __future__ import annotations

import ast
import builtins
from typing import TYPE_CHECKING

from codeagent.lang import languages_where
from codeagent.symbols.bindings import annotation_type
from codeagent.symbols.c_targets import c_target
from codeagent.symbols.cpp_targets import cpp_target
from codeagent.symbols.fixtures import FIXTURE_FIELD, providers
from codeagent.symbols.go_targets import go_target
from codeagent.symbols.java_targets import java_target
from codeagent.symbols.php_targets import php_target
from codeagent.symbols.ruby_targets import ruby_target
from codeagent.symbols.rust_targets import rust_target
from codeagent.symbols.ts_targets import ts_target
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

_BUILTINS = frozenset(dir(builtins))
_SELF = frozenset({"Self", "typing.Self", "typing_extensions.Self"})
Target = tuple[str, bool]  # full name, whether it is outside the repository


def target_of(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    """The full name ``written`` (in the file at ``path``) calls, or None (by name)."""
    cache = graph.target_cache
    key = (path, written)
    if key not in cache:
        cache[key] = None  # a fixture whose value leads back to itself says nothing
        cache[key] = _resolve(graph, path, written)
    return cache[key]


def _resolve(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    rec = graph.files.get(path)
    if rec is None or "l" in rec:
        # the languages whose receivers are read (TypeScript, JavaScript; Java, by declared
        # types; Go, by package; Rust, by module path; C, by linkage; C++, by class and
        # namespace; PHP, by whole class name; Ruby, by constant); the others' by name
        if rec is None or rec["l"] not in languages_where("receivers"):
            return None
        if rec["l"] in languages_where("declared_types"):
            return java_target(graph, path, written)
        if rec["l"] in languages_where("members_in_folder"):  # a package is a folder (Go)
            return go_target(graph, path, written)
        if rec["l"] in languages_where("crate_paths"):  # the crate's modules (Rust)
            return rust_target(graph, path, written)
        if rec["l"] in languages_where("linked_functions"):  # a function as linked (C)
            return c_target(graph, path, written)
        if rec["l"] in languages_where("scoped_names"):  # by class and namespace (C++)
            return cpp_target(graph, path, written)
        if rec["l"] in languages_where("qualified_types"):  # by whole class name (PHP)
            return php_target(graph, path, written)
        if rec["l"] in languages_where("lexical_constants"):  # constants lexically (Ruby)
            return ruby_target(graph, path, written)
        return ts_target(graph, path, written)
    if written[0] == "@":  # @env.render: render of the value of the fixture env
        return _fixture(graph, path, written[1:])
    first, *after = written.split("().")  # make().send: send of what make() returns
    found = _path(graph, path, rec["m"], first)
    for attr in after:
        if found is None or found[1] or "." in attr:
            return None
        cls = _returns(graph, found[0])
        found = inherited(graph, cls, attr, skip_first=False) if cls is not None else None
    return found


def _fixture(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    """``NAME.rest`` where ``NAME`` is a fixture a test of ``path`` is given: ``rest`` of its
    value, read in the file that defines the fixture (the nearest, as pytest finds it)."""
    name, _, rest = written.partition(".")
    if not rest:
        return None
    for provider in providers(graph.files, path):
        value = graph.files[provider].get(FIXTURE_FIELD, {}).get(name)
        if value is not None:
            return target_of(graph, provider, f"{value}.{rest}")
    return None


def _path(graph: SymbolHierarchy, path: str, module: str, written: str) -> Target | None:
    """A dotted name written in the file at ``path`` (whose module is ``module``)."""
    after = written.startswith("^")
    imported = written.startswith("!")  # a function's own import: it shadows the module's
    written = written.lstrip("^!")
    prefix, _, attr = written.rpartition(".")
    own = f"{module}.{written}" if module else written
    if not after and not imported and own in graph._by_full:  # this file's, by qualified name
        return _callable(graph, own, via_attribute=False)
    head, _, rest = written.partition(".")
    base = _bound(graph, path, module, head, imported)
    if base is None:
        return (written, True) if head in _BUILTINS and not after else None
    full = f"{base}.{rest}" if rest else base
    if after:  # super().attr: the class is this file's, by its qualified name
        cls = graph._by_full.get(f"{module}.{prefix}" if module else prefix)
        return inherited(graph, cls, attr, skip_first=True) if cls else None
    found = graph.resolve(full)
    if found is not None:
        return _callable(graph, found, via_attribute=bool(rest))
    if not rest:
        return None if _in_repository(graph, full) else (full, True)
    owner_name = graph.resolve(f"{base}.{rest.rpartition('.')[0]}" if "." in rest else base)
    if owner_name is None:
        outside = not _in_repository(graph, full)
        return (full, True) if outside else None
    owner = graph._by_full.get(owner_name)
    if owner is None or owner.kind != "class":
        return None
    return inherited(graph, owner, attr, skip_first=False)


def _returns(graph: SymbolHierarchy, full: str) -> Definition | None:
    """The repository class an instance of which calling ``full`` gives: the class itself,
    or what a function's return annotation names (``Self``, or the annotation of ``self``
    when the method says it returns that, is the method's class; an ``__enter__`` without
    annotation is taken to return ``self``)."""
    d = graph._by_full.get(full)
    if d is None or d.kind == "module":
        return None
    if d.kind == "class":
        return d
    owner = graph._by_full.get(full.rpartition(".")[0]) if d.kind == "method" else None
    try:
        node = ast.parse(d.signature.replace("async def", "def", 1) + ": ...").body[0]
    except SyntaxError:  # a signature cut short
        return None
    assert isinstance(node, ast.FunctionDef)
    if node.returns is None:
        enters = d.name in ("__enter__", "__aenter__")
        return owner if enters and owner is not None and owner.kind == "class" else None
    written = annotation_type(node.returns)
    params = [*node.args.posonlyargs, *node.args.args]
    own_type = annotation_type(params[0].annotation) if params else None
    if owner is not None and (written in _SELF or (written and written == own_type)):
        return owner if owner.kind == "class" else None
    if written is None:
        return None
    found = _path(graph, d.path, d.module, written)
    cls = graph._by_full.get(found[0]) if found is not None and not found[1] else None
    return cls if cls is not None and cls.kind == "class" else None


def _bound(
    graph: SymbolHierarchy, path: str, module: str, head: str, imported: bool = False
) -> str | None:
    """The full name ``head`` names in the file: a definition of its module (unless
    ``imported``: a function's own import binds it), else the target of the (last) import
    binding it; None when nothing in the file binds it."""
    own = f"{module}.{head}" if module else head
    if not imported and own in graph._by_full:
        return own
    imports = [i for i in graph._imports.get(path, []) if i.bound == head and i.name != "*"]
    if imports:
        return imports[-1].target
    for imp in reversed(graph._imports.get(path, [])):  # from m import *
        if imp.name == "*" and graph._star_exports(imp.module, head):
            return f"{imp.module}.{head}"
    return None


def _callable(graph: SymbolHierarchy, full: str, via_attribute: bool = True) -> Target | None:
    """A resolved name that can be called: a class, function or method (an attribute of a
    function is not: ``f().g`` names nothing of ``f``)."""
    d = graph._by_full.get(full)
    if d is None or d.kind == "module":
        return None
    owner = graph._by_full.get(full.rpartition(".")[0])
    if via_attribute and owner is not None and owner.kind in ("function", "method"):
        return None
    return (full, False)


def inherited(
    graph: SymbolHierarchy, cls: Definition, attr: str, *, skip_first: bool
) -> Target | None:
    """``attr`` of class ``cls`` found in it or its bases, in method order."""
    if cls.kind != "class":
        return None
    order = [d for d, _via in graph._mro(cls, set())]
    for d in order[1:] if skip_first else order:
        full = f"{d.full_name}.{attr}"
        if full in graph._by_full and graph._by_full[full].kind != "module":
            return (full, False)
    return None


def _in_repository(graph: SymbolHierarchy, full: str) -> bool:
    """Whether ``full`` starts with a module of the repository, or a name its files start
    with (a folder without ``__init__.py`` imports as a namespace package): an attribute it
    lacks is then unknown, not outside."""
    parts = full.split(".")
    if parts[0] in graph.top_names:
        return True
    return any(".".join(parts[:n]) in graph.modules for n in range(1, len(parts) + 1))
