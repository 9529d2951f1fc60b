"""Which types implement a Go interface ("which types implement Renderer?"), against go/types:
a small real git repository (a module of two packages), indexed as a user's would be, and the
type checker's answer (``eval/go_implements.go``: ``types.Implements`` of each type and of a
pointer to it). A type implements an interface when it has every method of it with the same
parameter and result types: a method of the same name and another arity, other result types or
a variadic parameter where a slice is asked for is not one (a type was listed for its names
alone); an interface's embedded interfaces (the repository's, and ``error``) ask for their
methods too."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
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
""",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "go-implements", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def truth(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    """Interface name -> the names of the types go/types says implement it."""
    cache = tmp_path_factory.mktemp("go-cache")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cache), "GOCACHE": str(cache / "build"),
           "GOFLAGS": "-mod=mod", "GO111MODULE": "off", "GOPATH": str(cache / "path")}  # fmt: skip
    done = subprocess.run(
        [shutil.which("go") or "go", "run", str(ORACLE), str(repo)],
        input="\n".join(p for p in FILES if p.endswith(".go")),
        capture_output=True, text=True, check=True, timeout=300, env=env,
    )  # fmt: skip
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return {row["iface"][2]: {t[2] for t in row["types"]} for row in rows}


pytestmark = pytest.mark.usefixtures("needs_go")

INTERFACES = ["Writer", "Renderer", "Logger", "Pairer", "Visitor", "Failure", "ReadWriter"]


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
    assert truth["Writer"] == {"Buf", "Page"}  # not Short (one result)
    assert truth["Logger"] == {"Buf"}  # not Context ([]string, not ...string)
    assert truth["Failure"] == {"Coded"}  # not Silent: error's Error is asked for too
    assert truth["ReadWriter"] == {"Buf"}  # Page has Write, not Read
