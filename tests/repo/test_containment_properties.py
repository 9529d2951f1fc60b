"""Path containment in discovery, as a property: whatever the root is called and whatever a
sibling folder adds to that name (``repo`` and ``repo-private``, ``app`` and ``app2``), a link
out of the root is skipped and a link within it kept. Truth: ``Path.resolve()`` and
``is_relative_to``, which compare whole path components."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from codeagent.repo.discover import discover
from conftest import write_files
from properties import fast

FAST = fast(12)
names = st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True)
suffixes = st.sampled_from(["-private", "2", ".bak", "_old", "-", "x"])
_count = itertools.count()


@FAST
@given(names, suffixes, st.booleans())
def test_a_link_is_kept_exactly_when_it_resolves_inside(
    name: str, suffix: str, relative: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / str(next(_count))
        root, sibling = base / name, base / (name + suffix)
        write_files(root, {"a.py": "a = 1\n", "sub/in.py": "i = 1\n"})
        write_files(sibling, {"key.py": "KEY = 1\n", "d/k.py": "K = 1\n"})
        links = {
            "in.py": root / "sub" / "in.py",
            "out.py": sibling / "key.py",
            "out_dir": sibling / "d",
        }
        for link, target in links.items():
            (root / link).symlink_to(Path("..") / target.relative_to(base) if relative else target)
        outside = {
            link for link in links if not (root / link).resolve().is_relative_to(root.resolve())
        }
        assert outside == {"out.py", "out_dir"}  # the truth, by whole path components
        found = discover(root)
        assert [f.path for f in found.files] == ["a.py", "in.py", "sub/in.py"]
        assert found.skipped == {"symlink_outside": len(outside)}
