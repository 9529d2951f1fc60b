"""A small repository and the edit the reuse tests make to it, shared by the tests of
``index/reuse.py`` (chunks and symbols) and ``store/earlier_vectors.py`` (vectors): the
truth they read is the work tree chunked and embedded directly, never the index."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from codeagent.embed.embedders import HashEmbedder
from codeagent.index.chunking import chunk_file
from codeagent.records import Chunk
from codeagent.store.faiss_index import FaissFlatIndex
from conftest import git

FILES = {
    "shop/__init__.py": '"""Shop."""\nfrom .models import price\n',
    "shop/models.py": "import os\n\n\ndef price(item):\n    return item.cost * 2\n\n\n"
    "class Cart:\n    def total(self):\n        return sum(price(i) for i in self.items)\n",
    "shop/cart.py": "from shop.models import Cart\n\n\ndef add(cart, item):\n    cart.add(item)\n",
    "lib/util.py": "def helper():\n    return price(1)\n",  # no lib/__init__.py yet
    "broken.py": "def oops(:\n    pass\n",  # does not parse: line windows, no symbols
    "README.md": "# Shop\n\nA tiny shop.\n",
    "tests/test_models.py": "from shop.models import price\n\n\ndef test_price():\n    price(1)\n",
}

EMBED = "hash:32"


def edit(root: Path) -> None:
    """Change one file, add a package marker (renames lib/util's module), delete one file."""
    models = root / "shop/models.py"
    models.write_text(models.read_text() + "\n\ndef discount(item):\n    return price(item)\n")
    (root / "lib/__init__.py").write_text("from .util import helper\n")
    (root / "tests/test_models.py").unlink()


def rows(entry: str) -> list[list[object]]:
    return json.loads((Path(entry) / "chunks.json").read_text(encoding="utf-8"))


def chunks_now(root: Path) -> list[Chunk]:
    """Every tracked or untracked file chunked directly, in path order (the index's order)."""
    listed = git(root, "ls-files", "--cached", "--others", "--exclude-standard").split()
    out: list[Chunk] = []
    for path in sorted(p for p in listed if (root / p).is_file()):
        out.extend(chunk_file(path, (root / path).read_text(encoding="utf-8")))
    return out


def stored_vectors(entry: str) -> np.ndarray:
    return FaissFlatIndex.load(Path(entry) / FaissFlatIndex.file_name).vectors()


def expected_vectors(chunks: list[Chunk]) -> np.ndarray:
    return HashEmbedder(32).embed_documents([c.embed_text for c in chunks])
