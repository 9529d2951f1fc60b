"""Incremental builds as a property: after any sequence of edits (a file changed, added,
deleted, changed back), the entry an incremental build makes holds what a build from scratch
of the same work tree holds: the same chunk rows, the same vectors row by row, the same search
results. Truth: a build in another, empty ``CODEAGENT_HOME`` (nothing to reuse)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory
from edited_repo import rows, stored_vectors
from properties import fast

EMBED = "hash:32"
START = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n\n\nclass Cart:\n"
    "    def total(self):\n        return sum(price(i) for i in self.items)\n",
    "shop/cart.py": "from shop.models import Cart\n\n\ndef add(cart, item):\n    cart.add(item)\n",
    "lib/util.py": "def helper():\n    return 1\n",
    "README.md": "# Shop\n\nA tiny shop.\n",
}
VARIANTS = [
    None,  # deleted
    "def helper():\n    return 2\n",
    "def discount(item):\n    return item.cost / 2\n\n\ndef tax(item):\n    return 0.2\n",
    "class Basket:\n    def add(self, item):\n        self.items.append(item)\n",
    "# notes\n\nprice and cart\n",
]
edits = st.lists(
    st.tuples(st.sampled_from([*START, "lib/new.py"]), st.sampled_from(range(len(VARIANTS)))),
    min_size=1,
    max_size=3,
)


def build(root: Path, home: Path) -> tuple[object, str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CODEAGENT_HOME", str(home))
        store, stats = load_or_build(root, Settings.load(embed=EMBED))
    return store, stats.cache_path


@settings(fast(4), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits)
def test_any_edit_sequence_gives_the_entry_a_fresh_build_would(
    git_repo: GitRepoFactory, tmp_path_factory: pytest.TempPathFactory, steps: list
) -> None:
    root = git_repo(START)
    home = tmp_path_factory.mktemp("incremental")
    build(root, home)
    for path, variant in steps:
        text = VARIANTS[variant]
        if text is None:
            (root / path).unlink(missing_ok=True)
        else:
            (root / path).parent.mkdir(exist_ok=True)
            (root / path).write_text(text)
        store, entry = build(root, home)
        fresh, scratch = build(root, tmp_path_factory.mktemp("fresh"))
        assert rows(entry) == rows(scratch)
        np.testing.assert_array_equal(stored_vectors(entry), stored_vectors(scratch))
        for query in ("price item", "Cart total", "helper", "discount tax", "basket add"):
            assert store.search(query, k=5) == fresh.search(query, k=5)  # type: ignore[attr-defined]
