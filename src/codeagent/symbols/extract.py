"""One Python file's symbols, read from the structure (:mod:`codeagent.pysyntax`) the chunker
also reads.

:func:`extract` returns a compact, JSON-ready record of the file (see :mod:`symbols` for the
graph built from all of them):

- ``d``: definitions ``[qualname, kind, line, start, end, signature, doc, bases]``: every
  class, function and method, nested ones included (``outer.inner``, ``Class.method``);
  ``line`` is the ``def``/``class`` line, ``start`` the first decorator's; ``bases`` are the
  class bases as written (``models.Model``, ``Generic[T]`` is kept as ``Generic``).
- ``i``: imports ``[line, module, name, alias]``, relative imports already made absolute
  (``from .utils import x`` in ``pkg/mod.py`` -> ``pkg.utils``); ``name`` is ``None`` for
  ``import a.b [as c]``.
- ``a`` (only when the module sets it to literals: assignments and ``+=`` of lists or
  tuples of strings): its ``__all__``, which decides what ``from module import *`` takes.
- ``c``: call sites ``[line, name, scope, target]``: ``name`` is the called name after aliases
  are undone (``self.send()`` -> ``send``; ``from m import f as g; g()`` -> ``f``;
  ``import m as n; n.f()`` -> ``f``), ``scope`` the index in ``d`` of the enclosing function
  or class (-1 at module level), ``target`` the callee as the file names it, when its
  receiver says (``self.send()`` in ``Client.request`` -> ``Client.send``; ``g()`` ->
  ``g``; ``c.send()`` after ``c = Client()`` -> ``Client.send``: see
  :mod:`codeagent.symbols.receivers`), resolved across files by the graph.
- ``x`` (only when the file defines module-level pytest fixtures): each fixture's name and its
  value as the file names it (:mod:`codeagent.symbols.fixtures`).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from codeagent.pysyntax import DefSite, Structure, calls, scan
from codeagent.symbols.bindings import BINDING_NODES
from codeagent.symbols.bindings import dotted as name_chain
from codeagent.symbols.fixtures import FIXTURE_FIELD, fixture_values
from codeagent.symbols.receivers import CallTargets
from codeagent.symbols.types import pack_calls

MAX_SIGNATURE = 240


def module_name(path: str, packages: set[str], root_name: str = "") -> str:
    """The dotted module name of ``path`` (POSIX, repository-relative).

    ``packages`` holds the directories (repository-relative, ``""`` for the root) that have an
    ``__init__.py``; the name starts at the topmost package directory above the file, so
    ``src/pkg/mod.py`` is ``pkg.mod`` and a script outside any package is its stem. A folder
    without ``__init__.py`` inside a package is a namespace package of it, as Python imports
    it (flask's ``src/flask/sansio/app.py`` is ``flask.sansio.app``). When the repository
    root is itself a package, its directory name ``root_name`` leads.
    """
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    dirs = parts[:-1]
    names = [] if stem == "__init__" else [stem]
    top = next((n for n in range(1, len(dirs) + 1) if "/".join(dirs[:n]) in packages), 0)
    if top:
        names[:0] = dirs[top - 1 :]
        dirs = dirs[: top - 1]
    if not dirs and "" in packages and root_name and (names or stem == "__init__"):
        names.insert(0, root_name)
    return ".".join(names) or stem


def module_names(paths: list[str], root: Path | None = None) -> dict[str, str]:
    """The dotted module name of each of ``paths``, the parsed Python files of a repository.

    A directory is a package when one of ``paths`` is its ``__init__.py`` or, with ``root``,
    when that file exists on disk; a root that is itself a package names the modules.
    """
    packages = {p.rpartition("/")[0] for p in paths if p.rpartition("/")[2] == "__init__.py"}
    if root is not None:
        dirs = {p.rpartition("/")[0] for p in paths}
        for d in list(dirs):
            while "/" in d:
                d = d.rpartition("/")[0]
                dirs.add(d)
        dirs.add("")
        packages |= {d for d in dirs if (root / d / "__init__.py").is_file()}
    root_name = root.name if root is not None else ""
    return {path: module_name(path, packages, root_name) for path in paths}


def extract(
    tree: ast.Module, module: str, is_package: bool, found: Structure | None = None
) -> dict[str, Any]:
    """The symbols of one parsed file whose dotted name is ``module`` (``found``: the tree's
    :func:`~codeagent.pysyntax.scan`, when the caller has it)."""
    found = found if found is not None else scan(tree)
    rows, targets = _calls(found)
    record: dict[str, Any] = {
        "d": [_definition(site) for site in found.defs],
        "i": _imports(found, module, is_package),
        "c": pack_calls(rows),
    }
    fixtures = fixture_values(found, targets.value)
    if fixtures:
        record[FIXTURE_FIELD] = fixtures
    exported = module_all(found)
    if exported is not None:
        record["a"] = exported
    return record


def module_all(found: Structure) -> list[str] | None:
    """The module's literal ``__all__`` (``None`` when it sets none, or computes it)."""
    names: list[str] | None = None
    for site in found.assignments:
        stmt = site.stmt
        if site.blocks or not isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            continue
        literal = _literal_names(stmt.value)
        if literal is None:
            return None
        names = [*(names or []), *literal] if isinstance(stmt, ast.AugAssign) else literal
    return names


def _literal_names(node: ast.expr | None) -> list[str] | None:
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    out = []
    for element in node.elts:
        if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
            return None
        out.append(element.value)
    return out


def absolute_module(module: str, is_package: bool, level: int, target: str | None) -> str:
    """``from <level dots><target> import ...`` inside ``module`` as an absolute module name."""
    if not level:
        return target or ""
    base = module.split(".") if module else []
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)] if level - 1 <= len(base) else []
    return ".".join([*base, *([target] if target else [])])


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a Name/Attribute chain (subscripts dropped: ``Generic[T]`` -> ``Generic``)."""
    return name_chain(node.value if isinstance(node, ast.Subscript) else node)


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    if isinstance(node, ast.ClassDef):
        bases = [ast.unparse(b) for b in node.bases]
        bases += [ast.unparse(k) for k in node.keywords]
        text = f"class {node.name}" + (f"({', '.join(bases)})" if bases else "")
    else:
        prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
        text = f"{prefix} {node.name}({ast.unparse(node.args)})"
        if node.returns is not None:
            text += f" -> {ast.unparse(node.returns)}"
    text = " ".join(text.split())
    return text if len(text) <= MAX_SIGNATURE else text[: MAX_SIGNATURE - 3] + "..."


def _doc(node: ast.AST) -> str:
    try:
        doc = ast.get_docstring(node)  # type: ignore[arg-type]
    except TypeError:
        return ""
    if not doc:
        return ""
    return doc.strip().split("\n", 1)[0].strip()[:200]


def _definition(site: DefSite) -> list[Any]:
    node = site.node
    bases: list[str] = []
    if isinstance(node, ast.ClassDef):
        bases = [b for b in (dotted(base) for base in node.bases) if b]
    signature, doc = _signature(node), _doc(node)
    return [
        site.qualname,
        site.kind,
        node.lineno,
        site.start_line,
        site.end_line,
        signature,
        doc,
        bases,
    ]


def _imports(found: Structure, module: str, is_package: bool) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for site in found.imports:
        stmt = site.stmt
        if isinstance(stmt, ast.Import):
            rows += [[stmt.lineno, alias.name, None, alias.asname] for alias in stmt.names]
        elif isinstance(stmt, ast.ImportFrom):
            target = absolute_module(module, is_package, stmt.level, stmt.module)
            rows += [[stmt.lineno, target, alias.name, alias.asname] for alias in stmt.names]
    return rows


def _calls(found: Structure) -> tuple[list[list[Any]], CallTargets]:
    """``[line, name, scope, target]`` of each call, aliases undone as they stand at the call,
    ``target`` the callee as the file names it (:mod:`codeagent.symbols.receivers`) or "";
    and the file's call targets, for its fixtures' values."""
    rows: list[list[Any]] = []
    aliases: dict[str, str] = {}  # local name -> imported name (``g`` -> ``f``)
    bound: dict[int | None, list[ast.AST]] = {}
    sites = calls(found, imports=True, also=BINDING_NODES, found_also=bound)
    targets = CallTargets(found, bound)
    for node, scope in sites:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname and alias.name != "*":
                    aliases[alias.asname] = alias.name
            continue
        func = node.func
        name: str | None = None
        if isinstance(func, ast.Name):
            name = aliases.get(func.id, func.id)
        elif isinstance(func, ast.Attribute):
            name = func.attr  # self.x(), obj.x(), mod.x(), super().x(), a().x()
        if name is not None:
            line = (
                (func.end_lineno or node.lineno) if isinstance(func, ast.Attribute) else node.lineno
            )
            target = targets.of(node, scope) or ""
            rows.append([line, name, -1 if scope is None else scope, target])
    return rows, targets
