"""An edit's entry spliced from the earlier entry's bytes is the entry a build from scratch
writes, byte for byte (the truth: a cold build of the same state in a fresh home, and json /
the chunker / ``ast`` read directly); an unsound layout is refused, never copied."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import CHUNKER_VERSION, chunk_file
from codeagent.store.entry_files import read_manifest, sha256_file
from codeagent.store.fragments import Content, FilePart
from conftest import GitRepoFactory, git

FILES = {
    "shop/__init__.py": '"""Shop."""\nfrom .models import price\n',
    "shop/models.py": "import os\n\n\ndef price(item):\n    return item.cost * 2\n\n\n"
    "class Cart:\n    def total(self):\n        return sum(price(i) for i in self.items)\n",
    "shop/cart.py": "from shop.models import Cart\n\n\n"
    'def add(cart, item):\n    """Adds ["x", 1]."""\n'
    '    cart.add(item, "[\\"shop/cart.py\\", ")\n',
    "shop/ünï.py": "def grüß():\n    return 'é ✓'\n",
    "lib/util.py": "def helper():\n    return price(1)\n",  # no lib/__init__.py yet
    "broken.py": "def oops(:\n    pass\n",  # does not parse: line windows, no symbols
    "web/app.js": "function start(x) {\n  return run(x);\n}\n",
    "README.md": "# Shop\n\nA tiny shop.\n",
    "tests/test_models.py": "from shop.models import price\n\n\ndef test_price():\n    price(1)\n",
}
SPLICED = ("chunks.json", "symbols.json", "files.json")


def edit(root: Path) -> None:
    """Change one file, add a package marker (renames lib/util's module), add and delete."""
    models = root / "shop/models.py"
    models.write_text(models.read_text() + "\n\ndef discount(item):\n    return price(item)\n")
    (root / "lib/__init__.py").write_text("from .util import helper\n")
    (root / "tests/test_models.py").unlink()
    (root / "shop/zz_new.py").write_text("def fresh():\n    return helper()\n")


def listed(root: Path) -> list[str]:
    """The files git lists (tracked and untracked, not ignored), sorted."""
    out = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    return sorted(p for p in out.split("\0") if p and (root / p).is_file())


def settings() -> Settings:
    return Settings.load(embed="none")


def test_a_spliced_entry_is_the_entry_a_cold_build_writes(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo(FILES)
    load_or_build(root, settings())
    edit(root)
    store, stats = load_or_build(root, settings())
    assert stats.files_reused == len(FILES) - 2  # models.py edited, the test file deleted
    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "fresh-home"))
    fresh, scratch = load_or_build(root, settings())
    assert scratch.files_reused == 0
    edited, cold = Path(stats.cache_path), Path(scratch.cache_path)
    for name in SPLICED:  # (BM25's term ids keep the earlier order: equal scores, not bytes)
        assert (edited / name).read_bytes() == (cold / name).read_bytes(), name
    expected = [
        [c.path, c.start_line, c.end_line, c.symbol, c.kind, c.text, *[c.header][: bool(c.header)]]
        for path in listed(root)
        for c in chunk_file(path, (root / path).read_text(encoding="utf-8"))
    ]
    assert json.loads((edited / "chunks.json").read_bytes()) == expected
    assert store.chunks == fresh.chunks  # decoded from the parts kept in memory, or read
    assert store.symbols.files["lib/util.py"]["m"] == "lib.util"  # extracted again
    assert [d.path for d in store.symbols.definitions("fresh")] == ["shop/zz_new.py"]
    assert store.search("price item", k=5) == fresh.search("price item", k=5)


def test_one_chunk_of_a_borrowed_file_decodes_that_file_only(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, settings())
    everything = json.loads((Path(first.cache_path) / "chunks.json").read_bytes())
    from codeagent.index.reuse import find_previous

    previous = find_previous([Path(first.cache_path)])
    assert previous is not None
    parts = [previous.part(p, previous._parts[p].digest) for p in previous._parts]
    content = Content([p for p in parts if p is not None], chunker=CHUNKER_VERSION)
    assert len(content) == len(everything)
    last = content[len(everything) - 1]
    assert [last.path, last.start_line, last.end_line] == everything[-1][:3]
    decoded = [p for p in content.parts if not isinstance(p.chunks, memoryview)]
    assert [p.path for p in decoded] == [last.path]
    assert [[c.path, c.start_line, c.text] for c in content.chunks()] == [
        [row[0], row[1], row[5]] for row in everything
    ]
    with pytest.raises(IndexError):
        content[len(everything)]


def _rewrite_layout(entry: Path, change: object) -> None:
    """Change files.json with ``change(layout)`` and put its sha256 in the manifest, so
    only the layout check can tell."""
    layout = json.loads((entry / "files.json").read_text(encoding="utf-8"))
    change(layout)  # type: ignore[operator]
    (entry / "files.json").write_text(json.dumps(layout), encoding="utf-8")
    manifest = read_manifest(entry)
    manifest["files"]["files.json"] = sha256_file(entry / "files.json")
    (entry / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def _swap_rows(layout: dict[str, dict[str, list[int]]]) -> None:
    at = layout["at"]
    at["shop/cart.py"][:2], at["lib/util.py"][:2] = at["lib/util.py"][:2], at["shop/cart.py"][:2]


def _shift(layout: dict[str, dict[str, list[int]]]) -> None:
    layout["at"]["shop/cart.py"][0] += 1


def _one_row_moved(layout: dict[str, dict[str, list[int]]]) -> None:
    """shop/cart.py's last row counted as shop/models.py's: the ranges still tile."""
    layout["files"]["shop/cart.py"][2] -= 1
    layout["files"]["shop/models.py"][1] -= 1
    layout["files"]["shop/models.py"][2] += 1


def _record_elsewhere(layout: dict[str, dict[str, list[int]]]) -> None:
    at = layout["at"]
    at["shop/cart.py"][2:], at["shop/models.py"][2:] = (
        at["shop/models.py"][2:],
        at["shop/cart.py"][2:],
    )


def _module_without_record(layout: dict[str, dict[str, object]]) -> None:
    layout["modules"]["README.md"] = "README"


@pytest.mark.parametrize(
    "change", [_swap_rows, _shift, _one_row_moved, _record_elsewhere, _module_without_record]
)
def test_an_unsound_layout_is_not_copied(
    git_repo: GitRepoFactory, change: object, caplog: pytest.LogCaptureFixture
) -> None:
    root = git_repo(FILES)
    _, first = load_or_build(root, settings())
    _rewrite_layout(Path(first.cache_path), change)
    edit(root)
    with caplog.at_level(logging.INFO, logger="codeagent.index.reuse"):
        store, stats = load_or_build(root, settings())
    assert stats.files_reused == 0
    assert "not reusing" in caplog.text
    assert [c.path for c in store.chunks] == [
        c.path for p in listed(root) for c in chunk_file(p, (root / p).read_text("utf-8"))
    ]


def test_a_part_without_chunks_keeps_the_others_in_place() -> None:
    from codeagent.records import Chunk

    one = Chunk("a.py", 1, 1, "x = 1", "<module>", "module")
    two = Chunk("c.py", 1, 1, "y = 2", "<module>", "module")
    content = Content(
        [
            FilePart("a.py", "d1", 1, [one], None, None),
            FilePart("b.py", "d2", 0, [], None, None),
            FilePart("c.py", "d3", 1, [two], None, None),
        ],
        chunker=CHUNKER_VERSION,
    )
    assert [content[0], content[1]] == [one, two]
    assert content.ranges == {"a.py": ("d1", 0, 1), "b.py": ("d2", 1, 0), "c.py": ("d3", 1, 1)}
