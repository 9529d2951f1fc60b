"""Listings of one file of another language than Python, asked as a user asks them
(``codeagent ask`` in its own process, a real git repository): the methods of a Java file,
the functions of a Rust file that has none. universal-ctags' reading of the same sources is
the truth."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import GitRepoFactory

pytestmark = pytest.mark.usefixtures("needs_ctags")

CLIENT_JAVA = """\
package com.example;

public class Client {
    private int count;

    public Client(int count) { this.count = count; }

    public int get() { return count; }

    public void set(int value) { count = value; }

    static class Inner {
        void run() {}
    }
}
"""


def ask(repo: Path, question: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codeagent", "ask", question, "--repo", str(repo), "--llm",
         "none", "--embed", "none", "--no-server", *flags],
        capture_output=True, text=True, env=os.environ.copy(), timeout=120, check=False,
    )  # fmt: skip


def ctags(path: Path) -> list[dict[str, str]]:
    """universal-ctags' tags of one file: name, kind, line and scope fields."""
    out = subprocess.run(
        ["ctags", "--fields=+Kn", "-o", "-", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    tags = []
    for line in out.splitlines():
        name, _file, rest = line.split("\t", 2)
        fields = dict(f.split(":", 1) for f in rest.split(';"\t', 1)[1].split("\t") if ":" in f)
        tags.append({"name": name, "kind": rest.split(';"\t', 1)[1].split("\t")[0], **fields})
    return tags


@pytest.mark.parametrize(
    "question",
    [
        "list the methods in src/main/java/com/example/Client.java",
        "what methods does src/main/java/com/example/Client.java define?",
        "list the methods in Client.java",
    ],
)
def test_the_methods_of_a_java_file(git_repo: GitRepoFactory, question: str) -> None:
    path = "src/main/java/com/example/Client.java"
    repo = git_repo({path: CLIENT_JAVA})
    proc = ask(repo, question)
    assert proc.returncode == 0, proc.stderr
    assert "thefile" not in proc.stdout + proc.stderr
    assert "searching the repository instead" not in proc.stderr
    members = [t for t in ctags(repo / path) if t["kind"] in ("method", "constructor")]
    assert len(members) == 4, members
    for tag in members:  # every method ctags finds, at its line
        assert f"{path}:{tag['line']}  " in proc.stdout, (tag, proc.stdout)
        assert tag["name"] in proc.stdout


LIB_RS = """\
pub mod util;

pub struct Config {
    pub name: String,
}

impl Config {
    pub fn new(name: &str) -> Self {
        Config { name: name.to_string() }
    }

    pub fn name(&self) -> &str {
        &self.name
    }
}

pub trait Greeter {
    fn greet(&self) -> String;
}

impl Greeter for Config {
    fn greet(&self) -> String {
        format!("hello {}", self.name)
    }
}

pub enum Mode {
    Fast,
    Slow,
}
"""


def test_the_functions_of_a_rust_file_without_any(git_repo: GitRepoFactory) -> None:
    # The crate root defines no top-level function: the answer says so, then shows what it
    # has, one line per type with its methods counted (not 8 lines of signatures).
    repo = git_repo({"src/lib.rs": LIB_RS, "src/util.rs": "pub fn helper() -> u8 {\n    1\n}\n"})
    tags = ctags(repo / "src/lib.rs")
    assert not [t for t in tags if t["kind"] == "function"]  # ctags agrees: none
    proc = ask(repo, "list the functions in src/lib.rs")
    assert proc.returncode == 0, proc.stderr
    first, *lines = proc.stdout.splitlines()
    assert "src/lib.rs defines no top-level functions" in first
    methods = [t for t in tags if t["kind"] == "method"]
    # each impl block and trait holds the methods ctags finds after it and before the next
    owners = Counter(max(s for s in _starts(tags) if s < int(m["line"])) for m in methods)
    for tag in tags:
        if tag["kind"] in ("implementation", "interface"):
            held = owners[int(tag["line"])]
            shown = next(t for t in lines if t.strip().startswith(f"src/lib.rs:{tag['line']}-"))
            assert f"({held} method{'s' if held != 1 else ''})" in shown, shown
    for tag in tags:
        if tag["kind"] == "method":  # members are counted, not listed
            assert not any(_at(text, tag["line"]) for text in lines)
        elif tag["kind"] in ("struct", "interface", "enum", "module"):
            assert any(_at(text, tag["line"]) for text in lines)
    assert "pub fn" not in proc.stdout  # no signature unless asked for

    long = ask(repo, "list the functions in src/lib.rs", "--long")
    for tag in methods:  # every method with its signature
        assert any(
            _at(text, tag["line"]) and "fn " + tag["name"] in text
            for text in long.stdout.splitlines()
        ), long.stdout

    util = ask(repo, "list the functions in src/util.rs")
    assert "Top-level functions in src/util.rs: 1" in util.stdout
    assert "src/util.rs:1-3  function helper" in util.stdout


def _at(text: str, line: str) -> bool:
    """``text`` is a listing line of a definition that starts at ``line`` of src/lib.rs."""
    return re.match(rf"\s*src/lib\.rs:{line}(?:-\d+)?  ", text) is not None


def _starts(tags: list[dict[str, str]]) -> list[int]:
    """The lines where ctags sees a type or an impl block start."""
    kinds = ("implementation", "interface", "struct", "enum")
    return [int(t["line"]) for t in tags if t["kind"] in kinds]


COUNT_GO = """\
package count

import "strconv"

// countValue counts.
type countValue int

func newCountValue(val int, p *int) *countValue {
\t*p = val
\treturn (*countValue)(p)
}

func (i *countValue) Set(s string) error {
\tv, err := strconv.ParseInt(s, 0, 0)
\t*i = countValue(v)
\treturn err
}

func (i *countValue) Type() string { return "count" }

func (i *countValue) String() string { return strconv.Itoa(int(*i)) }

type Box struct {
\tn int
}

func (b Box) Size() int { return b.n }

func Count(name string) *int {
\tp := new(int)
\treturn p
}
"""


def test_go_methods_are_counted_under_their_receiver_type(git_repo: GitRepoFactory) -> None:
    # A Go method is declared beside its type, not inside it: counted under the receiver's
    # type all the same, and a function is one without a receiver (ctags' scope field).
    repo = git_repo({"count/count.go": COUNT_GO})
    tags = ctags(repo / "count/count.go")
    receivers = Counter(t.get("type", t.get("struct", "")).split(".")[-1] for t in tags)
    functions = [t for t in tags if t["kind"] == "func" and "package" in t]
    types = ask(repo, "list the classes in count/count.go")
    assert types.returncode == 0, types.stderr
    for tag in tags:
        if tag["kind"] in ("type", "struct"):
            held = receivers[tag["name"]] - (1 if tag["kind"] == "struct" else 0)  # its field
            line = next(t for t in types.stdout.splitlines() if f" {tag['name']}" in t)
            counted = re.search(r"\((\d+) methods?\)", line)
            assert (int(counted[1]) if counted else 0) == held, line
    listed = ask(repo, "list the functions in count/count.go")
    shown = re.findall(r"^  count/count\.go:\S+  function (\w+)$", listed.stdout, re.M)
    assert shown == [t["name"] for t in sorted(functions, key=lambda t: int(t["line"]))]


SHAPES_GO = """\
package shapes

// Shape has an area.
type Shape interface {
\tArea() float64
}

type Circle struct {
\tR float64
}

func (c Circle) Area() float64 { return 3 * c.R * c.R }

type Square struct{ S float64 }

type Names []string

func Total(shapes []Shape) float64 { return 0 }
"""


@pytest.mark.parametrize(
    ("path", "question", "kind"),
    [
        ("shapes/shapes.go", "list the types in shapes/shapes.go", None),
        ("shapes/shapes.go", "what types are defined in shapes.go?", None),
        ("shapes/shapes.go", "which structs are in shapes.go?", "struct"),
        ("shapes/shapes.go", "what interfaces are defined in shapes/shapes.go?", "interface"),
        ("src/lib.rs", "list the traits in src/lib.rs", "trait"),
        ("src/lib.rs", "what enums does src/lib.rs define?", "enum"),
        ("src/lib.rs", "list the types in src/lib.rs", None),
    ],
)
def test_the_types_of_a_file_asked_in_its_language_s_words(
    git_repo: GitRepoFactory, path: str, question: str, kind: str | None
) -> None:
    # "types" lists the file's types as "classes" does (it was searched), each line naming
    # its kind, the head counting them; "structs", "interfaces", "traits", "enums" list that
    # kind only
    repo = git_repo({"shapes/shapes.go": SHAPES_GO, "src/lib.rs": LIB_RS})
    proc = ask(repo, question)
    assert proc.returncode == 0, proc.stderr
    assert "searching the repository" not in proc.stderr + proc.stdout
    types = [t for t in ctags(repo / path) if t["kind"] in TYPE_TAGS]
    wanted = [t for t in types if kind is None or word(path, t) == kind]
    assert len(types) >= 3, types
    assert wanted, types
    first, *lines = proc.stdout.splitlines()
    for tag in types:  # every type ctags finds of the kind asked, at its line, with its kind
        shown = any(
            re.match(rf"\s*{re.escape(path)}:{tag['line']}(?:-\d+)?  {word(path, tag)} ", t)
            for t in lines
        )
        assert shown == (tag in wanted), (tag, proc.stdout)
    if kind is None:
        for each, n in Counter(word(path, t) for t in types).items():
            assert f"{n} {each}{'s' if n != 1 else ''}" in first, first
    else:
        assert first.startswith(f"{kind.capitalize()}s in {path}: {len(wanted)}"), first
    assert not any(re.search(r"  (?:function|method) ", t) for t in lines)  # types only


# ctags' kinds of a type -> the listing's word for each (a Rust trait is ctags' interface)
TYPE_TAGS = {"struct": "struct", "interface": "interface", "talias": "type", "type": "type",
             "enum": "enum"}  # fmt: skip


def word(path: str, tag: dict[str, str]) -> str:
    kind = TYPE_TAGS[tag["kind"]]
    return "trait" if path.endswith(".rs") and kind == "interface" else kind


def test_a_question_about_parameter_types_is_not_a_listing(git_repo: GitRepoFactory) -> None:
    repo = git_repo({"shapes/shapes.go": SHAPES_GO})
    proc = ask(repo, "what parameter types does Total in shapes/shapes.go take?")
    assert proc.returncode == 0, proc.stderr
    assert "Types in shapes/shapes.go" not in proc.stdout
