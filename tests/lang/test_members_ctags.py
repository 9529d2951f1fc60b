"""Members of a type whose reading is easy to get wrong, against universal-ctags: C#'s
destructors (``~Parser``), operator overloads (``operator +``) and conversion operators
(``operator int``), whose names the grammar splits; C++'s ``= default`` and ``= delete``
members, which are declarations (the grammar reads them as function definitions); the
methods of two types of one name (in their own file, or for Go in their own package). The
sources are written here; ctags' definitions of them are the truth (``make install-system``
installs ctags; CI fails rather than skips without it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.lang import parse_file
from conftest import GitRepoFactory
from eval_scripts import load_script

pytestmark = pytest.mark.usefixtures("needs_ctags")

PARSER_CS = """\
using System;

namespace Tokens
{
    public class Parser : IDisposable
    {
        public Parser() { }
        public Parser(string text) { Text = text; }
        ~Parser() { Dispose(); }
        public string Text { get; set; }
        public static Parser operator +(Parser a, Parser b) { return a; }
        public static bool operator ==(Parser a, Parser b) { return true; }
        public static bool operator !=(Parser a, Parser b) { return false; }
        public static implicit operator string(Parser p) { return p.Text; }
        public static explicit operator Parser(string s) { return new Parser(s); }
        public void Dispose() { }
    }

    public struct Span
    {
        public static implicit operator int(Span s) { return 0; }
        public int Length() { return 0; }
    }
}
"""


TOKEN_HPP = """\
#include <string>

namespace tokens {

class Token {
  public:
    Token() = default;
    Token(const Token &) = delete;
    Token &operator=(const Token &) = delete;
    Token(Token &&) noexcept = default;
    virtual ~Token() = default;
    explicit operator bool() const = delete;
    explicit Token(std::string text) : text_(std::move(text)) {}
    std::string text() const { return text_; }
    operator std::string() const { return text_; }

  private:
    std::string text_;
};

struct Span {
    Span() = default;
    int length() const { return 0; }
};

}  // namespace tokens
"""


def _both(tmp_path: Path, language: str, name: str, text: str) -> tuple[set[Any], set[Any]]:
    """ctags' definitions of the file ``name`` holding ``text``, and the layer's."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    compare = load_script("compare_ctags")
    truth = compare.ctags_definitions(tmp_path, language, [name])
    ours, _ = compare.layer_definitions(tmp_path, language, [name])
    return truth, ours


def test_destructors_and_operators_are_ctags_definitions(tmp_path: Path) -> None:
    truth, ours = _both(tmp_path, "csharp", "Parser.cs", PARSER_CS)
    names = {key[1] for key in truth}
    # what this test is about is still tagged by ctags
    assert {"~Parser", "operator+", "operator==", "operatorstring", "operatorint"} <= names
    assert ours == truth


def test_their_names_are_written_as_ctags_writes_them() -> None:
    parsed = parse_file("Parser.cs", PARSER_CS)
    assert parsed is not None
    rows = {row[0]: (row[1], row[2]) for row in parsed.defs}
    lines = PARSER_CS.split("\n")
    for name, word in [
        ("Tokens.Parser.~Parser", "~Parser("),
        ("Tokens.Parser.operator string", "operator string("),
        ("Tokens.Parser.operator Parser", "operator Parser("),
        ("Tokens.Span.operator int", "operator int("),
    ]:
        kind, line = rows[name]
        assert kind == "method"
        assert word in lines[line - 1]


def test_defaulted_and_deleted_members_are_declarations(tmp_path: Path) -> None:
    truth, ours = _both(tmp_path, "cpp", "token.hpp", TOKEN_HPP)
    assert {"Token", "text", "string", "length"} <= {key[1] for key in truth}
    assert ours == truth
    parsed = parse_file("token.hpp", TOKEN_HPP)
    assert parsed is not None
    lines = TOKEN_HPP.split("\n")
    members = {row[0]: lines[row[2] - 1] for row in parsed.defs if row[0].count(".") == 2}
    assert members  # the class's members are still read
    assert not [line for line in members.values() if "= default" in line or "= delete" in line]
    assert "tokens.Token.text" in members
    assert "tokens.Span.length" in members


# Two types of one name in two files (Java packages; TypeScript modules), each with its own
# methods: each type's methods are those ctags scopes to it in its own file.
SAME_NAME = {
    ("java", "a/Builder.java"): (
        "package a;\n\npublic class Builder {\n    public Builder name(String n) { return this; }\n"
        '    public String build() { return ""; }\n}\n'
    ),
    ("java", "b/Builder.java"): (
        "package b;\n\npublic class Builder {\n    public Builder size(int n) { return this; }\n}\n"
    ),
    ("typescript", "web/context.ts"): (
        "export class Context {\n  get(key: string): string { return key; }\n"
        "  set(key: string): void {}\n}\n"
    ),
    (
        "typescript",
        "jsx/context.ts",
    ): "export class Context {\n  render(): number { return 1; }\n}\n",
}


def test_types_of_one_name_keep_their_own_methods(git_repo: GitRepoFactory) -> None:
    root = git_repo({path: text for (_, path), text in SAME_NAME.items()})
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    graph = store.symbols
    compare = load_script("compare_ctags")
    for (language, path), _text in SAME_NAME.items():
        name = Path(path).stem.capitalize()
        tags = compare.ctags_tags(root, language, [path])
        truth = {
            int(t["line"])
            for t in tags
            if t.get("kind") == "method" and t.get("scope", "").endswith(name)
        }
        assert truth  # ctags scopes the methods to the type
        (cls,) = [d for d in graph.definitions(name) if d.path == path and d.kind == "class"]
        mine = {d.start_line for d, _ in graph.methods(cls.full_name, inherited=False)}
        assert {d.path for d, _ in graph.methods(cls.full_name, inherited=False)} == {path}
        assert mine == truth, path


# Go: a type's methods are declared by receiver in any file of its package (its folder), and
# in no other: ctags scopes each to PACKAGE.Type.
SAME_NAME_GO = {
    "a/server.go": "package a\n\ntype Server struct{}\n\nfunc (s *Server) Start() {}\n",
    "a/stop.go": "package a\n\nfunc (s Server) Stop() {}\n",
    "b/server.go": "package b\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\n",
}


def test_a_go_types_methods_are_those_of_its_package(git_repo: GitRepoFactory) -> None:
    root = git_repo(SAME_NAME_GO)
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    graph = store.symbols
    tags = load_script("compare_ctags").ctags_tags(root, "go", sorted(SAME_NAME_GO))
    for package in ("a", "b"):
        truth = {
            (t["path"], int(t["line"]))
            for t in tags
            if t.get("kind") == "func" and t.get("scope") == f"{package}.Server"
        }
        (cls,) = [d for d in graph.definitions("Server") if d.path == f"{package}/server.go"]
        mine = {(d.path, d.start_line) for d, _ in graph.methods(cls.full_name, inherited=False)}
        assert mine == truth, package
    assert len(truth) == 1  # b's Server has its one method, not a's two


# C++ types defined outside the class that declares them (``class Block::Iter``, a pimpl's
# ``struct Parser::Impl``): each is a type of its own, scoped to its outer class, and what is
# defined in its body is its members
NESTED_CC = """\
#include "block.h"

namespace store {

Block::Block(int size) : size_(size) {}

class Block::Iter : public Iterator {
 public:
  explicit Iter(const Block* block) : block_(block) {}
  void Seek(int target) override {
    while (current_ < target) Next();
  }
  void Next() override { current_++; }

 private:
  const Block* block_;
  int current_ = 0;
};

struct Block::Impl {
  int Size() const { return 0; }
};

class store::Block::Cursor {
 public:
  int Position() const { return 0; }
};

Iterator* Block::NewIterator() const { return new Iter(this); }

}  // namespace store
"""


def test_a_nested_type_defined_outside_its_class_is_ctags_scoped(tmp_path: Path) -> None:
    truth, ours = _both(tmp_path, "cpp", "block.cc", NESTED_CC)
    assert {"Iter", "Seek", "Impl", "Size", "Cursor", "Position"} <= {key[1] for key in truth}
    assert ours == truth
    parsed = parse_file("block.cc", NESTED_CC)
    assert parsed is not None
    rows = {row[0]: row[1] for row in parsed.defs}
    assert rows["store.Block.Iter"] == "class"
    assert rows["store.Block.Iter.Seek"] == "method"
    assert rows["store.Block.Impl.Size"] == "method"
