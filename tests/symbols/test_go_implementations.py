"""Which types implement a Go interface ("which types implement Renderer?"), against go/types:
a small real git repository (a module of two packages), indexed as a user's would be, and the
type checker's answer (``eval/go_implements.go``: ``types.Implements`` of each type and of a
pointer to it). A type implements an interface when it has every method of it with the same
parameter and result types: a method of the same name and another arity, other result types or
a variadic parameter where a slice is asked for is not one (a type was listed for its names
alone); an interface's embedded interfaces (the repository's, and ``error``) ask for their
methods too; so do the methods a struct gets from the types it embeds (promoted). And the
structs that embed a type ("which types embed base?") are go/types' embedded fields."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.symbols.graph import SymbolGraph
from codeagent.workspace import Workspace
from oracle_marks import committed, indexed

ORACLE = Path(__file__).resolve().parents[2] / "eval" / "go_implements.go"
FILES = {
    "go.mod": "module example.com/site\n\ngo 1.19\n",
    "render.go": """\
package site

// Writer takes bytes.
type Writer interface {
\tWrite(p []byte) (n int, err error)
}

// Renderer renders a named template.
type Renderer interface {
\tRender(w Writer, name string, data any) error
}

// Logger logs.
type Logger interface {
\tLog(args ...string)
}

// Pairer gives two numbers.
type Pairer interface {
\tPair() (int, int)
}

// Visitor visits with a callback.
type Visitor interface {
\tVisit(fn func(name string) bool)
}

// Failure is an error with a code.
type Failure interface {
\terror
\tCode() int
}

// ReadWriter embeds the repository's Writer.
type ReadWriter interface {
\tWriter
\tRead(p []byte) (int, error)
}

type Context struct{}

func (c *Context) Render(code int, name string) error { return nil }
func (c *Context) Log(args []string)                   {}
func (c *Context) Pair() int                           { return 0 }
func (c *Context) Code() int                           { return 0 }

type Buf struct{ data []byte }

func (b *Buf) Write(data []byte) (int, error) { return len(data), nil }
func (b *Buf) Read(into []byte) (n int, err error) { return 0, nil }
func (b Buf) Log(parts ...string)                 {}
func (b Buf) Pair() (x, y int)                     { return 0, 0 }
func (b Buf) Visit(f func(string) bool)            {}

type Short struct{}

func (s Short) Write(p []byte) error { return nil }
func (s Short) Visit(f func(int) bool) {}

type Coded struct{}

func (c Coded) Error() string { return "coded" }
func (c Coded) Code() int      { return 1 }

type Silent struct{}

func (s Silent) Code() int { return 2 }

type base struct{}

func (b *base) Write(p []byte) (int, error) { return 0, nil }

// Wrapped gets Write from the struct it embeds; Deep through Wrapped.
type Wrapped struct {
	base
	name string
}

type Deep struct{ *Wrapped }

// Sink asks for Writer's and Logger's methods both.
type Sink interface {
	Writer
	Logger
}
""",
    "pages/page.go": """\
package pages

import site "example.com/site"

// Page renders itself.
type Page struct{ title string }

func (p *Page) Render(w site.Writer, name string, data any) error { return nil }
func (p *Page) Write(b []byte) (written int, err error)          { return 0, nil }

// Draft renders to the wrong writer.
type Draft struct{}

func (d Draft) Render(w *site.Buf, name string, data any) error { return nil }

// Buf is this package's, not the one Holder embeds.
type Buf struct{}

type Holder struct{ *site.Buf }
""",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "go-implements", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def oracle(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """go/types' rows: each interface with the types that implement it, each embedded type
    with the structs that embed it."""
    cache = tmp_path_factory.mktemp("go-cache")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cache), "GOCACHE": str(cache / "build"),
           "GOFLAGS": "-mod=mod", "GO111MODULE": "off", "GOPATH": str(cache / "path")}  # fmt: skip
    done = subprocess.run(
        [shutil.which("go") or "go", "run", str(ORACLE), str(repo)],
        input="\n".join(p for p in FILES if p.endswith(".go")),
        capture_output=True, text=True, check=True, timeout=300, env=env,
    )  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def truth(oracle: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Interface name -> the names of the types go/types says implement it."""
    return {row["iface"][2]: {t[2] for t in row["types"]} for row in oracle if "iface" in row}


@pytest.fixture(scope="module")
def embedders(oracle: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Type name -> the names of the structs that embed it (a field without a name)."""
    return {r["embedded"][2]: {t[2] for t in r["types"]} for r in oracle if "embedded" in r}


pytestmark = pytest.mark.usefixtures("needs_go")

INTERFACES = [
    "Writer", "Renderer", "Logger", "Pairer", "Visitor", "Failure", "ReadWriter", "Sink"
]  # fmt: skip


@pytest.mark.parametrize("interface", INTERFACES)
def test_the_implementations_are_go_types(
    graph: SymbolGraph, truth: dict[str, set[str]], interface: str
) -> None:
    listed = {d.name for d in graph.subclasses(interface) if d.kind != "interface"}
    assert listed == truth[interface]


def test_the_truth_tells_the_cases_apart(truth: dict[str, set[str]]) -> None:
    # what the cases are for: each interface has a type that has the names and not the types
    assert set(truth) == set(INTERFACES)
    assert truth["Renderer"] == {"Page"}  # not Context (another arity), not Draft (*Buf)
    assert truth["Writer"] == {"Buf", "Page", "base", "Wrapped", "Deep", "Holder"}  # not Short
    # Holder has Buf's methods: it embeds *site.Buf (not pages' own Buf)
    assert truth["Sink"] == {"Buf", "Holder"}  # Write and Log: not Page, which has no Log
    assert truth["Logger"] == {"Buf", "Holder"}  # not Context ([]string, not ...string)
    assert truth["Failure"] == {"Coded"}  # not Silent: error's Error is asked for too
    assert truth["ReadWriter"] == {"Buf", "Holder"}  # Page has Write, not Read


def test_the_structs_that_embed_a_type_are_go_types(
    repo: Path, graph: SymbolGraph, tmp_path: Path, embedders: dict[str, set[str]]
) -> None:
    # "which types embed base?": a Go struct's embedders, and what it has is promoted to them
    assert embedders == {"base": {"Wrapped"}, "Wrapped": {"Deep"}, "Buf": {"Holder"}}
    workspace = Workspace(repo, Settings(home=tmp_path / "home", llm="none", embed="none"))
    for name, structs in embedders.items():
        if name == "Buf":  # two types are named Buf: site.Buf is the root package's
            bufs = {d.path: d for d in graph.definitions("Buf")}
            assert {d.name for d in graph.subclasses(bufs["render.go"].full_name)} == structs
            assert graph.subclasses(bufs["pages/page.go"].full_name) == []
            continue
        result = workspace.ask(f"which types embed {name}?")
        assert result.answer.startswith(f"Types that embed `{name}` in the repository")
        assert {s.path for s in result.sources} == {"render.go"}
        listed = re.findall(r"^  render\.go:\S+  (\w+) struct", result.answer, re.M)
        assert set(listed) == structs
    methods = workspace.ask("what methods does Deep have?").answer
    assert "Write(p []byte) (int, error)  [promoted from render.go.base]" in methods
