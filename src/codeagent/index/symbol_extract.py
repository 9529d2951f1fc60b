"""One Python file's symbols, read from the ``ast`` tree the chunker already parsed.

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
- ``c``: call sites ``[line, name, scope]``: ``name`` is the called name after aliases are
  undone (``self.send()`` -> ``send``; ``from m import f as g; g()`` -> ``f``;
  ``import m as n; n.f()`` -> ``f``), ``scope`` the index in ``d`` of the enclosing function
  or class (-1 at module level).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

_FUNC = (ast.FunctionDef, ast.AsyncFunctionDef)
MAX_SIGNATURE = 240


def module_name(path: str, packages: set[str], root_name: str = "") -> str:
    """The dotted module name of ``path`` (POSIX, repository-relative).

    ``packages`` holds the directories (repository-relative, ``""`` for the root) that have an
    ``__init__.py``; the name starts at the topmost package directory above the file, so
    ``src/pkg/mod.py`` is ``pkg.mod`` and a script outside any package is its stem. When the
    repository root is itself a package, its directory name ``root_name`` leads.
    """
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    dirs = parts[:-1]
    names = [] if stem == "__init__" else [stem]
    while dirs and "/".join(dirs) in packages:
        names.insert(0, dirs[-1])
        dirs = dirs[:-1]
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


def extract(tree: ast.Module, module: str, is_package: bool) -> dict[str, Any]:
    """The symbols of one parsed file whose dotted name is ``module``."""
    visitor = _Visitor(module, is_package)
    visitor.visit(tree)
    record: dict[str, Any] = {"d": visitor.defs, "i": visitor.imports, "c": visitor.calls}
    exported = module_all(tree)
    if exported is not None:
        record["a"] = exported
    return record


def module_all(tree: ast.Module) -> list[str] | None:
    """The module's literal ``__all__`` (``None`` when it sets none, or computes it)."""
    names: list[str] | None = None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AugAssign | ast.AnnAssign):
            targets = [stmt.target]
        else:
            continue
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
    if isinstance(node, ast.Subscript):
        node = node.value
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


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


class _Visitor(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.is_package = is_package
        self.defs: list[list[Any]] = []
        self.imports: list[list[Any]] = []
        self.calls: list[list[Any]] = []
        self.scope: list[tuple[str, str, int]] = []  # (name, "class" | "function", index in defs)
        self.aliases: dict[str, str] = {}  # local name -> imported name (``g`` -> ``f``)

    def _define(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        qualname = ".".join([*(n for n, _, _ in self.scope), node.name])
        if isinstance(node, ast.ClassDef):
            kind = "class"
        else:
            kind = "method" if self.scope and self.scope[-1][1] == "class" else "function"
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        end = node.end_lineno or node.lineno
        bases: list[str] = []
        if isinstance(node, ast.ClassDef):
            bases = [b for b in (dotted(base) for base in node.bases) if b]
        row = [qualname, kind, node.lineno, start, end, _signature(node), _doc(node), bases]
        self.defs.append(row)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._define(node)
        for deco in node.decorator_list:
            self.visit(deco)
        self.visit(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        self.scope.append((node.name, "function", len(self.defs) - 1))
        for stmt in node.body:
            self.visit(stmt)
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._define(node)
        for expr in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(expr)
        self.scope.append((node.name, "class", len(self.defs) - 1))
        for stmt in node.body:
            self.visit(stmt)
        self.scope.pop()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.imports.append([node.lineno, alias.name, None, alias.asname])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        target = absolute_module(self.module, self.is_package, node.level, node.module)
        for alias in node.names:
            self.imports.append([node.lineno, target, alias.name, alias.asname])
            if alias.asname and alias.name != "*":
                self.aliases[alias.asname] = alias.name

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name: str | None = None
        if isinstance(func, ast.Name):
            name = self.aliases.get(func.id, func.id)
        elif isinstance(func, ast.Attribute):
            name = func.attr  # self.x(), obj.x(), mod.x(), super().x(), a().x()
        if name is not None:
            scope = self.scope[-1][2] if self.scope else -1
            line = (
                (func.end_lineno or node.lineno) if isinstance(func, ast.Attribute) else node.lineno
            )
            self.calls.append([line, name, scope])
        self.generic_visit(node)
