"""Rust call sites tied to what the code states, against rustc: a small real git repository
(a crate of four modules), indexed as a user's would be, and the compiler's answer for every
call in it (its type-checked tree, read by ``eval/rust_references_truth.py``). Each marked
call must land where rustc lands; a mark ``-`` is a call whose receiver's type the code does
not state there (an ``if let`` binding, a closure), or that rustc ties elsewhere than the type
(a ``&mut T``'s method of another crate's trait): it stays by name. And no call of the crate
is tied anywhere rustc does not tie it."""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from codeagent.symbols import rust_targets
from codeagent.symbols.graph import SymbolGraph
from oracle_marks import Answers, committed, indexed, lands, marked, tied_only_where

ORACLE = Path(__file__).resolve().parents[2] / "eval" / "rust_references_truth.py"
FILES = {
    "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": (
        "pub mod shape;\n"
        "pub mod store;\n"
        "pub mod util;\n"
        "\n"
        "use crate::store::Store;\n"
        "use crate::util::text::{upper as up};\n"
        "\n"
        "pub type Shop = Store;\n"
        "\n"
        "pub fn open(name: &str) -> Option<String> {\n"
        "    let s = Store::new(name); // @use-path new\n"
        '    let _ = s.get("k"); // @let-from-call get\n'
        '    let _ = Shop::new("b"); // @alias new\n'
        "    let _ = up(name); // @renamed-use up\n"
        "    let _ = util::text::upper(name); // @module-path upper\n"
        '    Store::new("a").get("k") // @chain get\n'
        "}\n"
    ),
    "src/store.rs": (
        "use std::collections::HashMap;\n"
        "\n"
        "pub struct Cache {\n"
        "    items: HashMap<String, String>,\n"
        "}\n"
        "\n"
        "impl Cache {\n"
        "    pub fn lookup(&self, key: &str) -> Option<String> {\n"
        "        self.items.get(key).cloned()\n"
        "    }\n"
        "\n"
        "    pub fn keys(&self) -> Vec<String> {\n"
        "        self.items.keys().cloned().collect()\n"
        "    }\n"
        "}\n"
        "\n"
        "pub struct Store {\n"
        "    pub name: String,\n"
        "    cache: Cache,\n"
        "}\n"
        "\n"
        "impl Store {\n"
        "    pub fn new(name: &str) -> Self {\n"
        "        Self::with_cache(name, Cache { items: HashMap::new() }) // @self-path with_cache\n"
        "    }\n"
        "\n"
        "    fn with_cache(name: &str, cache: Cache) -> Store {\n"
        "        Store { name: crate::util::clean(name), cache } // @crate-path clean\n"
        "    }\n"
        "\n"
        "    pub fn get(&self, key: &str) -> Option<String> {\n"
        "        self.touch(); // @self touch\n"
        "        self.cache.lookup(key) // @self-field lookup\n"
        "    }\n"
        "\n"
        "    fn touch(&self) {}\n"
        "}\n"
        "\n"
        "pub fn count(store: &Store) -> usize {\n"
        "    let c: &Cache = &store.cache;\n"
        "    let n = c.keys().len(); // @let-typed keys\n"
        '    let _ = store.get("x"); // @parameter get\n'
        "    let d = &store.cache;\n"
        '    let _ = d.lookup("q"); // @let-from-field lookup\n'
        '    let _ = find("z").unwrap().get("k"); // @unwrapped get\n'
        "    fn twice(n: usize) -> usize {\n"
        "        n * 2\n"
        "    }\n"
        "    let helper = |m: usize| m + 1;\n"
        "    let _ = helper(n); // @closure - helper\n"
        "    if let Some(s) = Some(store) {\n"
        '        let _ = s.get("y"); // @if-let - get\n'
        "    }\n"
        "    twice(n) // @nested-function twice\n"
        "}\n"
        "\n"
        "pub struct Wrapper(pub Store);\n"
        "\n"
        "pub fn find(name: &str) -> Option<Store> {\n"
        "    Some(Store::new(name)) // @option-wrapped new\n"
        "}\n"
        "\n"
        "pub fn inner(w: &Wrapper) -> Option<String> {\n"
        '    w.0.get("t") // @tuple-field get\n'
        "}\n"
        "\n"
        "pub fn unwrapped(w: Wrapper) -> Option<String> {\n"
        "    let Wrapper(s) = w;\n"
        '    s.get("u") // @tuple-pattern get\n'
        "}\n"
    ),
    "src/shape.rs": (
        "pub trait Shape {\n"
        "    fn area(&self) -> f64;\n"
        "\n"
        "    fn describe(&self) -> String {\n"
        "        let a = self.area(); // @trait-self area\n"
        "        a.to_string()\n"
        "    }\n"
        "}\n"
        "\n"
        "pub struct Square {\n"
        "    pub side: f64,\n"
        "}\n"
        "\n"
        "impl Shape for Square {\n"
        "    fn area(&self) -> f64 {\n"
        "        self.side * self.side\n"
        "    }\n"
        "}\n"
        "\n"
        "pub struct Bytes {\n"
        "    data: Vec<u8>,\n"
        "}\n"
        "\n"
        "impl AsRef<[u8]> for Bytes {\n"
        "    fn as_ref(&self) -> &[u8] {\n"
        "        &self.data\n"
        "    }\n"
        "}\n"
        "\n"
        "pub fn show(shape: &dyn Shape) -> f64 {\n"
        "    shape.area() // @dyn-trait area\n"
        "}\n"
        "\n"
        "pub fn size(b: &Bytes, m: &mut Bytes) -> usize {\n"
        "    let _ = m.as_ref(); // @blanket-impl - as_ref\n"
        "    b.as_ref().len() // @outside-trait-impl as_ref\n"
        "}\n"
        "\n"
        "pub struct Circle {\n"
        "    pub r: f64,\n"
        "}\n"
        "\n"
        "impl Circle {\n"
        "    pub fn area(&self) -> f64 {\n"
        "        3.14 * self.r * self.r\n"
        "    }\n"
        "}\n"
        "\n"
        "pub fn round(c: &Circle) -> f64 {\n"
        "    c.area() // @inherent-first area\n"
        "}\n"
        "\n"
        "#[cfg(any())]\n"
        "pub struct Counter;\n"
        "\n"
        "#[cfg(any())]\n"
        "impl Counter {\n"
        "    pub fn new(_: usize) -> Counter {\n"
        "        Counter\n"
        "    }\n"
        "}\n"
        "\n"
        "#[cfg(not(any()))]\n"
        "use std::sync::atomic::AtomicUsize as Counter;\n"
        "\n"
        "pub fn counter() -> Counter {\n"
        "    Counter::new(0) // @cfg-chosen - new\n"
        "}\n"
        "\n"
        "pub enum Figure {\n"
        "    Sq(Square),\n"
        "    Ci(Box<Circle>),\n"
        "    Empty,\n"
        "}\n"
        "\n"
        "pub fn figure_area(f: &Figure) -> f64 {\n"
        "    match f {\n"
        "        Figure::Sq(ref s) => s.area(), // @variant-pattern area\n"
        "        Figure::Ci(c) => c.area(), // @variant-boxed area\n"
        "        Figure::Empty => 0.0,\n"
        "    }\n"
        "}\n"
        "\n"
        "pub fn visit<S: Shape>(s: &S) -> f64 {\n"
        "    s.area() // @generic-bound area\n"
        "}\n"
        "\n"
        "pub fn boxed(b: Box<Square>) -> f64 {\n"
        "    b.area() // @boxed area\n"
        "}\n"
        "\n"
        "pub fn square() -> f64 {\n"
        "    let sq = Square { side: 2.0 };\n"
        "    let _ = sq.describe(); // @trait-default describe\n"
        "    sq.area() // @trait-impl area\n"
        "}\n"
    ),
    "src/util/mod.rs": (
        "pub mod text;\n"
        "\n"
        "use crate::shape::{Circle, Shape};\n"
        "\n"
        "impl Shape for Circle {\n"
        "    fn area(&self) -> f64 {\n"
        "        3.0 * self.r * self.r\n"
        "    }\n"
        "}\n"
        "\n"
        "pub fn clean(name: &str) -> String {\n"
        "    text::upper(name.trim()) // @child-module upper\n"
        "}\n"
    ),
    "src/util/text.rs": (
        "pub fn upper(s: &str) -> String {\n"
        "    super::helper(); // @super helper\n"
        "    s.to_uppercase()\n"
        "}\n"
    ),
}
FILES["src/util/mod.rs"] += "\npub fn helper() {}\n"


@pytest.fixture(scope="module")
def rustc() -> str:
    """The Rust compiler's own binary (through ``RUSTC``, the PATH, or rustup's folder in the
    account's home, which the tests' HOME is not): failed in CI without one, skipped
    elsewhere."""
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    proxy = home / ".cargo" / "bin" / "rustc"
    found = os.environ.get("RUSTC") or shutil.which("rustc")
    found = found or (str(proxy) if proxy.exists() else None)
    done = None
    for rustup in (
        os.environ.get("RUSTUP_HOME"),
        str(home / ".rustup"),
    ):  # the tests', the account's
        env = {**os.environ, **({"RUSTUP_HOME": rustup} if rustup else {})}
        if found and (done is None or done.returncode != 0):
            done = subprocess.run(
                [found, "--print", "sysroot"], capture_output=True, text=True, env=env
            )
    if done is None or done.returncode != 0:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("no rustc (rustc's type-checked tree is the truth): CI runs this")
        pytest.skip("no rustc (rustc's type-checked tree is the truth)")
    return str(Path(done.stdout.strip()) / "bin" / "rustc")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "rust-calls", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


def _oracle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rust_references_truth", ORACLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _answers(repo: Path, files: dict[str, str], rustc: str) -> Answers:
    """(path, line, called name) -> the declarations rustc ties the call to (path, line)."""
    paths = [p for p in files if p.endswith(".rs")]
    out: Answers = {}
    for row in _oracle().rust_truth(repo, paths, rustc).values():
        key = (row["path"], row["line"], row["name"])
        out.setdefault(key, set()).update((p, line) for p, line in row["defs"])
    return out


@pytest.fixture(scope="module")
def types(repo: Path, rustc: str) -> Answers:
    return _answers(repo, FILES, rustc)


@pytest.mark.parametrize("mark", marked(FILES), ids=lambda m: f"{m[0]}-{m[1]}-{m[2]}")
def test_a_call_resolves_where_rustc_lands(
    graph: SymbolGraph, types: Answers, mark: tuple[str, str, int, str, bool]
) -> None:
    lands(graph, types, mark, "rustc")


def test_no_call_is_tied_where_rustc_does_not_tie_it(graph: SymbolGraph, types: Answers) -> None:
    outside = tied_only_where(graph, types, at_least=16)
    assert ("new", "std::collections::HashMap::new") in outside
    # a pattern's type (`if let Some(s)`) binds no local: the calls of `Some` stay the prelude's
    assert {(c.target, c.outside) for c in graph.callers("Some")} == {("Some", True)}


def _glob_web(modules: int) -> dict[str, str]:
    """A crate whose modules all bring each other's names in by globs (and the root re-exports
    them all), as preludes do: each module defines ``f_mK`` and calls the next one's."""
    names = [f"m{i}" for i in range(modules)]
    files = {
        "Cargo.toml": FILES["Cargo.toml"],
        "src/lib.rs": "".join(f"pub mod {m};\n" for m in names)
        + "".join(f"pub use {m}::*;\n" for m in names),
    }
    for i, m in enumerate(names):
        others = "".join(f"#[allow(unused_imports)]\nuse crate::{o}::*;\n" for o in names if o != m)
        after = names[(i + 1) % modules]
        files[f"src/{m}.rs"] = (
            f"#[allow(unused_imports)]\nuse super::*;\n{others}\n"
            f"pub fn f_{m}() {{\n    f_{after}(); // @glob f_{after}\n    missing_{m}();\n}}\n"
            f"\nfn missing_{m}() {{}}\n"
        )
    return files


def test_a_web_of_globs_is_walked_once_per_name(
    tmp_path_factory: pytest.TempPathFactory, rustc: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _glob_web(8)
    repo = committed(tmp_path_factory, "rust-globs", files)
    graph = indexed(repo)
    truth = _answers(repo, files, rustc)
    walked = []
    find = rust_targets._find
    monkeypatch.setattr(rust_targets, "_find", lambda *a: walked.append(a) or find(*a))
    for mark in marked(files):
        lands(graph, truth, mark, "rustc")
    # each (module, name) is looked up once, not once per path through the globs (8 modules
    # each bringing in the 7 others: walked again at every step, that was millions)
    assert 0 < len(walked) < 500
