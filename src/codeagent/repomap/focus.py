"""A map's focus: what it is personalised towards.

Each focus is a path of the repository (a file, a folder, or a unique end of a path such as
``graph.py``) or a question. A question brings the files the search ranks best for it
(:func:`codeagent.rank.ranking.rank_files`), the files defining the code names it holds,
and, as definitions to show first, those names and the definitions of its best chunks.
Tests, docs and vendored files stay out of a map unless a focus names one of them (a path
under ``tests/``) or a short question asks about tests or docs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codeagent.errors import ConfigError
from codeagent.rank.file_roles import code_suffixes
from codeagent.repomap.base import DEFAULT_KINDS, rows_named

if TYPE_CHECKING:
    from codeagent.repomap.base import MapBase
    from codeagent.store.store import IndexStore

TOP_FILES = 10  # a question's best files that the map is personalised towards
BEST_CHUNKS = 2  # per top file: the chunks whose definitions are shown first
# A word ending so names a file (``x.py``, ``README.md``), not a dotted code name.
TEXT_SUFFIXES = frozenset({".md", ".rst", ".txt", ".toml", ".cfg", ".ini", ".json", ".yml"})
_PATHLIKE = re.compile(r"^[\w.@+-]+(?:/[\w.@+-]*)*$")


@dataclass
class Focus:
    """Weights towards files (personalisation), definitions to put first, kinds let in."""

    files: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    names: set[str] = field(default_factory=set)  # definition names the question holds
    defs: set[tuple[int, str]] = field(default_factory=set)  # (file, qualname) of best chunks
    kinds: set[str] = field(default_factory=lambda: set(DEFAULT_KINDS))
    named: set[int] = field(default_factory=set)  # files a path names: shown whatever kind

    @property
    def empty(self) -> bool:
        return not self.files


def _path_matches(base: MapBase, text: str) -> list[int] | None:
    """Files ``text`` names as a path (None when it is not written as one)."""
    written = text.strip().removeprefix("./").rstrip("/")
    if not written or not _PATHLIKE.match(written):
        return None
    index = {p: i for i, p in enumerate(base.paths)}
    if written in index:
        return [index[written]]
    under = [i for p, i in index.items() if p.startswith(written + "/")]
    if under:
        return under
    ends = [i for p, i in index.items() if p.endswith("/" + written)]
    if ends:
        return ends
    suffix = PurePosixPath(written).suffix.lower()
    if "/" in written or suffix in TEXT_SUFFIXES or suffix in code_suffixes():
        raise ConfigError(
            f"focus {written}: no file or folder of the index with definitions has that path"
        )
    return None  # one word, or a dotted name (``Session.request``): a question


def _row_files(base: MapBase) -> list[int]:
    """The file of each row of :func:`~codeagent.repomap.base.rows_named`."""
    found: list[int] | None = base.memo.get("row_files")
    if found is None:
        found = [i for i, defs in enumerate(base.defs) for _ in range(max(len(defs), 1))]
        base.memo["row_files"] = found
    return found


def _add_question(base: MapBase, store: IndexStore | None, question: str, focus: Focus) -> None:
    from codeagent.rank.query import analyze

    analysis = analyze(question)
    if analysis.wants_tests:
        focus.kinds.add("tests")
    if analysis.wants_docs:
        focus.kinds.add("docs")
    index = {p: i for i, p in enumerate(base.paths)}
    names = set(analysis.identifiers)
    files_of = _row_files(base)
    named = rows_named(base)
    definers = {n: sorted({files_of[r] for r in named[n]}) for n in sorted(names) if n in named}
    for name, files in definers.items():
        focus.names.add(name)
        for i in files:
            focus.files[i] += 0.5 / len(files)
    if store is None:
        return
    from codeagent.rank.ranking import rank_files

    ranking = rank_files(store, question, analysis)
    chunks = store.chunks
    top = [(p, index[p]) for p, _score in ranking.files if p in index][:TOP_FILES]
    for place, (path, i) in enumerate(top):
        focus.files[i] += 1.0 / (place + 1)
        for cid in ranking.chunks_of(path)[:BEST_CHUNKS]:
            if chunks[cid].symbol and not chunks[cid].symbol.startswith("<"):
                focus.defs.add((i, chunks[cid].symbol))


def read_focus(base: MapBase, store: IndexStore | None, focus: list[str]) -> Focus:
    """The :class:`Focus` of ``focus`` (paths and questions, in any mix)."""
    found = Focus()
    for text in focus:
        if not text.strip():
            continue
        files = _path_matches(base, text)
        if files is None:
            _add_question(base, store, text, found)
            continue
        for i in files:
            found.files[i] += 2.0 / len(files)
            found.named.add(i)
    return found
