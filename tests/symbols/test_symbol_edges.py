"""The symbol graph at its edges: a repository whose root is itself a package, a class in a
root ``__init__.py`` of a graph built without a root, nested classes, names that begin with
the letter X written in backticks, a bare name that is also a top-level module, outside
classes named by a dotted suffix, a base outside the repository in another language, and a
Rust type whose ``impl`` blocks come before it. Truth: Python's own import system and class
objects, and answers read off the sources by hand (line numbers in the comments)."""

from __future__ import annotations

import importlib
import inspect
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.index.chunking import parse_python
from codeagent.index.per_file import parse_one
from codeagent.symbols.graph import SymbolGraph

SHOP_INIT = (
    "from .models import Cart\n"  # 1
    "\n"  # 2
    "\n"  # 3
    "class Shelf:\n"  # 4
    "    def put(self):\n"  # 5
    "        return 1\n"  # 6
    "\n"  # 7
    "    class Inner:\n"  # 8
    "        def deep(self):\n"  # 9
    "            return 2\n"  # 10
)
SHOP_MODELS = "class Cart:\n    def total(self):\n        return 1\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")


def _python_graph(root: Path, files: dict[str, str]) -> SymbolGraph:
    _write(root, files)
    return SymbolGraph.build({p: parse_python(p, t) for p, t in files.items()}, root=root)


def _any_graph(root: Path, files: dict[str, str]) -> SymbolGraph:
    """The graph from each file's record, as a build makes it (any language)."""
    _write(root, files)
    records = {p: parse_one(p, t, root).record for p, t in files.items()}
    return SymbolGraph.build({}, root=root, reused={p: r for p, r in records.items() if r})


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    _write(root, {"__init__.py": SHOP_INIT, "models.py": SHOP_MODELS})
    return root


def test_a_root_that_is_a_package_reads_its_init_relative_to_itself(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The root's own ``__init__.py`` is the package: ``.models`` is ``shop.models``."""
    graph = _python_graph(shop, {"__init__.py": SHOP_INIT, "models.py": SHOP_MODELS})
    monkeypatch.syspath_prepend(str(shop.parent))
    monkeypatch.delitem(sys.modules, "shop", raising=False)
    monkeypatch.delitem(sys.modules, "shop.models", raising=False)
    cart = importlib.import_module("shop").Cart
    assert [(i.line, i.target) for i in graph.imports_of("__init__.py")] == [
        (1, f"{cart.__module__}.{cart.__qualname__}")
    ]
    assert graph.importers("shop.models") == ["__init__.py"]


def test_methods_of_a_class_in_a_root_init_of_a_graph_built_without_a_root() -> None:
    """Without a root, a root ``__init__.py`` is a module of its own: its class's methods are
    those Python gives the class (the nested class's are not among them)."""
    graph = SymbolGraph.build({"__init__.py": parse_python("__init__.py", SHOP_INIT)})
    namespace: dict[str, object] = {"__name__": "shelf_check", "__package__": None}
    exec(compile(SHOP_INIT.replace("from .models import Cart\n", ""), "s", "exec"), namespace)
    shelf = namespace["Shelf"]
    own = [n for n, v in vars(shelf).items() if inspect.isfunction(v)]
    assert [(d.name, d.start_line) for d, via in graph.methods("Shelf")] == [("put", 5)]
    assert [d.name for d, _ in graph.methods("Shelf")] == own


def test_a_nested_class_keeps_its_methods(shop: Path) -> None:
    graph = _python_graph(shop, {"__init__.py": SHOP_INIT, "models.py": SHOP_MODELS})
    assert [(d.full_name, via) for d, via in graph.methods("Shelf")] == [("shop.Shelf.put", None)]
    assert [(d.full_name, d.start_line) for d, _ in graph.methods("Inner")] == [
        ("shop.Shelf.Inner.deep", 9)
    ]


XML = {
    "parsers/__init__.py": "",
    "parsers/xml.py": (
        "class XMLParser:\n"  # 1
        "    def feed(self, data):\n"  # 2
        "        return data\n"  # 3
        "\n"  # 4
        "\n"  # 5
        "def MAX():\n"  # 6
        "    return XMLParser()\n"  # 7
    ),
    "tools.py": "def run():\n    return MAX()\n",  # a top-level module named tools
    "app/__init__.py": "",
    "app/cli.py": (
        "from parsers.xml import XMLParser, MAX\n"  # 1
        "\n"  # 2
        "\n"  # 3
        "def tools():\n"  # 4
        "    return XMLParser().feed(MAX())\n"  # 5
    ),
}


@pytest.mark.parametrize("written", ["XMLParser", "`XMLParser`", "XMLParser()", "`XMLParser()`"])
def test_a_name_beginning_with_x_in_backticks(tmp_path: Path, written: str) -> None:
    graph = _python_graph(tmp_path, XML)
    assert [(d.path, d.start_line) for d in graph.definitions(written)] == [("parsers/xml.py", 1)]
    assert [(c.path, c.line, c.scope) for c in graph.callers(written)] == [
        ("app/cli.py", 5, "tools"),
        ("parsers/xml.py", 7, "MAX"),
    ]


@pytest.mark.parametrize("written", ["MAX", "`MAX`", "MAX()"])
def test_a_name_ending_in_x_in_backticks(tmp_path: Path, written: str) -> None:
    graph = _python_graph(tmp_path, XML)
    assert [(d.path, d.start_line) for d in graph.definitions(written)] == [("parsers/xml.py", 6)]
    calls = [(c.path, c.line) for c in graph.callers(written)]
    assert calls == [("app/cli.py", 5), ("tools.py", 2)]


def test_a_bare_name_is_every_definition_so_called_a_top_level_module_too(
    tmp_path: Path,
) -> None:
    graph = _python_graph(tmp_path, XML)
    assert [(d.kind, d.path) for d in graph.definitions("tools")] == [
        ("function", "app/cli.py"),
        ("module", "tools.py"),
    ]


def test_an_outside_class_is_found_by_its_dotted_suffix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``class FileLog(logging.Handler)``: asked for ``Handler``, the class is found."""
    files = {
        "logs.py": (
            "import logging\n"  # 1
            "\n"  # 2
            "\n"  # 3
            "class FileLog(logging.Handler):\n"  # 4
            "    pass\n"  # 5
            "\n"  # 6
            "\n"  # 7
            "class Quiet(logging.Filter):\n"  # 8
            "    pass\n"  # 9
        )
    }
    graph = _python_graph(tmp_path, files)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "logs", raising=False)
    logs = importlib.import_module("logs")
    expected = [n for n in ("FileLog", "Quiet") if issubclass(getattr(logs, n), logging.Handler)]
    assert [d.name for d in graph.subclasses("Handler")] == expected == ["FileLog"]
    assert [d.name for d in graph.subclasses("logging.Handler")] == ["FileLog"]


def test_methods_of_a_class_whose_base_is_outside_the_repository(tmp_path: Path) -> None:
    """TypeScript and Java classes extending a class the repository does not define."""
    files = {
        "web/errors.ts": (
            "export class HttpError extends Error {\n"  # 1
            "  status(): number {\n"  # 2
            "    return 500;\n"  # 3
            "  }\n"  # 4
            "}\n"  # 5
        ),
        "src/Job.java": (
            "class Job extends Thread {\n"  # 1
            "    void launch() {}\n"  # 2
            "}\n"  # 3
        ),
    }
    graph = _any_graph(tmp_path, files)
    assert [(d.name, d.start_line, via) for d, via in graph.methods("HttpError")] == [
        ("status", 2, None)
    ]
    assert [(d.name, d.start_line, via) for d, via in graph.methods("Job")] == [("launch", 2, None)]


RUST_TRAIT = "pub trait Display {\n    fn fmt(&self);\n    fn show(&self) {}\n}\n"
RUST_TRAIT_IMPL = "impl Display for Router {\n    fn fmt(&self) {}\n}\n"
RUST_OWN_IMPL = "impl Router {\n    pub fn add(&self) {}\n}\n"
RUST_STRUCT = "pub struct Router {\n    n: u32,\n}\n"


def _rust_methods(tmp_path: Path, name: str, *parts: str) -> list[tuple[str, str | None]]:
    graph = _any_graph(tmp_path / name, {"src/lib.rs": "\n".join(parts)})
    return sorted((d.name, via) for d, via in graph.methods("Router"))


def test_rust_methods_do_not_depend_on_where_the_impl_blocks_stand(tmp_path: Path) -> None:
    """The type a question names is the struct, not an ``impl`` block, whichever comes
    first in the file: the answer is the same in every order."""
    struct_first = _rust_methods(
        tmp_path, "a", RUST_STRUCT, RUST_TRAIT_IMPL, RUST_OWN_IMPL, RUST_TRAIT
    )
    impls_first = _rust_methods(
        tmp_path, "b", RUST_TRAIT_IMPL, RUST_OWN_IMPL, RUST_STRUCT, RUST_TRAIT
    )
    # `show` is Display's default method: Router has it through `impl Display for Router`
    assert struct_first == [("add", None), ("fmt", None), ("show", "src/lib.rs.Display")]
    assert impls_first == struct_first


RUST_CRATE = (
    "pub trait Display {\n    fn fmt(&self);\n    fn show(&self) {}\n}\n"
    "pub trait Debug {\n    fn dump(&self) {}\n}\n"
    "pub struct Router {\n    pub n: u32,\n}\n"
    "impl Display for Router {\n    fn fmt(&self) {}\n}\n"
    "impl Router {\n    pub fn add(&self) {}\n}\n"
    "pub struct Other;\n"
    "impl Debug for Other {}\n"
)


def _compiles(tmp_path: Path, calls: list[str]) -> subprocess.CompletedProcess[str]:
    """rustc on the crate with a function calling each of ``calls`` on a Router."""
    probe = "pub fn probe(r: &Router) {\n" + "".join(f"    r.{c}();\n" for c in calls) + "}\n"
    source = tmp_path / "probe.rs"
    source.write_text(RUST_CRATE + probe, encoding="utf-8")
    return subprocess.run(
        ["rustc", "--edition", "2021", "--crate-type", "lib", "--emit", "metadata",
         "-o", str(tmp_path / "probe.rmeta"), str(source)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _rustc_runs() -> bool:
    """rustc is there and has a toolchain (a rustup shim in a fresh home has none)."""
    if shutil.which("rustc") is None:
        return False
    done = subprocess.run(["rustc", "--version"], capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.skipif(not _rustc_runs(), reason="the Rust compiler is the truth")
def test_rust_methods_are_those_the_compiler_finds(tmp_path: Path) -> None:
    """Every method listed for Router is one rustc lets a Router call, the trait's default
    method included; a default method of a trait Router does not implement is neither."""
    graph = _any_graph(tmp_path / "repo", {"src/lib.rs": RUST_CRATE})
    listed = sorted(d.name for d, _via in graph.methods("Router"))
    assert listed == ["add", "fmt", "show"]
    assert [via for d, via in graph.methods("Router") if d.name == "show"] == ["src/lib.rs.Display"]
    done = _compiles(tmp_path, listed)
    assert done.returncode == 0, done.stderr
    refused = _compiles(tmp_path, ["dump"])
    assert refused.returncode != 0
    assert "no method named `dump`" in refused.stderr


RUST_PATHS = """\
mod client {
    pub trait Upgraded {}
    pub struct Error;
    pub struct Failure;
    impl std::error::Error for Failure {}
    pub trait Exec: super::Upgraded {}
    pub trait Own: self::Upgraded {}
}

pub trait Upgraded {}
"""


def test_a_rust_path_names_the_type_of_its_module(tmp_path: Path) -> None:
    # The Rust reference's paths: `super::Upgraded` from module `client` is the crate root's
    # trait, `self::Upgraded` client's own; `std::error::Error` is the standard library's,
    # not client's struct `Error` (each was taken for the first type of its last name)
    graph = _any_graph(tmp_path / "repo", {"src/lib.rs": RUST_PATHS})
    assert {d.name for d in graph.subclasses("src/lib.rs.Upgraded")} == {"Exec"}
    assert {d.name for d in graph.subclasses("client.Upgraded")} == {"Own"}
    assert graph.subclasses("client.Error") == []
