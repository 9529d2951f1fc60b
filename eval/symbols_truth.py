"""Independent ground truth for the repository symbol graph, and the graph to compare with it.

- definitions: ``pyclbr`` (the standard library's own class/function browser);
- subclasses: the classes themselves, imported, via ``__subclasses__()`` (so, ``inspect``);
- call sites: ``jedi``'s reference finder (static analysis with type inference), keeping the
  references that are called (followed by ``(``).

None of these shares code with codeagent's graph.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pyclbr
from pathlib import Path
from typing import Any

from codeagent.index.chunking import parse_python
from codeagent.repo.discover import discover
from codeagent.symbols.graph import SymbolGraph

SKIP_DIRS = ("test", "tests", "idle_test")


def build_graph(root: Path) -> SymbolGraph:
    """The symbol graph of ``root`` as the index build makes it (same discovery, same parse)."""
    trees: dict[str, Any] = {}
    for file in discover(root).files:
        tree = parse_python(file.path, file.read_text())
        if tree is not None:
            trees[file.path] = tree
    return SymbolGraph.build(trees, root=root)


def package_modules(pkg_dir: Path, package: str) -> dict[str, str]:
    """Dotted module name -> path (relative to ``pkg_dir``) of a package's source files."""
    out: dict[str, str] = {}
    for path in sorted(pkg_dir.rglob("*.py")):
        rel = path.relative_to(pkg_dir).as_posix()
        parts = rel.removesuffix(".py").split("/")
        if any(p in SKIP_DIRS for p in parts[:-1]) or "-" in rel:
            continue
        dirs = ["/".join(parts[:i]) for i in range(len(parts))]
        if not all((pkg_dir / d / "__init__.py").is_file() for d in dirs):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join([package, *parts])] = rel
    return out


def pyclbr_definitions(
    module: str, search: list[str] | None = None
) -> list[tuple[str, str, int]] | None:
    """(qualname, kind, def line) of every class and function pyclbr finds in ``module``;
    None when pyclbr cannot read its source (a module frozen into the interpreter)."""
    if search is None:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin in (None, "frozen", "built-in"):
            return None
    try:
        tree = pyclbr.readmodule_ex(module, path=search)
    except (ImportError, SyntaxError, AttributeError):
        return []
    out: list[tuple[str, str, int]] = []

    def walk(objects: dict[str, Any], prefix: str, parent_is_class: bool) -> None:
        for name, obj in objects.items():
            if not isinstance(obj, pyclbr.Function | pyclbr.Class) or obj.module != module:
                continue
            qualname = f"{prefix}{name}"
            if isinstance(obj, pyclbr.Class):
                kind = "class"
            else:
                kind = "method" if parent_is_class else "function"
            out.append((qualname, kind, obj.lineno))
            walk(obj.children, qualname + ".", isinstance(obj, pyclbr.Class))

    walk({k: v for k, v in tree.items() if k != "__path__"}, "", False)
    return out


def imported_classes(modules: list[str]) -> dict[str, type]:
    """``module.qualname`` -> class, for every class defined at a module's or a class's top
    level in ``modules`` (modules that fail to import are skipped)."""
    found: dict[str, type] = {}
    for name in modules:
        if name.endswith("__main__"):  # importing it runs the program
            continue
        try:
            module = importlib.import_module(name)
        except Exception:  # platform-specific modules: skip
            continue
        todo = inspect.getmembers(module, inspect.isclass)
        while todo:
            bound, cls = todo.pop()
            # Only a class statement of this module, bound under its own name (not a
            # namedtuple base, a C accelerator or a class re-exported from elsewhere).
            if cls.__module__ != name or "<locals>" in cls.__qualname__ or bound != cls.__name__:
                continue
            try:
                if inspect.getsourcefile(cls) != module.__file__:
                    continue
            except (TypeError, OSError):
                continue
            key = f"{cls.__module__}.{cls.__qualname__}"
            if key in found:
                continue
            found[key] = cls
            todo += [(k, v) for k, v in vars(cls).items() if inspect.isclass(v)]
    return found


def subclass_truth(classes: dict[str, type], key: str, transitive: bool) -> set[str]:
    """The subclasses of ``classes[key]`` among ``classes`` (``__subclasses__``)."""
    names = {cls: k for k, cls in classes.items()}
    out: set[str] = set()
    todo = [classes[key]]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub in names and names[sub] not in out:
                out.add(names[sub])
                if transitive:
                    todo.append(sub)
    return out


def jedi_call_sites(root: Path, path: str, line: int, name: str) -> set[tuple[str, int]]:
    """(path, line) of every reference jedi finds to the definition of ``name`` at
    ``path:line`` that is a call (the name is followed by ``(``), the definition excluded."""
    import jedi

    project = jedi.Project(str(root))
    source = (root / path).read_text(encoding="utf-8")
    text = source.splitlines()[line - 1]
    column = text.index(name, text.index("def ") if "def " in text else 0)
    script = jedi.Script(source, path=str(root / path), project=project)
    out: set[tuple[str, int]] = set()
    cache: dict[Path, list[str]] = {}
    for ref in script.get_references(line, column, include_builtins=False, scope="project"):
        if ref.module_path is None or ref.line is None or ref.is_definition():
            continue
        file = Path(ref.module_path)
        lines = cache.setdefault(file, file.read_text(encoding="utf-8").splitlines())
        rest = lines[ref.line - 1][ref.column + len(name) :]
        if rest.lstrip().startswith("("):
            out.add((file.relative_to(root).as_posix(), ref.line))
    return out
