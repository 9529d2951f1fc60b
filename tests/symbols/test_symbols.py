"""The repository symbol graph: a hand-checked golden repository, then the standard library
against ``pyclbr`` (definitions) and ``__subclasses__`` (subclasses)."""

from __future__ import annotations

import importlib
import inspect
import pyclbr
import sys
import sysconfig
from pathlib import Path

import pytest

from codeagent.index.chunking import parse_python
from codeagent.symbols.graph import SymbolGraph

GOLDEN = {
    "src/shop/__init__.py": "from .models import Cart as Cart\n",
    "src/shop/base.py": (
        "class Base:\n"  # 1
        "    def save(self):\n"  # 2
        "        return self.validate()\n"  # 3
        "\n"  # 4
        "    def validate(self):\n"  # 5
        "        return True\n"  # 6
    ),
    "src/shop/models.py": (
        "from . import base\n"  # 1
        "from .base import Base as B\n"  # 2
        "import shop.util as u\n"  # 3
        "\n"  # 4
        "\n"  # 5
        "class Cart(base.Base):\n"  # 6
        '    """A cart.\n'  # 7
        "\n"  # 8
        '    More."""\n'  # 9
        "\n"  # 10
        "    def validate(self):\n"  # 11
        "        return u.check(self)\n"  # 12
        "\n"  # 13
        "\n"  # 14
        "class Order(B):\n"  # 15
        "    @property\n"  # 16
        "    def total(self) -> int:\n"  # 17
        "        return u.total(self)\n"  # 18
        "\n"  # 19
        "\n"  # 20
        "class Rush(Order):\n"  # 21
        "    pass\n"  # 22
    ),
    "src/shop/util.py": (
        "from shop.base import Base as Parent\n"  # 1
        "\n"  # 2
        "def check(obj):\n"  # 3
        "    return obj.save()\n"  # 4
        "\n"  # 5
        "def total(obj, n=1):\n"  # 6
        "    def inner():\n"  # 7
        "        return check(obj)\n"  # 8
        "    return inner()\n"  # 9
        "\n"  # 10
        "class Other(Parent, Exception):\n"  # 11
        "    pass\n"  # 12
    ),
    "scripts/run.py": "from shop import Cart\nfrom shop.util import check as c\nc(Cart())\n",
}


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    root = tmp_path_factory.mktemp("golden") / "repo"
    trees = {}
    for rel, text in GOLDEN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
        trees[rel] = parse_python(rel, text)
    return SymbolGraph.build(trees, root=root)


def test_modules_are_named_from_the_src_layout(golden: SymbolGraph) -> None:
    assert golden.modules == {
        "run": "scripts/run.py",
        "shop": "src/shop/__init__.py",
        "shop.base": "src/shop/base.py",
        "shop.models": "src/shop/models.py",
        "shop.util": "src/shop/util.py",
    }


def test_definitions_by_name_qualified_name_and_dotted_path(golden: SymbolGraph) -> None:
    (cart,) = golden.definitions("Cart")
    assert (cart.path, cart.start_line, cart.end_line, cart.kind) == (
        "src/shop/models.py",
        6,
        12,
        "class",
    )
    assert (cart.doc, cart.signature, cart.bases) == (
        "A cart.",
        "class Cart(base.Base)",
        ("base.Base",),
    )
    validate = [(d.full_name, d.line) for d in golden.definitions("validate")]
    assert validate == [("shop.base.Base.validate", 5), ("shop.models.Cart.validate", 11)]
    assert [d.full_name for d in golden.definitions("Cart.validate")] == [
        "shop.models.Cart.validate"
    ]
    # a re-export is followed to the defining module
    assert [d.full_name for d in golden.definitions("shop.Cart")] == ["shop.models.Cart"]
    (total,) = golden.definitions("Order.total")
    assert (total.start_line, total.line, total.signature) == (16, 17, "def total(self) -> int")
    assert [d.full_name for d in golden.definitions("inner")] == ["shop.util.total.inner"]
    assert golden.files_defining("total") == ["src/shop/models.py", "src/shop/util.py"]
    assert golden.definitions("nothing") == []


def test_subclasses_resolve_bases_through_imports_and_aliases(golden: SymbolGraph) -> None:
    direct = [d.full_name for d in golden.subclasses("Base")]
    assert direct == ["shop.models.Cart", "shop.models.Order", "shop.util.Other"]
    every = [d.full_name for d in golden.subclasses("Base", transitive=True)]
    assert every == ["shop.models.Cart", "shop.models.Order", "shop.models.Rush", "shop.util.Other"]
    assert [d.full_name for d in golden.subclasses("Exception")] == ["shop.util.Other"]


def test_methods_include_inherited_ones_marked(golden: SymbolGraph) -> None:
    methods = [(d.full_name, via) for d, via in golden.methods("Cart")]
    assert methods == [
        ("shop.models.Cart.validate", None),
        ("shop.base.Base.save", "shop.base.Base"),
    ]
    rush = [(d.name, via) for d, via in golden.methods("Rush")]
    assert rush == [("total", "shop.models.Order"), ("save", "shop.base.Base"),
                    ("validate", "shop.base.Base")]  # fmt: skip
    assert [d.name for d, _ in golden.methods("Rush", inherited=False)] == []


def test_call_sites_by_name_with_aliases_undone(golden: SymbolGraph) -> None:
    check = [(c.path, c.line, c.scope) for c in golden.callers("check")]
    assert check == [
        ("scripts/run.py", 3, ""),
        ("src/shop/models.py", 12, "Cart.validate"),
        ("src/shop/util.py", 8, "total.inner"),
    ]
    assert [(c.path, c.line) for c in golden.callers("Base.validate")] == [("src/shop/base.py", 3)]
    assert [(c.path, c.scope) for c in golden.callers("save")] == [("src/shop/util.py", "check")]


def test_imports_and_importers(golden: SymbolGraph) -> None:
    models = [(i.line, i.module, i.name, i.alias) for i in golden.imports_of("shop.models")]
    assert models == [
        (1, "shop", "base", None),
        (2, "shop.base", "Base", "B"),
        (3, "shop.util", None, "u"),
    ]
    assert golden.importers("shop.base") == ["src/shop/models.py", "src/shop/util.py"]
    assert golden.importers("Cart") == ["scripts/run.py", "src/shop/__init__.py"]
    assert golden.importers("shop.util") == ["scripts/run.py", "src/shop/models.py"]


def test_the_graph_survives_a_save_and_load(golden: SymbolGraph, tmp_path: Path) -> None:
    golden.save(tmp_path)
    loaded = SymbolGraph.load(tmp_path)
    assert loaded.files == golden.files
    assert loaded.callers("check") == golden.callers("check")
    assert [d.full_name for d in loaded.subclasses("Base", transitive=True)] == [
        d.full_name for d in golden.subclasses("Base", transitive=True)
    ]


# -- the standard library: truth from pyclbr and from the imported classes ----------------------

STDLIB = Path(sysconfig.get_paths()["stdlib"])
PACKAGES = ["email", "logging", "json", "http", "concurrent"]


def _graph(package: str) -> SymbolGraph:
    root = STDLIB / package
    trees = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = parse_python(rel, path.read_text(encoding="utf-8"))
        if tree is not None:
            trees[rel] = tree
    return SymbolGraph.build(trees, root=root)


@pytest.fixture(autouse=True)
def _plain_import_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyclbr finds modules through sys.meta_path; pytest's assertion-rewriting finder there
    fails on some standard-library names, so it is left out while these tests run."""
    finders = [f for f in sys.meta_path if type(f).__name__ != "AssertionRewritingHook"]
    monkeypatch.setattr(sys, "meta_path", finders)


def _pyclbr(module: str) -> set[tuple[str, int]]:
    out: set[tuple[str, int]] = set()

    def walk(objects: dict, prefix: str) -> None:
        for name, obj in objects.items():
            if isinstance(obj, pyclbr.Function | pyclbr.Class) and obj.module == module:
                out.add((f"{module}.{prefix}{name}", obj.lineno))
                walk(obj.children, f"{prefix}{name}.")

    walk(pyclbr.readmodule_ex(module), "")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("package", PACKAGES)
def test_definitions_match_pyclbr(package: str) -> None:
    graph = _graph(package)
    compared = 0
    for path, record in graph.files.items():
        module = record["m"]
        truth = _pyclbr(module)
        mine = {(d.full_name, d.line) for d in graph.definitions_in(path)}
        # pyclbr keeps one of two same-named definitions in one scope: compare the names of
        # those, and name and line of the rest.
        names = [d.full_name for d in graph.definitions_in(path)]
        twice = {n for n in names if names.count(n) > 1}
        assert {n for n, _ in truth} == {n for n, _ in mine}, path
        assert {t for t in truth if t[0] not in twice} <= mine, path
        compared += len(truth)
    assert compared > 20


def _classes(package: str) -> dict[str, type]:
    found: dict[str, type] = {}
    for path in sorted((STDLIB / package).rglob("*.py")):
        rel = path.relative_to(STDLIB).with_suffix("").as_posix().removesuffix("/__init__")
        name = rel.replace("/", ".")
        if "test" in name or name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for bound, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == name and bound == cls.__name__:
                found[f"{name}.{cls.__qualname__}"] = cls
    return found


@pytest.mark.slow
@pytest.mark.parametrize("package", ["logging", "email", "http", "concurrent"])
def test_subclasses_match_the_imported_classes(package: str) -> None:
    graph = _graph(package)
    classes = _classes(package)
    names = {cls: key for key, cls in classes.items()}
    checked = 0
    for key, cls in classes.items():
        want = {names[s] for s in cls.__subclasses__() if s in names}
        got = {d.full_name for d in graph.subclasses(key)} & set(classes)
        assert got == want, key
        checked += len(want)
    assert checked > 5


SUFFIXES = {
    "errs/__init__.py": "",
    # outside classes whose names end alike: Exception / BaseException / MyException
    "errs/kinds.py": (
        "class Plain(Exception):\n    pass\n\n\n"
        "class Fatal(BaseException):\n    pass\n\n\n"
        "class Mine(MyException):\n    pass\n\n\n"
        "class Both(ValueError, Exception):\n    pass\n"
    ),
    # a class of the repository whose name ends another's: Error and AppError
    "errs/base.py": (
        "class Error(Exception):\n    pass\n\n\n"
        "class AppError(Exception):\n    pass\n\n\n"
        "class Disk(Error):\n    pass\n\n\n"
        "class Net(AppError):\n    pass\n"
    ),
}


def test_subclass_lookup_matches_whole_names_only(tmp_path: Path) -> None:
    """A base is matched by its whole name: ``Exception`` is not ``BaseException``, ``Error``
    is not ``AppError``. Truth: the bases as ``pyclbr`` reads them from the same files."""
    trees = {}
    for rel, text in SUFFIXES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
        trees[rel] = parse_python(rel, text)
    graph = SymbolGraph.build(trees, root=tmp_path)

    def base_names(cls: pyclbr.Class) -> set[str]:
        return {b if isinstance(b, str) else b.name for b in cls.super}

    read = {
        f"errs.{module}.{name}": base_names(obj)
        for module in ("kinds", "base")
        for name, obj in pyclbr.readmodule_ex(f"errs.{module}", [str(tmp_path)]).items()
        if isinstance(obj, pyclbr.Class)
    }
    for base in ("Exception", "BaseException", "MyException", "Error", "AppError"):
        expected = sorted(full for full, bases in read.items() if base in bases)
        assert expected, base
        assert sorted(d.full_name for d in graph.subclasses(base)) == expected, base
