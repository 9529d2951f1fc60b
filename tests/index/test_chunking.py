"""chunk_file(): golden line ranges, coverage, edit stability, fallbacks, pyclbr agreement."""

from __future__ import annotations

import importlib.util
import pyclbr
import sys
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import CHUNKER_VERSION, chunk_file
from codeagent.records import Chunk
from conftest import GitRepoFactory

SAMPLE = '''"""Sample module."""

import os
from typing import Any

LIMIT = 3


def small(x):
    return x + 1


# A comment between definitions.
CONSTANT = small(2)


@decorator
@other.decorator(arg=1)
def decorated(y):
    """Doc."""
    return y


class Small:
    a = 1

    def m(self):
        return self.a


if os.name == "nt":

    def platform_specific():
        return "nt"

else:

    def platform_specific():
        return "posix"


async def coro():
    await other()


if __name__ == "__main__":
    small(1)
'''


def spans(chunks: list[Chunk]) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.symbol, c.kind) for c in chunks]


def big_class_source() -> str:
    lines = ["class Big:", '    """Big class."""', "", "    attr = 1", ""]  # 1-5
    lines += ["    def one(self):"] + [f"        x{i} = {i}" for i in range(19)]  # 6-25
    lines += ["", "    other = 2", ""]  # 26-28
    lines += ["    @property", "    def two(self):"] + [f"        y{i} = {i}" for i in range(18)]
    lines += [""]  # 49 (two: 29-48)
    lines += ["    def three(self):"] + [f"        z{i} = {i}" for i in range(69)]  # 50-119
    lines += ["", "", "def after():", "    return 1"]  # 120-123
    return "\n".join(lines) + "\n"


def stdlib_source(module: str) -> str:
    spec = importlib.util.find_spec(module)
    assert spec is not None
    assert spec.origin is not None
    return Path(spec.origin).read_text(encoding="utf-8")


def clbr(module: str) -> dict[str, pyclbr.Class | pyclbr.Function]:
    """pyclbr's view of a stdlib module (pytest's import hook chokes on pyclbr's look-ups)."""
    saved = sys.meta_path[:]
    sys.meta_path[:] = [f for f in saved if type(f).__name__ != "AssertionRewritingHook"]
    try:
        return pyclbr.readmodule_ex(module)
    finally:
        sys.meta_path[:] = saved


def assert_covers_every_line(path: str, text: str, chunks: list[Chunk]) -> None:
    lines = text.split("\n")
    covered: set[int] = set()
    for c in chunks:
        assert 1 <= c.start_line <= c.end_line <= len(lines)
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
        assert c.path == path
        covered.update(range(c.start_line, c.end_line + 1))
    missing = [n for n, line in enumerate(lines, 1) if line.strip() and n not in covered]
    assert missing == []


def test_a_new_chunker_version_builds_a_new_state(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks cut by another chunker are never served: the version is part of the state and
    of the per-file reuse record, so a change rebuilds instead of reading the old entry."""
    root = git_repo({"a.py": "def a():\n    return 1\n"})
    settings = Settings.load(embed="none")
    _, first = load_or_build(root, settings)
    _, again = load_or_build(root, settings)
    assert again.cache_hit
    assert again.state_hash == first.state_hash
    for module in ("codeagent.index.build", "codeagent.index.chunked", "codeagent.index.reuse"):
        monkeypatch.setattr(f"{module}.CHUNKER_VERSION", CHUNKER_VERSION + ".next")
    _, bumped = load_or_build(root, settings)
    assert not bumped.cache_hit
    assert bumped.state_hash != first.state_hash
    assert bumped.files_reused == 0


def test_golden_sample() -> None:
    assert spans(chunk_file("pkg/sample.py", SAMPLE)) == [
        (1, 6, "<module>", "module"),
        (9, 10, "small", "function"),
        (13, 14, "", "window"),
        (17, 21, "decorated", "function"),
        (24, 28, "Small", "class"),
        (31, 31, "", "window"),
        (33, 34, "platform_specific", "function"),
        (36, 36, "", "window"),
        (38, 39, "platform_specific", "function"),
        (42, 43, "coro", "function"),
        (46, 47, "", "window"),
    ]


def test_golden_sample_texts() -> None:
    chunks = chunk_file("pkg/sample.py", SAMPLE)
    assert chunks[1].text == "def small(x):\n    return x + 1"
    assert chunks[3].text.startswith("@decorator\n@other.decorator(arg=1)\ndef decorated(y):")
    assert chunks[1].embed_text == "pkg/sample.py: small\ndef small(x):\n    return x + 1"


def test_golden_big_class_is_split_by_method() -> None:
    assert spans(chunk_file("big.py", big_class_source())) == [
        (1, 4, "Big", "class"),
        (6, 25, "Big.one", "method"),
        (27, 27, "Big", "class"),
        (29, 48, "Big.two", "method"),
        (50, 89, "Big.three", "method"),
        (80, 119, "Big.three", "method"),
        (122, 123, "after", "function"),
    ]


def test_long_function_becomes_overlapping_windows_keeping_symbol() -> None:
    body = [f"    v{i} = {i}" for i in range(99)]
    text = "import x\n\n\ndef long():\n" + "\n".join(body) + "\n"  # def at 4, ends at 103
    assert spans(chunk_file("m.py", text)) == [
        (1, 1, "<module>", "module"),
        (4, 43, "long", "function"),
        (34, 73, "long", "function"),
        (64, 103, "long", "function"),
    ]


def test_long_header_is_windowed() -> None:
    text = "\n".join(f"import m{i}" for i in range(60)) + "\n\ndef f():\n    pass\n"
    assert spans(chunk_file("h.py", text)) == [
        (1, 40, "<module>", "module"),
        (31, 60, "<module>", "module"),
        (62, 63, "f", "function"),
    ]


def test_module_without_definitions_is_a_header() -> None:
    assert spans(chunk_file("s.py", "\nimport sys\nprint(sys.argv)\n")) == [
        (2, 3, "<module>", "module"),
    ]


def test_non_python_windows_overlap() -> None:
    text = "".join(f"line {i}\n" for i in range(1, 101))
    chunks = chunk_file("docs/notes.md", text)
    assert spans(chunks) == [(1, 40, "", "window"), (31, 70, "", "window"), (61, 100, "", "window")]
    assert chunks[1].text.split("\n")[0] == "line 31"
    assert_covers_every_line("docs/notes.md", text, chunks)


def test_short_text_file_is_one_window() -> None:
    assert spans(chunk_file("README", "hello\nworld\n")) == [(1, 2, "", "window")]


def test_syntax_error_falls_back_to_windows() -> None:
    text = "def broken(:\n" + "".join(f"x{i} = {i}\n" for i in range(59))  # 60 lines
    chunks = chunk_file("bad.py", text)
    assert spans(chunks) == [(1, 40, "", "window"), (31, 60, "", "window")]


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n"])
def test_empty_or_blank_file_has_no_chunks(text: str) -> None:
    assert chunk_file("e.py", text) == []
    assert chunk_file("e.txt", text) == []


def test_long_lines_are_capped_by_characters() -> None:
    text = "".join(("x" * 500) + "\n" for _ in range(20))  # 20 lines, 10 kB
    chunks = chunk_file("data.txt", text)
    assert len(chunks) > 1
    assert all(len(c.text) <= 3000 for c in chunks)
    assert_covers_every_line("data.txt", text, chunks)


def test_crlf_line_numbers_match_the_lines() -> None:
    text = "import os\r\n\r\n\r\ndef f():\r\n    return 1\r\n"
    assert spans(chunk_file("w.py", text)) == [
        (1, 1, "<module>", "module"),
        (4, 5, "f", "function"),
    ]


@pytest.mark.parametrize("module", ["json.decoder", "fnmatch", "typing", "argparse", "ast"])
def test_every_line_covered_in_real_files(module: str) -> None:
    text = stdlib_source(module)
    chunks = chunk_file("m.py", text)
    assert_covers_every_line("m.py", text, chunks)
    assert max(c.end_line - c.start_line + 1 for c in chunks) <= 50


def test_sample_and_big_class_cover_every_line() -> None:
    for text in (SAMPLE, big_class_source()):
        assert_covers_every_line("x.py", text, chunk_file("x.py", text))


@pytest.mark.parametrize("module", ["json.decoder", "fnmatch", "typing"])
def test_top_level_definitions_match_pyclbr(module: str) -> None:
    text = stdlib_source(module)
    lines = text.split("\n")
    chunks = chunk_file("m.py", text)
    starts: dict[str, set[int]] = {}
    for c in chunks:
        starts.setdefault(c.symbol, set()).add(c.start_line)
    found = clbr(module)
    assert found
    for name, obj in found.items():
        assert name in starts, name
        # pyclbr gives the def/class line; a chunk starts there, or at the decorators above it.
        start = max(s for s in starts[name] if s <= obj.lineno)
        assert all(line.lstrip().startswith("@") for line in lines[start - 1 : obj.lineno - 1])
        assert lines[obj.lineno - 1].lstrip().startswith(("def ", "async def ", "class "))


def test_decorated_start_lines_in_fnmatch() -> None:
    # fnmatch._compile_pattern is decorated with functools.lru_cache on the line above it.
    text = stdlib_source("fnmatch")
    lineno = clbr("fnmatch")["_compile_pattern"].lineno
    (chunk,) = [c for c in chunk_file("fnmatch.py", text) if c.symbol == "_compile_pattern"]
    assert chunk.start_line == lineno - 1
    assert chunk.text.startswith("@functools.lru_cache")


def test_split_class_methods_match_pyclbr() -> None:
    text = stdlib_source("json.decoder")
    chunks = chunk_file("json/decoder.py", text)
    cls = clbr("json.decoder")["JSONDecoder"]
    assert isinstance(cls, pyclbr.Class)
    method_starts = {c.symbol: c.start_line for c in chunks if c.kind == "method"}
    assert method_starts == {f"JSONDecoder.{m}": n for m, n in cls.methods.items()}


def _edit_stability(text: str, old: str, new: str, symbol: str) -> None:
    assert text.count(old) == 1
    edited = text.replace(old, new)
    before = {c.text for c in chunk_file("m.py", text)}
    after_chunks = chunk_file("m.py", edited)
    after = {c.text for c in after_chunks}
    changed = {c.symbol for c in after_chunks if c.text not in before}
    assert changed == {symbol}
    # Everything else kept its exact text even though the lines below moved.
    assert len(before - after) >= 1
    assert after - {c.text for c in after_chunks if c.symbol == symbol} <= before


def test_edit_in_one_function_changes_only_its_chunks_sample() -> None:
    _edit_stability(SAMPLE, "    return x + 1\n", "    x += 1\n    return x + 1\n", "small")


def test_edit_in_one_function_changes_only_its_chunks_stdlib() -> None:
    text = stdlib_source("json.decoder")
    old = "def _decode_uXXXX(s, pos):\n"
    _edit_stability(text, old, old + "    # an added comment line\n", "_decode_uXXXX")


def test_edit_in_a_long_method_changes_only_that_method() -> None:
    text = stdlib_source("json.decoder")
    old = "        self.object_hook = object_hook\n"
    _edit_stability(text, old, old + "        self.extra = 1\n", "JSONDecoder.__init__")


def test_nul_byte_in_python_falls_back_to_windows() -> None:
    assert spans(chunk_file("n.py", "x = 1\x00\ny = 2\n")) == [(1, 2, "", "window")]
