"""What ``borrow`` checks before an earlier entry's bytes are copied into a new one: each rule
of the layout broken on its own (the others kept), refused with its own message. The entry is
a real build's; each damage is made from that entry's own bytes and offsets."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import CHUNKER_VERSION
from codeagent.records import Chunk
from codeagent.store.entry_files import to_chunks
from codeagent.store.fragments import _SYMBOLS_HEAD, borrow
from conftest import git, write_files

FILES = {
    "app/__init__.py": '"""App."""\n',
    "app/models.py": "class Cart:\n    def total(self):\n        return 1\n\n\n"
    "def price(item):\n    return item.cost * 2\n",
    "app/views.py": "from app.models import price\n\n\ndef show(item):\n    return price(item)\n",
    "web/app.ts": "export function start(x: number): number {\n  return x + 1;\n}\n",
    "README.md": "# App\n\nA tiny app.\n",
}

Entry = tuple[dict[str, Any], bytes, bytes, int]


@pytest.fixture(scope="module")
def entry(tmp_path_factory: pytest.TempPathFactory) -> Entry:
    """files.json (read), chunks.json and symbols.json (bytes) and the chunk count."""
    root = tmp_path_factory.mktemp("repo")
    git(root, "init", "-q")
    write_files(root, FILES)  # type: ignore[arg-type]
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CODEAGENT_HOME", str(home))
        _, stats = load_or_build(root, Settings.load(embed="none"))
    folder = Path(stats.cache_path)
    layout = json.loads((folder / "files.json").read_text(encoding="utf-8"))
    chunks, symbols = (folder / "chunks.json").read_bytes(), (folder / "symbols.json").read_bytes()
    return layout, chunks, symbols, stats.chunks


def _copy(entry: Entry) -> Entry:
    layout, chunks, symbols, count = entry
    return json.loads(json.dumps(layout)), chunks, symbols, count


def _stretch(layout: dict[str, Any], path: str) -> tuple[int, int]:
    c_at, c_len = layout["at"][path][:2]
    return c_at, c_len


def _ordered(layout: dict[str, Any]) -> list[str]:
    return [p for p, (_, _, n) in layout["files"].items() if n]


def _second(e: Entry) -> str:
    return _ordered(e[0])[1]


def _with_records(e: Entry) -> list[str]:
    return sorted(p for p, at in e[0]["at"].items() if at[2] >= 0)


Damage = Callable[[Entry], tuple[Entry, str]]


def not_a_layout(e: Entry) -> tuple[Entry, str]:
    return ([], e[1], e[2], e[3]), "files.json is not of this format"  # type: ignore[return-value]


def other_chunker(e: Entry) -> tuple[Entry, str]:
    e[0]["chunker"] = "0"
    return e, "built by another chunker or symbol-graph version"


def other_symbols(e: Entry) -> tuple[Entry, str]:
    e[0]["symbols"] = -1
    return e, "built by another chunker or symbol-graph version"


def first_off(e: Entry) -> tuple[Entry, str]:
    path = _second(e)
    e[0]["files"][path][1] += 1
    return e, f"the chunk range of {path} is wrong"


def negative_count(e: Entry) -> tuple[Entry, str]:
    path = _second(e)
    e[0]["files"][path][2] = -1
    return e, f"the chunk range of {path} is wrong"


def rows_without_bytes(e: Entry) -> tuple[Entry, str]:
    path = _second(e)
    e[0]["at"][path][1] = 0
    return e, f"the chunk range of {path} is wrong"


def no_separator(e: Entry) -> tuple[Entry, str]:
    path = _second(e)
    c_at, _ = _stretch(e[0], path)
    chunks = e[1][: c_at - 2] + b"  " + e[1][c_at:]
    return (e[0], chunks, e[2], e[3]), f"the chunk bytes of {path} are not where it says"


def last_row_left_out(e: Entry) -> tuple[Entry, str]:
    """The stretch ends before its last row: it holds one row fewer than the file has."""
    path = next(p for p in _ordered(e[0]) if e[0]["files"][p][2] >= 2)
    c_at, c_len = _stretch(e[0], path)
    head = b"[" + json.dumps(path).encode() + b", "
    last = e[1].rfind(head, c_at, c_at + c_len)
    e[0]["at"][path][1] = last - 2 - c_at  # up to the ", " before the last row
    n = e[0]["files"][path][2]
    return e, f"the chunk bytes of {path} are not its {n} rows"


def module_without_record(e: Entry) -> tuple[Entry, str]:
    e[0]["modules"]["README.md"] = "README"
    return e, "the module of README.md has no record"


def other_count(e: Entry) -> tuple[Entry, str]:
    return (e[0], e[1], e[2], e[3] + 1), "the chunk ranges do not cover the chunks"


def no_opening_bracket(e: Entry) -> tuple[Entry, str]:
    return (e[0], b"{" + e[1][1:], e[2], e[3]), "the chunk ranges do not cover the chunks"


def bytes_after_the_rows(e: Entry) -> tuple[Entry, str]:
    chunks = e[1][:-1] + b" ]"
    return (e[0], chunks, e[2], e[3]), "the chunk ranges do not cover the chunks"


def no_closing_bracket(e: Entry) -> tuple[Entry, str]:
    return (e[0], e[1][:-1] + b"}", e[2], e[3]), "the chunk ranges do not cover the chunks"


def symbols_of_another_format(e: Entry) -> tuple[Entry, str]:
    symbols = e[2].replace(_SYMBOLS_HEAD, b" " + _SYMBOLS_HEAD[1:], 1)
    return (e[0], e[1], symbols, e[3]), "symbols.json is not of this format"


def no_record_separator(e: Entry) -> tuple[Entry, str]:
    path = _with_records(e)[1]
    r_at = e[0]["at"][path][2]
    symbols = e[2][: r_at - 1] + b" " + e[2][r_at:]
    return (e[0], e[1], symbols, e[3]), f"the symbol bytes of {path} are not where it says"


def record_of_another_path(e: Entry) -> tuple[Entry, str]:
    """The record's bytes start with another file's name (of the same length)."""
    path = _with_records(e)[1]
    r_at = e[0]["at"][path][2]
    other = path[:-1] + ("x" if path[-1] != "x" else "y")
    symbols = e[2][:r_at] + json.dumps(other).encode() + e[2][r_at + len(json.dumps(path)) :]
    return (e[0], e[1], symbols, e[3]), f"the symbol bytes of {path} are not its record"


def bytes_after_the_records(e: Entry) -> tuple[Entry, str]:
    symbols = e[2][:-2] + b" }}"
    return (e[0], e[1], symbols, e[3]), "the records do not cover symbols.json"


def no_closing_braces(e: Entry) -> tuple[Entry, str]:
    symbols = e[2][:-2] + b"]]"
    return (e[0], e[1], symbols, e[3]), "the records do not cover symbols.json"


DAMAGES: list[Damage] = [
    not_a_layout,
    other_chunker,
    other_symbols,
    first_off,
    negative_count,
    rows_without_bytes,
    no_separator,
    last_row_left_out,
    module_without_record,
    other_count,
    no_opening_bracket,
    bytes_after_the_rows,
    no_closing_bracket,
    symbols_of_another_format,
    no_record_separator,
    record_of_another_path,
    bytes_after_the_records,
    no_closing_braces,
]


def test_a_sound_entry_is_lent_whole(entry: Entry) -> None:
    parts = borrow(*_copy(entry), chunker=CHUNKER_VERSION)
    assert [p.path for p in parts] == list(entry[0]["files"])
    assert sum(p.count for p in parts) == entry[3]


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda d: d.__name__)
def test_each_rule_broken_alone_is_refused(entry: Entry, damage: Damage) -> None:
    damaged, message = damage(_copy(entry))
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        borrow(*damaged, chunker=CHUNKER_VERSION)


def test_borrowed_rows_decode_to_the_chunks_with_their_headers(entry: Entry) -> None:
    """Rows of another language carry the definition's signature (the dense header)."""
    rows = json.loads(entry[1])
    chunks = to_chunks(rows)
    expected = [Chunk(*row[:3], row[5], row[3], row[4], *row[6:]) for row in rows]
    assert chunks == expected
    typed = [c for c in chunks if c.path == "web/app.ts"]
    assert typed
    assert "start(x: number)" in typed[0].header
