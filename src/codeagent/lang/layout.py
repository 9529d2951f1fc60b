"""The paths of a repository's files of one language family, with the lookups a language's
import rule (``LanguageSpec.import_files``) needs: by exact path, by folder, by path ending,
and C#'s namespaces."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cached_property


class Layout:
    """The paths of the repository's files of the language layer, with the lookups the rules
    need: by exact path, by folder, by path ending, and C#'s namespaces."""

    def __init__(self, paths: Iterable[str], namespaces: dict[str, set[str]] | None = None):
        self.paths = frozenset(paths)
        self.namespaces = namespaces or {}

    @cached_property
    def by_folder(self) -> dict[str, list[str]]:
        return self._grouped(posixpath.dirname)

    @cached_property
    def by_name(self) -> dict[str, list[str]]:
        return self._grouped(posixpath.basename)

    def _grouped(self, key: Callable[[str], str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.paths):
            out[key(path)].append(path)
        return out

    def ending_with(self, tail: str) -> list[str]:
        """Files whose path is ``tail`` or ends with ``/tail``."""
        return [
            p
            for p in self.by_name.get(posixpath.basename(tail), [])
            if p == tail or p.endswith("/" + tail)
        ]

    def folders_ending_with(self, tail: str) -> list[str]:
        return [f for f in self.by_folder if f and (f == tail or f.endswith("/" + tail))]
