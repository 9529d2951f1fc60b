"""Synthetic git repositories made of real files: the ``.py`` files of this interpreter's
site-packages (those under a ``tests/`` folder, over 200,000 bytes or holding a NUL byte left
out), in sorted order, copied under their site-packages paths until a repository holds about
the chunks asked for (used by bench_many_repos.py and bench_growth.py).

How many chunks a file makes is counted by ``count``; :func:`definitions` (one per
``def`` / ``class`` line, plus the module header) is close to the chunker's count without
importing it.
"""

from __future__ import annotations

import re
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path

DEF = re.compile(rb"^\s*(?:async\s+def|def|class)\s", re.MULTILINE)
MAX_BYTES = 200_000

Counter = Callable[[str, bytes], int]  # (path relative to the repository, contents) -> chunks


def site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def source_files() -> list[Path]:
    root = site_packages()
    return sorted(p for p in root.rglob("*.py") if p.is_file() and "/tests/" not in str(p))


def definitions(_path: str, data: bytes) -> int:
    """The module header plus one chunk per ``def`` / ``class`` line."""
    return 1 + len(DEF.findall(data))


def fill(
    root: Path,
    files: list[Path],
    cursor: int,
    chunks: int,
    count: Counter = definitions,
    *,
    nearest: bool = False,
) -> tuple[int, int]:
    """Copy ``files[cursor:]`` (wrapping round) into ``root`` until it holds ``chunks``
    chunks as ``count`` counts them (``nearest``: or stop before the file that would take it
    further past ``chunks`` than it is short); ``(next cursor, chunks held)``. SystemExit
    when all the files are not enough."""
    base = site_packages()
    held = 0
    start = cursor
    while held < chunks:
        if cursor - start >= len(files):
            raise SystemExit(
                f"the .py files of site-packages ({base}) make about {held:,} chunks,"
                f" fewer than the {chunks:,} asked for"
            )
        source = files[cursor % len(files)]
        cursor += 1
        data = source.read_bytes()
        if len(data) > MAX_BYTES or b"\x00" in data:
            continue
        relative = source.relative_to(base)
        adds = count(relative.as_posix(), data)
        if nearest and held and held + adds - chunks > chunks - held:
            return cursor - 1, held
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        held += adds
    return cursor, held


def commit(root: Path) -> None:
    """``git init`` and commit everything in ``root`` with a fixed identity."""
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", "-c",
           "commit.gpgsign=false"]  # fmt: skip
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "slice"]):
        subprocess.run([*git, *args], cwd=root, check=True)
