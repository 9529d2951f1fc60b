"""Structure-aware chunks for the languages of the layer, the index report (languages, parse
errors), and line windows for files the layer does not know, and around a parse error."""

from __future__ import annotations

import itertools
import json
import subprocess

import pytest
from click.testing import CliRunner

from codeagent.cli.main import cli
from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import MAX_LINES, chunk_file
from codeagent.lang import language_for
from conftest import GitRepoFactory
from multilang_repo import FILES

LAYER_FILES = [p for p in FILES if language_for(p) is not None and "broken" not in p]


@pytest.mark.parametrize("path", LAYER_FILES)
def test_every_line_is_in_a_chunk(path: str) -> None:
    lines = FILES[path].split("\n")
    covered = set()
    for c in chunk_file(path, FILES[path]):
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
        covered.update(range(c.start_line, c.end_line + 1))
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= covered


@pytest.mark.usefixtures("needs_ctags")
def test_each_definition_ctags_finds_is_in_a_chunk_named_for_it(git_repo: GitRepoFactory) -> None:
    """The chunk holding a definition's line is named for it or for the type ctags puts it
    in (a small type is one chunk with its members)."""
    repo = git_repo(dict(FILES))
    paths = [p for p in LAYER_FILES if p.endswith((".go", ".rs", ".java"))]
    done = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+n+K+S", "-f", "-", *paths],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    checked = 0
    for row in done.stdout.splitlines():
        tag = json.loads(row)
        if tag["kind"] in {"package", "member", "field", "packageName"}:
            continue
        scope = str(tag.get("scope", "")).rsplit(".", 1)[-1]
        path, line = tag["path"], tag["line"]
        holding = [c for c in chunk_file(path, FILES[path]) if c.start_line <= line <= c.end_line]
        named = {part for c in holding for part in c.symbol.split(".")}
        assert tag["name"] in named or scope in named, (path, tag["name"], line)
        checked += 1
    assert checked >= 20


def test_a_long_definition_is_split_inside_and_keeps_its_name_and_signature() -> None:
    body = "".join(f"\tx += {n}\n" for n in range(2 * MAX_LINES))
    text = f"package big\n\n// Sum adds.\nfunc Sum(x int) int {{\n{body}\treturn x\n}}\n"
    chunks = chunk_file("big/sum.go", text)
    assert chunks[0].symbol == "<module>"
    parts = [c for c in chunks if c.symbol == "Sum"]
    assert len(parts) >= 3
    assert parts[0].start_line == 3  # its doc comment belongs to it
    assert parts[-1].end_line == text.count("\n")
    assert all(c.kind == "function" for c in parts)
    assert all("func Sum(x int) int" in c.embed_text.split("\n", 2)[1] for c in parts)
    assert all(b.start_line <= a.end_line for a, b in itertools.pairwise(parts))


def test_a_big_type_is_cut_by_member() -> None:
    methods = "".join(
        f"    public int m{n}() {{\n" + "        int a = 1;\n" * 8 + "        return a;\n    }\n\n"
        for n in range(8)
    )
    text = f"package p;\n\npublic class Big {{\n    private int x;\n\n{methods}}}\n"
    chunks = chunk_file("p/Big.java", text)
    symbols = [c.symbol for c in chunks]
    assert [s for s in symbols if s.startswith("Big.")] == [f"Big.m{n}" for n in range(8)]
    assert {c.kind for c in chunks if c.symbol.startswith("Big.")} == {"method"}
    assert "Big" in symbols  # the class line and its field


def test_methods_a_docblock_declares_are_no_chunks_of_their_own() -> None:
    tags = "".join(f" * @method bool has{n}(string $m)\n" for n in range(6))
    methods = "".join(
        f"    public function m{n}()\n    {{\n"
        + "        $a = 1;\n" * 8
        + "        return $a;\n    }\n"
        for n in range(6)
    )
    text = f"<?php\nnamespace App;\n\n/**\n * Big.\n *\n{tags} */\nclass Big\n{{\n{methods}}}\n"
    chunks = chunk_file("src/Big.php", text)
    symbols = [c.symbol for c in chunks]
    assert [s for s in symbols if s.startswith("Big.")] == [f"Big.m{n}" for n in range(6)]
    head = next(c for c in chunks if c.symbol == "Big")  # the docblock, tags and all, the line
    assert (head.start_line, head.end_line) == (4, 15)  # up to the first method


def test_unknown_language_and_parse_errors_keep_windows(git_repo: GitRepoFactory) -> None:
    broken = chunk_file("web/src/broken.ts", FILES["web/src/broken.ts"])
    assert [c.kind for c in broken] == ["window"]
    assert [c.kind for c in chunk_file("notes.lua", "local x = 1\n")] == ["window"]

    root = git_repo(dict(FILES))
    result = CliRunner().invoke(cli, ["index", "--repo", str(root), "--embed", "none", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["parse_errors"] == {"typescript": 1}
    assert stats["languages"] == {
        "go": {"files": 2, "structure": "tree-sitter"},
        "java": {"files": 2, "structure": "tree-sitter"},
        "markdown": {"files": 1, "structure": "none"},
        "python": {"files": 1, "structure": "python-ast"},
        "rust": {"files": 1, "structure": "tree-sitter"},
        "typescript": {"files": 4, "structure": "tree-sitter"},
    }


BROKEN_METHOD_TS = """\
import { Db } from "./db";

export class UserService {
  find(id: string): User {
    return this.db.get(id);
  }

  broken(id: string {
    return this.db.drop(id) ] ;
  }

  save(user: User): void {
    this.db.put(user.id, user);
  }
}

export function helper(x: number): number {
  return x * 2;
}
"""
BROKEN_FUNC_GO = """\
package shapes

// Area of a square.
func Area(x int) int {
\treturn x * x
}

func Broken(x int) int {
\treturn x +* ) (
}

type Circle struct {
\tR float64
}
"""


@pytest.mark.parametrize(
    ("path", "text", "named", "broken"),
    [
        (
            "src/users.ts",
            BROKEN_METHOD_TS,
            {"UserService.find": (4, 6), "UserService.save": (12, 14), "helper": (17, 19)},
            (8, 10),
        ),
        ("geo/area.go", BROKEN_FUNC_GO, {"Area": (3, 6), "Circle": (12, 14)}, (8, 10)),
    ],
)
def test_a_parse_error_keeps_windows_around_itself_only(
    path: str, text: str, named: dict[str, tuple[int, int]], broken: tuple[int, int]
) -> None:
    """The definitions the error does not touch get their own chunks (their lines as written
    above); the broken one's lines are windows; every non-blank line is still in a chunk."""
    chunks = chunk_file(path, text)
    assert {c.symbol: (c.start_line, c.end_line) for c in chunks if c.symbol in named} == named
    lines = text.split("\n")
    for line in range(broken[0], broken[1] + 1):
        holders = [c for c in chunks if c.start_line <= line <= c.end_line]
        assert holders
        assert all(c.kind == "window" and not c.symbol for c in holders)
    covered = {n for c in chunks for n in range(c.start_line, c.end_line + 1)}
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= covered


def test_headers_survive_the_cache(git_repo: GitRepoFactory) -> None:
    root = git_repo(dict(FILES))
    settings = Settings.load(embed="none")
    built, stats = load_or_build(root, settings, embedder=None)
    loaded, again = load_or_build(root, settings, embedder=None)
    assert (stats.cache_hit, again.cache_hit) == (False, True)
    headers = {(c.path, c.symbol): c.header for c in loaded.chunks if c.header}
    assert headers == {(c.path, c.symbol): c.header for c in built.chunks if c.header}
    assert headers[("web/src/router.ts", "parseConfig")] == (
        "function parseConfig(text: string): string"
    )
    python = [c for c in loaded.chunks if c.path.endswith(".py")]
    assert python
    assert all(c.header == "" for c in python)
