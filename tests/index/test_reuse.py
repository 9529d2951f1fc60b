"""Reusing an earlier state's chunks and symbols: the result is the same as from scratch."""

from __future__ import annotations

import ast
import contextlib
import json
import logging
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.symbols.graph import SymbolGraph
from conftest import GitRepoFactory, git
from edited_repo import FILES, edit, rows


def expected_chunks(root: Path) -> list[list[object]]:
    """Every tracked or untracked file chunked directly, in path order."""
    listed = git(root, "ls-files", "--cached", "--others", "--exclude-standard").split()
    out = []
    for path in sorted(p for p in listed if (root / p).is_file()):
        for c in chunk_file(path, (root / path).read_text(encoding="utf-8")):
            out.append([c.path, c.start_line, c.end_line, c.symbol, c.kind, c.text])
    return out


def expected_symbols(root: Path) -> SymbolGraph:
    trees = {}
    for path in git(root, "ls-files", "--cached", "--others", "--exclude-standard").split():
        if path.endswith(".py") and (root / path).is_file():
            with contextlib.suppress(SyntaxError):  # no symbols, as in the index
                trees[path] = ast.parse((root / path).read_text(encoding="utf-8"))
    return SymbolGraph.build(trees, root=root)


def same_graph(a: SymbolGraph, b: SymbolGraph) -> bool:
    return (a.files, a.paths, a.calls) == (b.files, b.paths, b.calls)


def test_an_edit_reuses_unchanged_files_and_matches_a_fresh_build(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, Settings.load(embed="hash:32"))
    assert first.files_reused == 0
    edit(root)
    store, stats = load_or_build(root, Settings.load(embed="hash:32"))
    assert not stats.cache_hit
    # 7 files then; one edited, one deleted, one added: the other 5 come from the first state.
    assert (stats.files_indexed, stats.files_reused) == (7, 5)
    assert rows(stats.cache_path) == expected_chunks(root)
    graph = SymbolGraph.load(Path(stats.cache_path))
    assert same_graph(graph, expected_symbols(root))
    assert graph.files["lib/util.py"]["m"] == "lib.util"  # re-extracted under its new name
    assert [d.name for d in graph.definitions("discount")] == ["discount"]

    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "fresh-home"))
    fresh, scratch = load_or_build(root, Settings.load(embed="hash:32"))
    assert scratch.files_reused == 0
    assert rows(scratch.cache_path) == rows(stats.cache_path)
    assert same_graph(SymbolGraph.load(Path(scratch.cache_path)), graph)
    for query in ("price item", "Cart total", "discount", "helper"):
        assert store.search(query, k=5) == fresh.search(query, k=5)


@pytest.mark.parametrize("damage", ["files.json", "chunks.json", "symbols.json", "missing"])
def test_a_damaged_earlier_state_means_a_full_parse(
    git_repo: GitRepoFactory, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, Settings.load(embed="hash:32"))
    entry = Path(first.cache_path)
    if damage == "missing":  # an entry saved before files.json existed
        (entry / "files.json").unlink()
    else:
        with (entry / damage).open("a", encoding="utf-8") as handle:
            handle.write(" ")  # still parses, no longer matches the manifest
    edit(root)
    with caplog.at_level(logging.INFO, logger="codeagent.index.reuse"):
        _, stats = load_or_build(root, Settings.load(embed="hash:32"))
    assert stats.files_reused == 0
    assert "not reusing" in caplog.text
    assert rows(stats.cache_path) == expected_chunks(root)
    assert same_graph(SymbolGraph.load(Path(stats.cache_path)), expected_symbols(root))


def test_a_wrong_chunk_range_is_not_trusted(git_repo: GitRepoFactory) -> None:
    """files.json and the manifest rewritten consistently but pointing at another file's
    chunks: the range check refuses it."""
    from codeagent.store.entry_files import read_manifest, sha256_file

    root = git_repo(FILES)
    _, first = load_or_build(root, Settings.load(embed="hash:32"))
    entry = Path(first.cache_path)
    data = json.loads((entry / "files.json").read_text())
    data["files"]["shop/cart.py"][1] = 0  # the range of README.md's chunk
    (entry / "files.json").write_text(json.dumps(data))
    manifest = read_manifest(entry)
    manifest["files"]["files.json"] = sha256_file(entry / "files.json")
    (entry / "manifest.json").write_text(json.dumps(manifest))
    edit(root)
    _, stats = load_or_build(root, Settings.load(embed="hash:32"))
    assert stats.files_reused == 0
    assert rows(stats.cache_path) == expected_chunks(root)


def test_force_parses_everything(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    load_or_build(root, Settings.load(embed="hash:32"))
    edit(root)
    _, stats = load_or_build(root, Settings.load(embed="hash:32"), force=True)
    assert stats.files_reused == 0


def test_a_text_holding_escaped_bytes_has_a_digest() -> None:
    """A file's text may carry bytes that are not UTF-8 as lone surrogates (Python's
    ``surrogateescape``, as ``os.fsdecode`` gives them): each still has a digest, and two
    such texts that differ in one byte have different digests."""
    from codeagent.index.reuse import text_digest

    one, other = b"x = '\xff'\n".decode("utf-8", "surrogateescape"), "x = '\udcfe'\n"
    assert text_digest(one) != text_digest(other)
    assert text_digest(one) != text_digest("x = '\ufffd'\n")
