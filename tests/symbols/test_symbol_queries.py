"""The symbol graph's queries on a small hand-checked repository: how a name may be written
(backticks, ``()``, dotted suffixes), call sites, importers, inherited methods in resolution
order, one file's definitions, and a save/load round trip. Every expected answer below was
read off the source text by hand (line numbers are in the comments)."""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from pathlib import Path

import pytest

from codeagent.index.chunking import parse_python
from codeagent.symbols.graph import FORMAT, SymbolGraph, extract_record
from codeagent.symbols.types import pack_calls, unpack_calls

REPO = {
    "app/__init__.py": "",
    "app/base.py": (
        "class Base:\n"  # 1
        "    def save(self):\n"  # 2
        "        return 1\n"  # 3
        "\n"  # 4
        "    def load(self):\n"  # 5
        "        return 2\n"  # 6
        "\n"  # 7
        "\n"  # 8
        "class Mixin:\n"  # 9
        "    def load(self):\n"  # 10
        "        return 3\n"  # 11
        "\n"  # 12
        "    def mix(self):\n"  # 13
        "        return 4\n"  # 14
    ),
    "app/models.py": (
        "from app.base import Base, Mixin\n"  # 1
        "import app.util\n"  # 2
        "\n"  # 3
        "\n"  # 4
        "class Cart(Mixin, Base):\n"  # 5
        "    def save(self):\n"  # 6
        "        app.util.check(self)\n"  # 7
        "        return super().save()\n"  # 8
        "\n"  # 9
        "\n"  # 10
        "class Rush(Cart, Base):\n"  # 11
        "    pass\n"  # 12
    ),
    "app/util.py": (
        "def check(obj):\n"  # 1
        "    return obj\n"  # 2
        "\n"  # 3
        "\n"  # 4
        "def util():\n"  # 5
        "    return check(None)\n"  # 6
    ),
    "scripts/run.py": (
        "from app import util\n"  # 1
        "from app.models import Cart\n"  # 2
        "\n"  # 3
        "util.check(Cart())\n"  # 4
    ),
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    root = tmp_path_factory.mktemp("queries")
    trees = {}
    for rel, text in REPO.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
        trees[rel] = parse_python(rel, text)
    return SymbolGraph.build(trees, root=root)


def names(definitions: list) -> list[str]:  # type: ignore[type-arg]
    return [d.full_name for d in definitions]


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Cart", ["app.models.Cart"]),
        ("`Cart`", ["app.models.Cart"]),
        ("Cart()", ["app.models.Cart"]),
        ("`check()`", ["app.util.check"]),
        ("  `Cart`  ", ["app.models.Cart"]),
        ("models.Cart.save", ["app.models.Cart.save"]),  # a three-part suffix
        ("Cart.save()", ["app.models.Cart.save"]),
        ("app.models.Cart.save", ["app.models.Cart.save"]),
        ("Base.save", ["app.base.Base.save"]),
        ("save", ["app.base.Base.save", "app.models.Cart.save"]),
        ("load", ["app.base.Base.load", "app.base.Mixin.load"]),
        ("util", ["app.util", "app.util.util"]),  # the module and the function so called
        ("odels.Cart", []),  # a suffix must start at a dot
        ("()", []),
        ("``", []),
    ],
)
def test_definitions_as_names_are_written(
    graph: SymbolGraph, written: str, expected: list[str]
) -> None:
    assert names(graph.definitions(written)) == expected


def test_callers_by_the_last_part_of_the_name(graph: SymbolGraph) -> None:
    expected = [("app/models.py", 7, "check", "Cart.save"), ("app/util.py", 6, "check", "util"),
                ("scripts/run.py", 4, "check", "")]  # fmt: skip
    for written in ("check", "`check()`", "util.check", "app.util.check", "x.y.check()"):
        found = [(c.path, c.line, c.name, c.scope) for c in graph.callers(written)]
        assert found == expected, written
    assert graph.callers("`Cart`") == graph.callers("Cart")
    assert [(c.path, c.line) for c in graph.callers("Cart")] == [("scripts/run.py", 4)]


def test_importers_of_a_module_and_of_a_name(graph: SymbolGraph) -> None:
    assert graph.importers("app.util") == ["app/models.py", "scripts/run.py"]
    assert graph.importers("app.base") == ["app/models.py"]
    assert graph.importers("Base") == ["app/models.py"]  # the bare name
    assert graph.importers("app.base.Base") == ["app/models.py"]  # the full name
    assert graph.importers("app.models.Cart") == ["scripts/run.py"]
    assert graph.importers("Mixin") == ["app/models.py"]
    assert graph.importers("nothing") == []
    assert graph.importers("other.Base") == []  # another module's Base is not this one
    assert graph.importers("util") == ["app/models.py", "scripts/run.py"]  # module and name
    assert graph.importers("Cart") == ["scripts/run.py"]
    assert graph.importers("app.util.check") == []  # check itself is never imported
    assert graph.importers("check") == []
    sites = [(i.path, i.line) for i in graph.import_sites("app.util")]
    assert sites == [("app/models.py", 2), ("scripts/run.py", 1)]


def python_owners(root: Path, module: str, cls: str) -> list[tuple[str, str | None]]:
    """What Python itself says: each method ``cls`` has, from the class its ``__mro__``
    finds it in first (own methods first, then in MRO order), as ``(full name, via)``."""
    sys.path.insert(0, str(root))
    try:
        loaded = importlib.import_module(module)
        target = getattr(loaded, cls)
        out: list[tuple[str, str | None]] = []
        seen: set[str] = set()
        for klass in target.__mro__[:-1]:  # object left out: not the repository's
            owner = f"{klass.__module__}.{klass.__qualname__}"
            for name, value in vars(klass).items():
                if inspect.isfunction(value) and name not in seen:
                    seen.add(name)
                    out.append((f"{owner}.{name}", None if klass is target else owner))
        return out
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == "app" or m.startswith("app.")]:
            del sys.modules[name]


def test_methods_in_pythons_resolution_order(graph: SymbolGraph, tmp_path: Path) -> None:
    """Rush(Cart, Base) with Cart(Mixin, Base): Python's C3 order is Rush, Cart, Mixin, Base,
    so Rush's ``load`` is Mixin's (breadth first would wrongly say Base's)."""
    for rel, text in REPO.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    for cls in ("Cart", "Rush"):
        found = [(d.full_name, via) for d, via in graph.methods(cls)]
        assert found == python_owners(tmp_path, "app.models", cls), cls
    assert ("app.base.Mixin.load", "app.base.Mixin") in [
        (d.full_name, via) for d, via in graph.methods("Rush")
    ]
    own = [(d.full_name, via) for d, via in graph.methods("Cart", inherited=False)]
    assert own == [("app.models.Cart.save", None)]
    assert graph.methods("check") == []  # not a class


def test_classes_python_refuses_fall_back_to_breadth_first(tmp_path: Path) -> None:
    """No C3 order exists for ``class C(A, B)`` when ``B`` derives from ``A`` (Python raises
    TypeError); the graph still answers, breadth first."""
    text = (
        "class A:\n    def a(self):\n        pass\n\n\n"
        "class B(A):\n    def b(self):\n        pass\n\n\n"
        "class C(A, B):\n    pass\n\n\n"
        "class D(D):\n    def d(self):\n        pass\n"
    )
    graph = SymbolGraph.build({"m.py": parse_python("m.py", text)}, root=tmp_path)
    assert [(d.full_name, via) for d, via in graph.methods("C")] == [
        ("m.A.a", "m.A"),
        ("m.B.b", "m.B"),
    ]
    assert [(d.full_name, via) for d, via in graph.methods("D")] == [("m.D.d", None)]


def test_a_class_with_a_base_outside_the_repository(tmp_path: Path) -> None:
    text = (
        "class E(Exception):\n    def e(self):\n        pass\n\n\nclass F(E, KeyError):\n    pass\n"
    )
    graph = SymbolGraph.build({"m.py": parse_python("m.py", text)}, root=tmp_path)
    assert [(d.full_name, via) for d, via in graph.methods("E")] == [("m.E.e", None)]
    assert [(d.full_name, via) for d, via in graph.methods("F")] == [("m.E.e", "m.E")]


def test_subclasses_direct_and_transitive(graph: SymbolGraph) -> None:
    assert names(graph.subclasses("Base")) == ["app.models.Cart", "app.models.Rush"]
    assert names(graph.subclasses("Mixin")) == ["app.models.Cart"]
    assert names(graph.subclasses("Mixin", transitive=True)) == [
        "app.models.Cart",
        "app.models.Rush",
    ]
    assert names(graph.subclasses("ixin")) == []


def test_one_files_definitions_in_source_order(graph: SymbolGraph) -> None:
    found = [(d.full_name, d.kind, d.start_line) for d in graph.definitions_in("app/base.py")]
    assert found == [
        ("app.base.Base", "class", 1),
        ("app.base.Base.save", "method", 2),
        ("app.base.Base.load", "method", 5),
        ("app.base.Mixin", "class", 9),
        ("app.base.Mixin.load", "method", 10),
        ("app.base.Mixin.mix", "method", 13),
    ]
    assert graph.definitions_in("app/__init__.py") == []
    assert graph.definitions_in("nowhere.py") == []


def test_a_saved_graph_answers_alike(graph: SymbolGraph, tmp_path: Path) -> None:
    graph.save(tmp_path)
    loaded = SymbolGraph.load(tmp_path)
    for query in ("Cart", "save", "util", "models.Cart.save"):
        assert names(loaded.definitions(query)) == names(graph.definitions(query)), query
    assert loaded.callers("check") == graph.callers("check")
    assert loaded.importers("app.util") == graph.importers("app.util")
    assert loaded.records() == graph.records()
    assert names(SymbolGraph.load(tmp_path / "nothing-saved").definitions("Cart")) == []
    (tmp_path / "symbols.json").write_text('{"format": -1}', encoding="utf-8")
    with pytest.raises(ValueError, match="unknown symbols format"):
        SymbolGraph.load(tmp_path)
    (tmp_path / "symbols.json").write_text("[]", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown symbols format"):
        SymbolGraph.load(tmp_path)
    no_files = {"format": FORMAT, "files": []}  # the right format, files not a mapping
    (tmp_path / "symbols.json").write_text(json.dumps(no_files), encoding="utf-8")
    with pytest.raises(ValueError, match=r"symbols\.json: unknown symbols format$"):
        SymbolGraph.load(tmp_path)


def test_records_give_each_file_its_own_call_sites(graph: SymbolGraph) -> None:
    records = graph.records()
    assert set(records) == set(REPO)
    assert sorted(unpack_calls(records["app/util.py"]["c"])) == [(6, "check", 1)]
    assert sorted(c[:2] for c in unpack_calls(records["scripts/run.py"]["c"])) == [
        (4, "Cart"),
        (4, "check"),
    ]
    sites = [[9, "b", -1], [3, "a", 0], [9, "a", 2]]
    assert pack_calls(sites) == [["b", "a"], [9, 0, -1, 3, 1, 0, 9, 1, 2]]  # each name once
    assert [list(c) for c in unpack_calls(pack_calls(sites))] == sites
    rebuilt = SymbolGraph.build({}, root=Path("."), reused=records)
    assert rebuilt.callers("check") == graph.callers("check")


def test_a_deeply_nested_expression_is_read_with_a_deeper_stack(tmp_path: Path) -> None:
    """2,000 chained ``+`` nest deeper than the default recursion limit allows a tree walk:
    the file is read again with a deeper stack (and the limit is put back)."""
    body = " + ".join(["h(1)"] * 2000)
    text = f"def f():\n    return g({body})\n\n\ndef g(x):\n    return x\n"
    limit = sys.getrecursionlimit()
    graph = SymbolGraph.build({"deep.py": parse_python("deep.py", text)}, root=tmp_path)
    assert sys.getrecursionlimit() == limit
    assert names(graph.definitions_in("deep.py")) == ["deep.f", "deep.g"]
    calls = graph.callers("h")
    assert len(calls) == text.count("h(1)")
    assert {(c.path, c.line, c.scope) for c in calls} == {("deep.py", 2, "f")}
    assert [(c.line, c.scope) for c in graph.callers("g")] == [(2, "f")]


def test_a_reused_record_is_checked_against_its_module_name(
    graph: SymbolGraph, tmp_path: Path
) -> None:
    records = graph.records()
    records["app/util.py"] = {**records["app/util.py"], "m": "elsewhere.util"}
    expected = "app/util.py: reused symbols are for module elsewhere.util"
    with pytest.raises(ValueError, match=f"^{expected}$"):
        SymbolGraph.build({}, root=Path("."), reused=records)


def test_a_record_names_its_module_from_the_folders_on_disk(tmp_path: Path) -> None:
    """pkg/__init__.py exists (empty, so never indexed): pkg/mod.py is the module pkg.mod."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    text = "import os\n\n\ndef f():\n    return os.sep\n"
    record = extract_record(parse_python("pkg/mod.py", text), "pkg/mod.py", tmp_path)
    assert record["m"] == "pkg.mod"
    assert [row[0] for row in record["d"]] == ["f"]
