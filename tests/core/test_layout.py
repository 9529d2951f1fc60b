"""The layout of ``src/codeagent``: no import circles between its modules or between its
top-level packages and modules, no arrow up from a top-level module into a package, and no
module over 300 lines.

The top-level modules (``config.py``, ``result.py``, ``events.py``, ...) are the bottom layer:
they import other top-level modules only. The facades are the exception, as they wire the
packages together for a caller: ``__init__`` (the public API), ``__main__`` and
``workspace.py``.

Imports are read with ``ast`` from the source files (every ``import`` counts: at module level,
inside a function, under ``if TYPE_CHECKING``); ``from package import submodule`` is an import
of the submodule. A cycle is a strongly connected group of two or more modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import write_files

SRC = Path(__file__).resolve().parents[2] / "src"
MAX_LINES = 300


def modules(src: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``src``."""
    found = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph(src: Path) -> dict[str, set[str]]:
    """Module -> the modules of ``src`` it imports."""
    mods = modules(src)
    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in mods else base)
            graph[name].update(t for t in targets if t in mods and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more nodes (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_graph(graph: dict[str, set[str]], root: str) -> dict[str, set[str]]:
    """The import graph between the top-level packages of ``root`` (``root.index``, ...)."""
    depth = root.count(".") + 2

    def top(name: str) -> str | None:
        parts = name.split(".")
        return ".".join(parts[:depth]) if len(parts) >= depth else None

    tops = {t for name in graph if (t := top(name))}
    packages = {t for t in tops if any(name.startswith(t + ".") for name in graph)}
    out: dict[str, set[str]] = {p: set() for p in packages}
    for name, targets in graph.items():
        here = top(name)
        for target in targets:
            there = top(target)
            if here in packages and there in packages and here != there:
                out[here].add(there)
    return out


def unit_graph(graph: dict[str, set[str]], root: str) -> dict[str, set[str]]:
    """The import graph between the units directly under ``root``: its packages and its
    top-level modules (``root.config``, ``root.index``, ...); ``root`` itself is left out."""
    depth = root.count(".") + 2

    def unit(name: str) -> str | None:
        parts = name.split(".")
        return ".".join(parts[:depth]) if len(parts) >= depth else None

    out: dict[str, set[str]] = {u: set() for name in graph if (u := unit(name))}
    for name, targets in graph.items():
        here = unit(name)
        for target in targets:
            there = unit(target)
            if here is not None and there is not None and here != there:
                out[here].add(there)
    return out


def upward_arrows(graph: dict[str, set[str]], root: str, facades: set[str]) -> list[str]:
    """``module -> package`` for every import of a package by a top-level module of ``root``
    that is not one of the ``facades``."""
    units = unit_graph(graph, root)
    packages = {u for u in units if any(name.startswith(u + ".") for name in graph)}
    return sorted(
        f"{here} -> {there}"
        for here, targets in units.items()
        if here not in packages and here.rpartition(".")[2] not in facades
        for there in targets
        if there in packages
    )


FACADES = {"__main__", "workspace"}


def test_no_import_cycle_between_modules() -> None:
    assert cycles(import_graph(SRC)) == []


def test_no_import_cycle_between_top_level_packages() -> None:
    graph = import_graph(SRC)
    packages = package_graph(graph, "codeagent")
    assert {"codeagent.index", "codeagent.llm", "codeagent.tools"} <= set(packages)
    assert cycles(packages) == []


def test_no_import_cycle_between_top_level_modules_and_packages() -> None:
    units = unit_graph(import_graph(SRC), "codeagent")
    assert {"codeagent.config", "codeagent.events", "codeagent.agent"} <= set(units)
    assert cycles(units) == []


def test_no_top_level_module_imports_a_package() -> None:
    assert upward_arrows(import_graph(SRC), "codeagent", FACADES) == []


def test_no_module_over_300_lines() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in modules(SRC).values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """A planted package with a module cycle (through a function-level and a TYPE_CHECKING
    import) and a package cycle: both are found; an import of a submodule through its
    package is an edge to the submodule, not to the package."""
    files = {
        "app/__init__.py": "from app.a.one import f\n",
        "app/a/__init__.py": "",
        "app/a/one.py": "def f():\n    from app.a import two\n",
        "app/a/two.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from .one import f\n",
        "app/a/three.py": "from app.b import x\n",
        "app/b/__init__.py": "",
        "app/b/x.py": "from app.a import three\n",
        "app/c/__init__.py": "from app.c import y\n",
        "app/c/y.py": "from app.c import z\n",
        "app/c/z.py": "",
    }
    write_files(tmp_path, dict(files))
    graph = import_graph(tmp_path)
    assert graph["app.a.one"] == {"app.a.two"}
    assert graph["app.a.two"] == {"app.a.one"}
    assert graph["app.c.y"] == {"app.c.z"}
    assert cycles(graph) == [["app.a.one", "app.a.two"], ["app.a.three", "app.b.x"]]
    assert cycles(package_graph(graph, "app")) == [["app.a", "app.b"]]


def test_the_top_level_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """A top-level module importing a package (inside a function too) is an arrow up, and a
    cycle when the package imports it back; a facade may import packages; an import of a
    top-level module by a package is an arrow down."""
    files = {
        "app/__init__.py": "from app.a import one\n",
        "app/config.py": "def f():\n    from app.store import dense\n",
        "app/events.py": "from app.agent.state import S\n",
        "app/result.py": "from app import config\n",
        "app/facade.py": "from app.agent import state\n",
        "app/agent/__init__.py": "",
        "app/agent/state.py": "S = 1\n",
        "app/agent/nodes.py": "from app.events import E\n",
        "app/store/__init__.py": "",
        "app/store/dense.py": "",
        "app/a/__init__.py": "",
        "app/a/one.py": "from app import result\n",
    }
    write_files(tmp_path, dict(files))
    graph = import_graph(tmp_path)
    units = unit_graph(graph, "app")
    assert units["app.a"] == {"app.result"}
    assert cycles(units) == [["app.agent", "app.events"]]
    assert upward_arrows(graph, "app", {"facade"}) == [
        "app.config -> app.store",
        "app.events -> app.agent",
    ]
