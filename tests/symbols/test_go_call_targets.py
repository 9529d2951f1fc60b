"""Go call sites tied to what the code states, against go/types: a small real git repository
(a module of two packages), indexed as a user's would be, and the type checker's answer for
every call in it (``eval/go_calls.go``, run by ``go run``). Each marked call must land where
go/types lands; a mark ``-`` is a call whose receiver's type the code does not state there (a
range variable), or of a local variable holding a function: it stays by name. And no call of
the repository is tied anywhere go/types does not tie it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import CallSite
from conftest import git, write_files

ORACLE = Path(__file__).resolve().parents[2] / "eval" / "go_calls.go"
FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.19\n",
    "store.go": (
        "package shop\n"
        "\n"
        'import "strings"\n'
        "\n"
        "// Default is the store the package functions use.\n"
        'var Default = NewStore("main") // @constructor NewStore\n'
        "\n"
        "type Base struct{ name string }\n"
        "\n"
        "func (b *Base) Name() string { return strings.ToUpper(b.name) }\n"
        "\n"
        "type Store struct {\n"
        "\tBase\n"
        "\tcache *Cache\n"
        "}\n"
        "\n"
        "func NewStore(name string) *Store {\n"
        "\treturn &Store{Base: Base{name: name}, cache: newCache()} // @package-function newCache\n"
        "}\n"
        "\n"
        "func (s *Store) Get(key string) (string, bool) {\n"
        "\ts.touch() // @receiver touch\n"
        "\treturn s.cache.Lookup(key) // @receiver-field Lookup\n"
        "}\n"
        "\n"
        "func (s *Store) touch() {\n"
        "\t_ = s.Name() // @embedded Name\n"
        "}\n"
        "\n"
        "func Get(key string) (string, bool) {\n"
        "\treturn Default.Get(key) // @package-variable Get\n"
        "}\n"
    ),
    "cache.go": (
        "package shop\n"
        "\n"
        "type Cache struct{ items map[string]string }\n"
        "\n"
        "func newCache() *Cache { return &Cache{items: map[string]string{}} }\n"
        "\n"
        "func (c *Cache) Lookup(key string) (string, bool) {\n"
        "\tv, ok := c.items[key]\n"
        "\treturn v, ok\n"
        "}\n"
        "\n"
        "func (c *Cache) Keys() []string {\n"
        "\tvar out []string\n"
        "\tfor k := range c.items {\n"
        "\t\tout = append(out, k)\n"
        "\t}\n"
        "\treturn out\n"
        "}\n"
    ),
    "cmd/tool/main.go": (
        "package main\n"
        "\n"
        "import (\n"
        '\t"fmt"\n'
        "\n"
        '\tshop "example.com/shop"\n'
        ")\n"
        "\n"
        "type runner interface{ Run() error }\n"
        "\n"
        "type job struct{ s *shop.Store }\n"
        "\n"
        "func (j job) Run() error {\n"
        '\t_, _ = j.s.Get("a") // @imported-field-type Get\n'
        "\treturn nil\n"
        "}\n"
        "\n"
        "func helper() {}\n"
        "\n"
        "func main() {\n"
        '\ts := shop.NewStore("x") // @imported-function NewStore\n'
        '\tv, _ := s.Get("k") // @local-from-call Get\n'
        "\tfmt.Println(v)\n"
        "\tvar r runner = job{s: s}\n"
        "\t_ = r.Run() // @interface Run\n"
        "\tj := &job{s: s}\n"
        "\t_ = j.Run() // @composite-literal Run\n"
        '\t_, _ = shop.Get("b") // @imported-package-function Get\n'
        "\thelper := func() {}\n"
        "\thelper() // @local-function-value - helper\n"
        "\tfor _, st := range []*shop.Store{s} {\n"
        '\t\tst.Get("c") // @range-variable - Get\n'
        "\t}\n"
        "\tvar any interface{} = s\n"
        "\tif t, ok := any.(*shop.Store); ok {\n"
        '\t\tt.Get("d") // @type-assertion Get\n'
        "\t}\n"
        "}\n"
    ),
}
MARKS = re.compile(r"// @([\w-]+) (-)? ?(\w+)")

pytestmark = pytest.mark.usefixtures("needs_go")


def _marked() -> list[tuple[str, str, int, str, bool]]:
    out = []
    for path, text in FILES.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = MARKS.search(line)
            if found:
                out.append((found.group(1), path, number, found.group(3), not found.group(2)))
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("go-calls") / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write_files(root, dict(FILES))
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "initial")
    return root


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    store, _ = load_or_build(repo, Settings.load(embed="none"), embedder=None)
    return store.symbols


@pytest.fixture(scope="module")
def types(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """(path, line, called name) -> the declarations go/types ties the call to (path, line)."""
    cache = tmp_path_factory.mktemp("go-cache")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cache), "GOCACHE": str(cache / "build"),
           "GOFLAGS": "-mod=mod", "GO111MODULE": "off", "GOPATH": str(cache / "path")}  # fmt: skip
    go = shutil.which("go") or "go"
    done = subprocess.run(
        [go, "run", str(ORACLE), str(repo)],
        input="\n".join(p for p in FILES if p.endswith(".go")),
        capture_output=True, text=True, check=True, timeout=300, env=env,
    )  # fmt: skip
    out: dict[tuple[str, int, str], set[tuple[str, int]]] = {}
    for row in map(json.loads, done.stdout.splitlines()):
        key = (row["path"], row["line"], row["name"])
        out.setdefault(key, set()).update((p, line) for p, line in row["defs"])
    return out


def _declared(graph: SymbolGraph, site: CallSite) -> set[tuple[str, int]]:
    d = graph._by_full[site.target]
    return {(d.path, d.line)}


def test_the_oracle_ties_every_marked_call(types: dict) -> None:
    for form, path, line, name, typed in _marked():
        if typed:
            assert types.get((path, line, name)), f"{form}: go/types ties no {name} there"


@pytest.mark.parametrize(("form", "path", "line", "name", "typed"), _marked(), ids=lambda v: str(v))
def test_a_call_resolves_where_go_types_lands(
    graph: SymbolGraph, types: dict, form: str, path: str, line: int, name: str, typed: bool
) -> None:
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    if not typed:  # the code does not state the type there: kept, marked by name
        assert (site.resolved, site.target) == (False, ""), form
        return
    assert site.resolved, f"{form}: {path}:{line} left by name"
    assert _declared(graph, site) & types[(path, line, name)], f"{form}: {site.target}"


def test_no_call_is_tied_where_go_types_does_not_tie_it(graph: SymbolGraph, types: dict) -> None:
    names = {name for _path, _line, name in types}
    resolved = [c for name in names for c in graph.callers(name) if c.resolved]
    assert len(resolved) >= 12
    for site in resolved:
        assert _declared(graph, site) & types.get((site.path, site.line, site.name), set()), site
    outside = {(c.name, c.target) for name in names for c in graph.callers(name) if c.outside}
    assert {("Println", "fmt.Println"), ("ToUpper", "strings.ToUpper")} <= outside
