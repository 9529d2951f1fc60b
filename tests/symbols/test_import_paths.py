""" "Which files import X?" where X is written as the language writes an import: a Go import
path (``example.com/site/pages``, ``net/http``) and a Rust ``use`` tree (``clap_lex::OsStrExt
as _``, ``std::{cell::Cell, ffi::{OsStr, OsString}}``). They were found by dotted prefixes
only: a Rust crate imported with ``::`` by no name ("no file in the repository imports
clap_lex"), a Go path cut at its first dot (``github``). Go's truth is ``go list`` (each
package's imports, by the folder); Rust's is the Rust reference's reading of a use tree
(each path of the tree, ``self`` in a group the module itself), written out below."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

GO = {
    "go.mod": "module example.com/site\n\ngo 1.19\n",
    "site.go": 'package site\n\nimport "net/http"\n\nvar Client = http.DefaultClient\n',
    "pages/page.go": (
        'package pages\n\nimport (\n\t"example.com/site"\n\t"net/http/httptest"\n)\n\n'
        "var C = site.Client\nvar R = httptest.NewRecorder\n"
    ),
    "tools/tool.go": (
        'package tools\n\nimport (\n\tpg "example.com/site/pages"\n\t"strings"\n)\n\n'
        "var P = pg.C\nvar U = strings.ToUpper\n"
    ),
}

RUST = {
    "src/lib.rs": "pub mod parser;\npub mod engine;\n",
    "src/parser.rs": (
        "use clap_lex::OsStrExt as _;\n"
        "use std::{\n    cell::Cell,\n    ffi::{OsStr, OsString},\n};\n"
        "\npub fn parse(_c: Cell<u8>, _s: &OsStr, _o: OsString) {}\n"
    ),
    "src/engine.rs": (
        "use clap_lex::{self, RawArgs};\nuse crate::parser::parse;\n\npub fn run(_a: RawArgs) {}\n"
    ),
}


def ask(repo: Path, home: Path, question: str) -> tuple[str, set[str]]:
    workspace = Workspace(repo, Settings(home=home, llm="none", embed="none"))
    result = workspace.ask(question)
    return result.route.tool, {s.path for s in result.sources}


@pytest.fixture
def go_packages(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, dict[str, set[str]]]:
    """The Go module, and each import path -> the folders of the packages that import it
    (``go list``)."""
    if shutil.which("go") is None:
        pytest.skip("Go is not installed (`make install-system`): go list is the truth")
    repo = git_repo(GO)
    cache = tmp_path / "go-cache"
    env = {**os.environ, "HOME": str(cache), "GOCACHE": str(cache / "build"),
           "GOPATH": str(cache / "path"), "GOFLAGS": "-mod=mod", "GOPROXY": "off"}  # fmt: skip
    done = subprocess.run(
        ["go", "list", "-f", "{{.Dir}}|{{join .Imports \" \"}}", "./..."],
        cwd=repo, capture_output=True, text=True, check=True, env=env, timeout=300,
    )  # fmt: skip
    importers: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        folder, _, imports = line.partition("|")
        rel = os.path.relpath(folder, repo)
        for imported in imports.split():
            importers.setdefault(imported, set()).add(rel)
    return repo, importers


@pytest.mark.parametrize(
    "asked", ["example.com/site", "example.com/site/pages", "net/http", "strings"]
)
def test_go_importers_by_import_path_are_go_list_s(
    go_packages: tuple[Path, dict[str, set[str]]], tmp_path: Path, asked: str
) -> None:
    # as for a Python module, the files that import the package or one under it
    # (`net/http/httptest` for `net/http`)
    repo, importers = go_packages
    truth = set().union(
        *(folders for path, folders in importers.items() if (path + "/").startswith(asked + "/"))
    )
    assert truth, "go list found no importer: the comparison would prove nothing"
    tool, cited = ask(repo, tmp_path / "home", f"which files import {asked}?")
    assert tool == "symbols"
    assert {os.path.dirname(p) or "." for p in cited} == truth


@pytest.mark.parametrize(
    ("asked", "files"),
    [
        ("clap_lex", {"src/parser.rs", "src/engine.rs"}),  # `clap_lex::{self, ...}` too
        ("clap_lex::OsStrExt", {"src/parser.rs"}),
        ("clap_lex::RawArgs", {"src/engine.rs"}),
        ("std::ffi::OsString", {"src/parser.rs"}),  # inside a nested group
        ("crate::parser", {"src/engine.rs"}),
    ],
)
def test_rust_importers_by_use_path(
    git_repo: GitRepoFactory, tmp_path: Path, asked: str, files: set[str]
) -> None:
    repo = git_repo(RUST)
    tool, cited = ask(repo, tmp_path / "home", f"which files import {asked}?")
    assert tool == "symbols"
    assert cited == files
