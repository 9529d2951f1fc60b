"""Go call sites tied to what the code states, against go/types: a small real git repository
(a module of two packages), indexed as a user's would be, and the type checker's answer for
every call in it (``eval/go_calls.go``, run by ``go run``). Each marked call must land where
go/types lands; a mark ``-`` is a call whose receiver's type the code does not state there (a
range variable), or of a local variable holding a function: it stays by name. And no call of
the repository is tied anywhere go/types does not tie it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import Answers, answers, committed, indexed, lands, marked, tied_only_where

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

pytestmark = pytest.mark.usefixtures("needs_go")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "go-calls", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def types(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Answers:
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
    return answers(done.stdout)


@pytest.mark.parametrize("mark", marked(FILES), ids=lambda m: f"{m[0]}-{m[1]}-{m[2]}")
def test_a_call_resolves_where_go_types_lands(
    graph: SymbolGraph, types: Answers, mark: tuple[str, str, int, str, bool]
) -> None:
    lands(graph, types, mark, "go/types")


def test_no_call_is_tied_where_go_types_does_not_tie_it(graph: SymbolGraph, types: Answers) -> None:
    outside = tied_only_where(graph, types, at_least=12)
    assert {("Println", "fmt.Println"), ("ToUpper", "strings.ToUpper")} <= outside
