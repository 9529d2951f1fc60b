"""A namespace is cut whatever its length: a short file's type under a namespace (C#'s
``namespace X;``, a C++ or PHP namespace, a Ruby module, a Rust ``mod``) is a chunk named for
the type, as ctags names it, not for the namespace."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from codeagent.index.chunking import chunk_file

FILES = {
    "Sinks/SafeSink.cs": (
        "using System;\n\nnamespace App.Sinks;\n\nclass SafeSink : ISink\n{\n"
        "    readonly ISink[] _sinks;\n\n    public void Emit(Event e)\n    {\n"
        "        foreach (var sink in _sinks)\n        {\n            try { sink.Emit(e); }\n"
        "            catch (Exception) { }\n        }\n    }\n}\n"
    ),
    "Sinks/Block.cs": (
        "namespace App.Block\n{\n    public class Restricted\n    {\n"
        "        public bool Allows(int level) { return level > 2; }\n    }\n}\n"
    ),
    "util/box.hpp": (
        "namespace util {\n\nclass Box {\n public:\n  int get() const { return value_; }\n\n"
        " private:\n  int value_ = 0;\n};\n\nint twice(int x) { return 2 * x; }\n\n"
        "}  // namespace util\n"
    ),
    "lib/shop/cart.rb": (
        "module Shop\n  class Cart\n    def initialize\n      @items = []\n    end\n\n"
        "    def total\n      @items.sum(&:price)\n    end\n  end\nend\n"
    ),
    "src/Cart.php": (
        "<?php\n\nnamespace Shop;\n\nclass Cart\n{\n    private array $items = [];\n\n"
        "    public function total(): int\n    {\n        return array_sum($this->items);\n"
        "    }\n}\n"
    ),
    "src/inner.rs": "mod inner {\n    pub fn answer() -> i32 {\n        42\n    }\n}\n",
}
SCOPES = {"namespace", "module", "package", "member", "field", "property", "variable"}


@pytest.mark.usefixtures("needs_ctags")
def test_a_short_files_types_are_chunks_of_their_own_under_a_namespace(tmp_path: Path) -> None:
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    done = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+n+K+S", "-f", "-", *FILES],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    checked = set()
    for row in done.stdout.splitlines():
        tag = json.loads(row)
        if tag.get("kind") in SCOPES:
            continue
        path, line = tag["path"], tag["line"]
        holding = [c for c in chunk_file(path, FILES[path]) if c.start_line <= line <= c.end_line]
        assert holding, (path, tag["name"])
        # the chunk is named for the definition, or for the type ctags puts it in
        scope = re.split(r"::|\\|\.", str(tag.get("scope", "")))[-1]
        last = {re.split(r"::|\\|\.", c.symbol)[-1] for c in holding}
        assert tag["name"] in last or scope in last, (path, tag["name"], line, last)
        assert all(c.kind != "namespace" and c.kind != "mod" for c in holding), (path, line)
        checked.add(path)
    assert checked == set(FILES)
