"""Who overrides a method, against Python itself: the package below is imported in a fresh
interpreter, and its classes' ``__dict__`` and ``__mro__`` say which classes define a method
again and whose method each replaces; the symbol tool's answer must say the same. Asked end to
end too: the rule router sends the question to the graph."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query
from codeagent.workspace import Workspace
from conftest import GitRepoFactory
from oracle_marks import committed
from oracle_marks import indexed as graph_of

FILES = {
    "shapes/__init__.py": "",
    "shapes/base.py": (
        "class Shape:\n"
        "    def area(self):\n"
        "        return 0\n"
        "\n"
        "    def describe(self):\n"
        "        return 'shape'\n"
        "\n"
        "\n"
        "class Named:\n"
        "    def describe(self):\n"
        "        return 'named'\n"
    ),
    "shapes/flat.py": (
        "from shapes.base import Named, Shape\n"
        "\n"
        "\n"
        "class Square(Shape):\n"
        "    def area(self):\n"
        "        return 1\n"
        "\n"
        "\n"
        "class Label(Named, Shape):\n"
        "    def describe(self):\n"
        "        return 'label'\n"
        "\n"
        "\n"
        "class Plain(Shape):\n"
        "    pass\n"
    ),
    "shapes/deep.py": (
        "from shapes import flat\n"
        "\n"
        "\n"
        "class Tile(flat.Square):\n"
        "    @property\n"
        "    def corners(self):\n"
        "        return 4\n"
        "\n"
        "\n"
        "class Stamp(flat.Plain):\n"
        "    def area(self):\n"
        "        return 2\n"
        "\n"
        "    def describe(self):\n"
        "        return 'stamp'\n"
        "\n"
        "\n"
        "class Bag(dict):\n"
        "    def __getitem__(self, key):\n"
        "        return 0\n"
        "\n"
        "\n"
        "class Tote(Bag):\n"
        "    def __getitem__(self, key):\n"
        "        return 1\n"
    ),
}
# For each class of the package: the methods it defines itself, and its method order (the
# package's classes only), by qualified name.
PROBE = """
import importlib, inspect, json, sys
sys.path.insert(0, sys.argv[1])
out = {}
for name in ("shapes.base", "shapes.flat", "shapes.deep"):
    module = importlib.import_module(name)
    for cls in vars(module).values():
        if inspect.isclass(cls) and cls.__module__ == name:
            own = [k for k, v in vars(cls).items() if inspect.isfunction(v)]
            mro = [c.__qualname__ for c in cls.__mro__ if c.__module__.startswith("shapes")]
            out[cls.__qualname__] = {"own": own, "mro": mro}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def python_says(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[str]]]:
    root = tmp_path_factory.mktemp("shapes")
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(root)], capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def overrides(python: dict[str, dict[str, list[str]]], cls: str, method: str) -> set[str]:
    """The classes that derive from ``cls`` and define ``method`` again, as Python says."""
    return {
        f"{name}.{method}"
        for name, c in python.items()
        if cls in c["mro"][1:] and method in c["own"]
    }


def replaced(python: dict[str, dict[str, list[str]]], cls: str, method: str) -> str | None:
    """Whose ``method`` the one ``cls`` defines replaces: the first base in method order."""
    for base in python[cls]["mro"][1:]:
        if method in python[base]["own"]:
            return f"{base}.{method}"
    return None


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SymbolGraph]:
    root = committed(tmp_path_factory, "overrides", FILES)
    return root, graph_of(root)


@pytest.mark.parametrize(
    ("cls", "method"),
    [("Shape", "area"), ("Shape", "describe"), ("Named", "describe"), ("Square", "area"),
     ("Bag", "__getitem__"), ("Plain", "area")],
)  # fmt: skip
def test_overrides_of_a_class_method_are_what_python_says(
    python_says: dict[str, dict[str, list[str]]],
    indexed: tuple[Path, SymbolGraph],
    cls: str,
    method: str,
) -> None:
    root, graph = indexed
    result = run_symbol_query(
        graph, SymbolArgs(operation="overrides", name=f"{cls}.{method}"), root
    )
    truth = overrides(python_says, cls, method)
    assert {i.name for i in result.items} == truth
    for item in result.items:
        assert item.via == replaced(python_says, item.name.rpartition(".")[0], method), item.name
    assert f"in its subclasses: {len(truth)}" in result.render()


@pytest.mark.parametrize("method", ["area", "describe", "__getitem__"])
def test_every_method_of_a_name_and_what_it_overrides(
    python_says: dict[str, dict[str, list[str]]], indexed: tuple[Path, SymbolGraph], method: str
) -> None:
    root, graph = indexed
    result = run_symbol_query(graph, SymbolArgs(operation="overrides", name=method), root)
    defined = {name for name, c in python_says.items() if method in c["own"]}
    assert {i.name.rpartition(".")[0] for i in result.items} == defined
    for item in result.items:
        assert item.via == replaced(python_says, item.name.rpartition(".")[0], method)
    over = sum(1 for name in defined if replaced(python_says, name, method))
    assert f"{len(defined)}, {over} overriding a base's" in result.render()


def test_a_method_no_class_has_is_refused(indexed: tuple[Path, SymbolGraph]) -> None:
    root, graph = indexed
    with pytest.raises(SymbolToolError, match="no method named corners2"):
        run_symbol_query(graph, SymbolArgs(operation="overrides", name="corners2"), root)


@pytest.mark.parametrize(
    "question",
    ["who overrides Shape.area?", "which classes override area?", "what overrides Shape.area?",
     "where is Shape.area overridden?"],
)  # fmt: skip
def test_asked_as_a_user_asks_it(git_repo: GitRepoFactory, tmp_path: Path, question: str) -> None:
    agent = Workspace(git_repo(FILES), Settings(home=tmp_path / "h", llm="none", embed="none"))
    result = agent.ask(question)
    assert result.fallback is None, result.answer
    assert (result.route.tool, result.route.args["operation"]) == ("symbols", "overrides")
    assert "Square.area" in result.answer
    assert "Stamp.area" in result.answer
    assert "[overrides Shape.area]" in result.answer
    assert {s.path for s in result.sources} >= {"shapes/flat.py", "shapes/deep.py"}
