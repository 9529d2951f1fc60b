"""chunk_repo(): every file of a real repository chunked and its symbols extracted in one pass,
checked against each file chunked on its own (chunk_file) and a symbol graph built from
scratch; files that vanish after the listing, files that do not parse, whitespace-only files,
the progress it reports and what it lends the BM25 build."""

from __future__ import annotations

import ast
import importlib
import logging
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.errors import EmptyRepoError
from codeagent.index.build import load_or_build
from codeagent.index.chunked import chunk_repo, skips
from codeagent.index.chunking import chunk_file
from codeagent.index.stats import IndexStats
from codeagent.progress import Advance, NullProgress
from codeagent.repo.discover import Discovery, RepoFile, discover
from codeagent.store import cache as index_cache
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import pack_calls
from conftest import GitRepoFactory

FILES = {
    "shop/__init__.py": '"""Shop."""\n',
    "shop/models.py": "class Cart:\n    def total(self):\n        return 1\n\n\n"
    "def price(item):\n    return item.cost * 2\n",
    "lib/util.py": "def helper():\n    return 1\n",  # no lib/__init__.py: module "util"
    "web/app.js": "function greet(name) {\n  return 'hi ' + name;\n}\n",
    "web/bad.js": "function broken( {\n  return ;\n",  # does not parse
    "web/worse.js": "class {{{\n",  # does not parse either
    "README.md": "# Shop\n",
}


@dataclass
class Recorder:
    """A progress reporter that keeps what it was told."""

    tasks: list[tuple[str, int | None]]
    advanced: list[int]

    @contextmanager
    def task(
        self, description: str, total: int | None, *, expect: float | None = None
    ) -> Iterator[Advance]:
        self.tasks.append((description, total))
        yield self.advanced.append


def fresh(root: Path) -> tuple[Discovery, IndexStats]:
    discovery = discover(root)
    stats = IndexStats(files_indexed=len(discovery.files))
    stats.files_skipped = dict(discovery.skipped)
    return discovery, stats


def expected_chunks(root: Path, paths: list[str]) -> list[tuple[str, int, int, str]]:
    return [
        (c.path, c.start_line, c.end_line, c.text)
        for p in sorted(paths)
        for c in chunk_file(p, (root / p).read_text(encoding="utf-8"))
    ]


def test_every_file_chunked_as_on_its_own_with_its_symbols(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    discovery, stats = fresh(root)
    progress = Recorder([], [])
    started = time.perf_counter()
    chunked = chunk_repo(discovery, stats, progress, [])
    took = time.perf_counter() - started
    got = [(c.path, c.start_line, c.end_line, c.text) for c in chunked.chunks]
    assert got == expected_chunks(root, list(FILES))
    # each file's range points at its own chunks, in order
    for path, (_digest, first, count) in chunked.ranges.items():
        assert [c.path for c in chunked.chunks[first : first + count]] == [path] * count
    assert sorted(chunked.ranges) == sorted(FILES)
    assert sum(count for _d, _f, count in chunked.ranges.values()) == len(chunked.chunks)
    assert progress.tasks == [("chunking", len(FILES))]
    assert progress.advanced == [1] * len(FILES)
    assert stats.parse_errors == {"javascript": 2}
    assert stats.chunks == len(chunked.chunks)
    assert 0 < stats.seconds["chunk"] <= took
    assert (stats.files_reused, stats.files_indexed) == (0, len(FILES))
    assert chunked.earlier_bm25 is None  # nothing earlier to derive BM25 from

    trees = {p: ast.parse((root / p).read_text()) for p in FILES if p.endswith(".py")}
    scratch = SymbolGraph.build(trees, root=root)
    python = {p: rec for p, rec in chunked.symbols.files.items() if "l" not in rec}
    assert python == scratch.files
    assert chunked.symbols.files["lib/util.py"]["m"] == "util"
    assert [d.path for d in chunked.symbols.definitions("greet")] == ["web/app.js"]
    assert [d.path for d in chunked.symbols.definitions("Cart")] == ["shop/models.py"]


PYTHON_FILES = {
    "app/good.py": "def ok():\n    return 1\n",
    "app/colon.py": "def f(:\n    pass\n",
    "app/indent.py": "def g():\nreturn 2\n",
    "app/stub.pyi": "def h() -> int: ...\n",
    "app/deep.py": "x = " + "(" * 300 + "1" + ")" * 300 + "\n",
}


def test_python_files_that_do_not_parse_are_counted_and_windowed(
    git_repo: GitRepoFactory, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo(PYTHON_FILES)
    broken = []
    for path, text in PYTHON_FILES.items():  # the truth: CPython's own compiler
        try:
            compile(text, path, "exec", ast.PyCF_ONLY_AST)
        except (SyntaxError, RecursionError, MemoryError):
            broken.append(path)
    assert len(broken) == 3, broken  # the fixture still holds files on both sides
    discovery, stats = fresh(root)
    caplog.set_level(logging.WARNING, logger="codeagent")
    chunked = chunk_repo(discovery, stats, NullProgress(), [])
    assert stats.parse_errors == {"python": len(broken)}
    # a user's syntax error is no fault of the build: no warning (that is for a parse that
    # crashed)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    for path in broken:
        chunks = [c for c in chunked.chunks if c.path == path]
        assert {c.kind for c in chunks} == {"window"}, path
        assert "".join(c.text for c in chunks).rstrip("\n") == PYTHON_FILES[path].rstrip("\n")
        assert path not in chunked.symbols.files or not chunked.symbols.files[path].get("d")
    assert [d.path for d in chunked.symbols.definitions("ok")] == ["app/good.py"]
    got = [(c.path, c.start_line, c.end_line, c.text) for c in chunked.chunks]
    assert got == expected_chunks(root, list(PYTHON_FILES))  # what chunk_file makes of each


def test_a_file_gone_after_the_listing_is_counted_unreadable(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    discovery, stats = fresh(root)
    stats.files_skipped["unreadable"] = 1  # the listing found one already
    (root / "shop/models.py").unlink()
    (root / "README.md").unlink()
    progress = Recorder([], [])
    chunked = chunk_repo(discovery, stats, progress, [])
    left = [p for p in FILES if p not in ("shop/models.py", "README.md")]
    assert [(c.path, c.text) for c in chunked.chunks] == [
        (p, t) for p, _s, _e, t in expected_chunks(root, left)
    ]
    assert stats.files_indexed == len(FILES) - 2
    assert stats.files_skipped["unreadable"] == 3
    assert progress.advanced == [1] * len(FILES)  # an unreadable file is still a step done
    assert "shop/models.py" not in chunked.symbols.files


def test_whitespace_only_files_are_no_index(git_repo: GitRepoFactory) -> None:
    # past the 8 KiB the listing sniffs, blank files are not seen as empty
    blank = {"a.py": " \n" * 5000, "b.md": "\n" * 9000, "c.bin": b"\x00\x01", "d.txt": "\n"}
    root = git_repo(blank)
    discovery, stats = fresh(root)
    assert [f.path for f in discovery.files] == ["a.py", "b.md"]
    with pytest.raises(EmptyRepoError) as caught:
        chunk_repo(discovery, stats, NullProgress(), [])
    assert str(caught.value) == (
        f"no indexable files in {root.resolve()} (skipped: 1 binary, 1 empty); "
        "2 files had no content to index"
    )
    with pytest.raises(EmptyRepoError) as through_build:
        load_or_build(root, Settings.load(embed="none"))
    assert str(through_build.value) == str(caught.value)


def test_skips_in_words() -> None:
    assert skips(Counter()) == " (nothing found)"
    assert skips(Counter({"binary": 1, "secret": 3})) == " (skipped: 3 secret, 1 binary)"


class Vanishing(RepoFile):
    """A real file that is deleted right after its first read (another process removed it)."""

    def read_text(self) -> str:
        text = super().read_text()
        self.abs_path.unlink(missing_ok=True)
        return text


def test_a_reused_file_gone_before_it_is_parsed_again_keeps_its_chunks_only(
    git_repo: GitRepoFactory,
) -> None:
    """lib/util.py is unchanged since the earlier state, but lib/__init__.py appeared: its
    module name moved, so it is parsed again; gone by then, it gets no symbols."""
    root = git_repo(FILES)
    _, first = load_or_build(root, Settings.load(embed="none"))
    (root / "lib/__init__.py").write_text("X = 1\n", encoding="utf-8")
    discovery, stats = fresh(root)
    discovery.files = [
        Vanishing(f.path, f.location, f.size) if f.path == "lib/util.py" else f
        for f in discovery.files
    ]
    earlier = index_cache.states(Path(first.cache_path).parent)
    chunked = chunk_repo(discovery, stats, NullProgress(), earlier)
    assert not (root / "lib/util.py").exists()
    assert stats.files_reused == len(FILES)  # every earlier file had the same text
    assert "lib/util.py" in chunked.ranges
    assert [c.symbol for c in chunked.chunks if c.path == "lib/util.py"] == ["helper"]
    assert "lib/util.py" not in chunked.symbols.files  # as for a file that does not parse
    assert chunked.symbols.files["lib/__init__.py"]["m"] == "lib"
    assert chunked.earlier_bm25 is not None  # the earlier entry lends its BM25 index


def test_reused_files_keep_their_symbols_and_new_ones_are_parsed(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, Settings.load(embed="none"))
    (root / "web/bad.js").write_text("function fixed() {\n  return 1;\n}\n", encoding="utf-8")
    (root / "web/new.js").write_text("function ( {\n", encoding="utf-8")  # a new broken one
    (root / "shop/extra.py").write_text("def extra():\n    return 2\n", encoding="utf-8")
    discovery, stats = fresh(root)
    earlier = index_cache.states(Path(first.cache_path).parent)
    chunked = chunk_repo(discovery, stats, NullProgress(), earlier)
    assert stats.files_reused == len(FILES) - 1
    assert stats.parse_errors == {"javascript": 1}  # only the files parsed now are counted
    paths = [*FILES, "shop/extra.py", "web/new.js"]
    assert [(c.path, c.text) for c in chunked.chunks] == [
        (p, t) for p, _s, _e, t in expected_chunks(root, paths)
    ]
    _, scratch_stats = fresh(root)
    scratch = chunk_repo(discover(root), scratch_stats, NullProgress(), [])
    assert chunked.symbols.files == scratch.symbols.files
    assert chunked.symbols.calls == scratch.symbols.calls
    assert [d.path for d in chunked.symbols.definitions("fixed")] == ["web/bad.js"]
    assert [d.path for d in chunked.symbols.definitions("greet")] == ["web/app.js"]  # reused


class Calls:
    """Counts calls of the real parse and scan functions (they still do their work)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from codeagent import lang
        from codeagent.index import chunking

        self.parsed: Counter[str] = Counter()  # Python parses by path
        self.layer: Counter[str] = Counter()  # language-layer parses by path
        self.scans = 0
        real_parse, real_scan, real_layer = chunking.parse_python, chunking.scan, lang.parse_file

        def parse_python(path: str, text: str) -> object:
            if path.endswith(".py"):
                self.parsed[path] += 1
            return real_parse(path, text)

        def scan(tree: object) -> object:
            self.scans += 1
            return real_scan(tree)  # type: ignore[arg-type]

        def parse_file(path: str, text: str) -> object:
            self.layer[path] += 1
            return real_layer(path, text)

        # wherever the build imported them (the modules of one file's parse)
        for name in ("chunked", "chunking", "per_file"):
            try:
                module = importlib.import_module(f"codeagent.index.{name}")
            except ImportError:
                continue
            for attr, spy in (("parse_python", parse_python), ("scan", scan)):
                if hasattr(module, attr):
                    monkeypatch.setattr(module, attr, spy)
        monkeypatch.setattr(importlib.import_module("codeagent.symbols.extract"), "scan", scan)
        monkeypatch.setattr(lang, "parse_file", parse_file)


PACKAGE = {
    **FILES,
    "pkg/__init__.py": "",  # empty: not indexed, yet it makes pkg a package
    "pkg/core.py": "def run():\n    return 1\n",
}


def test_one_parse_and_one_walk_per_file_and_only_changed_files_again(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(PACKAGE)
    python = sorted(p for p in PACKAGE if p.endswith(".py") and PACKAGE[p])
    layer = ["web/app.js", "web/bad.js", "web/worse.js"]
    calls = Calls(monkeypatch)
    discovery, stats = fresh(root)
    first = chunk_repo(discovery, stats, NullProgress(), [])
    assert dict(calls.parsed) == dict.fromkeys(python, 1)
    assert calls.scans == len(python)  # one walk of each tree, for the chunks and the symbols
    assert {p: calls.layer[p] for p in layer} == dict.fromkeys(layer, 1)
    assert not [p for p in calls.layer if p.endswith(".py")]  # Python is never parsed twice
    assert first.symbols.files["pkg/core.py"]["m"] == "pkg.core"

    load_or_build(root, Settings.load(embed="none"))  # an entry to reuse from
    (root / "shop/models.py").write_text("def price(item):\n    return 3\n", encoding="utf-8")
    calls = Calls(monkeypatch)
    discovery, stats = fresh(root)
    earlier = [e for p in Settings.load().cache_dir.iterdir() for e in index_cache.states(p)]
    again = chunk_repo(discovery, stats, NullProgress(), earlier)
    assert dict(calls.parsed) == {"shop/models.py": 1}  # only the changed file
    assert calls.scans == 1
    assert not calls.layer
    assert again.symbols.files["pkg/core.py"] == first.symbols.files["pkg/core.py"]


def test_a_file_of_the_language_layer_keeps_its_record(git_repo: GitRepoFactory) -> None:
    from codeagent import lang

    root = git_repo(FILES)
    discovery, stats = fresh(root)
    chunked = chunk_repo(discovery, stats, NullProgress(), [])
    for path in ("web/app.js", "web/bad.js"):
        parsed = lang.parse_file(path, FILES[path])
        assert parsed is not None
        record = parsed.record(path)
        record["c"] = pack_calls(record["c"])  # its call sites, as the graph keeps them
        assert chunked.symbols.files[path] == record  # its module name is its path


def test_a_file_whose_parse_raises_is_cut_into_line_windows(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug on one file (an exception in its chunking, in the building process) costs that
    file its structure only: its text in line windows, one Python parse error, a warning; the
    other files keep their definitions."""
    from codeagent.index import per_file

    root = git_repo(FILES)
    real = per_file.chunk_file

    def chunk_file(path: str, *args: object) -> object:
        if path == "shop/models.py":
            raise RuntimeError("planted")
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(per_file, "chunk_file", chunk_file)
    caplog.set_level(logging.WARNING, logger="codeagent")
    discovery, stats = fresh(root)
    chunked = chunk_repo(discovery, stats, NullProgress(), [])
    text = (root / "shop/models.py").read_text(encoding="utf-8")
    windows = [c for c in chunked.chunks if c.path == "shop/models.py"]
    assert windows
    assert {c.kind for c in windows} == {"window"}
    assert windows[0].start_line == 1
    assert windows[-1].end_line == len(text.splitlines())
    assert "".join(c.text for c in windows[:1]).startswith("class Cart:")
    assert stats.parse_errors.get("python") == 1
    assert "shop/models.py" in caplog.text
    assert "planted" in caplog.text
    assert not chunked.symbols.definitions("Cart")  # no structure for the broken file
    assert [d.path for d in chunked.symbols.definitions("helper")] == ["lib/util.py"]
