"""A Python stub (``m.pyi``) beside its module's source types what the source defines: a class
both declare is one class, answered from the source. The truth is jedi's: from a use of the
name, ``infer`` lands on the definition the code runs (stubs not preferred)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query
from conftest import GitRepoFactory

jedi = pytest.importorskip("jedi")

FILES = {
    # the package re-exports the class its private module defines; the stub declares it
    "pkg/__init__.py": "from pkg._impl import Thing, make\n\n__all__ = ['Thing', 'make']\n",
    "pkg/__init__.pyi": (
        "class Thing:\n"
        "    def run(self) -> int: ...\n"
        "    def stop(self) -> None: ...\n"
        "\n"
        "def make() -> Thing: ...\n"
    ),
    "pkg/_impl.py": (
        "class Thing:\n"
        "    def run(self):\n"
        "        return 1\n"
        "\n"
        "    def stop(self):\n"
        "        return None\n"
        "\n"
        "\n"
        "def make():\n"
        "    return Thing()\n"
    ),
    "pkg/special.py": "from pkg import Thing\n\n\nclass Special(Thing):\n    pass\n",
    # a compiled module's stub: no source beside it, its class is its own
    "ext/_speedups.pyi": "class Engine:\n    def spin(self) -> None: ...\n",
    "ext/engine.py": "class Engine:\n    def spin(self):\n        return 0\n",
    "use.py": "from pkg import Thing\n\nThing().run()\n",
}


def graph_of(git_repo: GitRepoFactory) -> tuple[Path, SymbolGraph]:
    root = git_repo(FILES)
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    return root, store.symbols


def jedi_definition(root: Path, line: int, column: int) -> tuple[str, int]:
    """What jedi infers the name at ``use.py``'s (line, column) to be: its file and line."""
    script = jedi.Script(path=str(root / "use.py"), project=jedi.Project(str(root)))
    (found,) = script.infer(line, column)
    return Path(found.module_path).relative_to(root).as_posix(), found.line


def test_a_class_a_stub_types_is_answered_from_its_source(git_repo: GitRepoFactory) -> None:
    root, graph = graph_of(git_repo)
    path, line = jedi_definition(root, 3, 0)  # Thing in `Thing().run()`
    assert path == "pkg/_impl.py"
    assert [(d.path, d.line) for d in graph.definitions("Thing")] == [
        ("pkg/__init__.pyi", 1), (path, line),
    ]  # fmt: skip  # both in the graph: the stub is indexed as Python

    methods = run_symbol_query(graph, SymbolArgs(operation="methods", name="Thing"), root)
    assert f"({path}:{line})" in methods.render()
    assert {i.path for i in methods.items} == {path}
    run_path, run_line = jedi_definition(root, 3, 8)  # run in `Thing().run()`
    assert (methods.items[0].path, methods.items[0].start_line) == (run_path, run_line)

    subclasses = run_symbol_query(graph, SymbolArgs(operation="subclasses", name="Thing"), root)
    assert [i.name for i in subclasses.items] == ["Special"]

    definition = run_symbol_query(graph, SymbolArgs(operation="definition", name="make"), root)
    assert not definition.ambiguous
    assert [(i.path, i.start_line) for i in definition.items] == [("pkg/_impl.py", 9)]


def test_a_stub_without_source_beside_it_is_a_definition_of_its_own(
    git_repo: GitRepoFactory,
) -> None:
    root, graph = graph_of(git_repo)
    with pytest.raises(SymbolToolError, match="several classes are named Engine"):
        run_symbol_query(graph, SymbolArgs(operation="methods", name="Engine"), root)
    definition = run_symbol_query(graph, SymbolArgs(operation="definition", name="Engine"), root)
    assert definition.ambiguous
    assert {i.path for i in definition.items} == {"ext/_speedups.pyi", "ext/engine.py"}
