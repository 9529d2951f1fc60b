"""The symbol graph's records: a definition, an import, a call site (plain, light values)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Definition:
    """A module, class, function or method; ``qualname`` is relative to ``module``."""

    qualname: str
    name: str
    kind: str  # module | class | function | method
    path: str
    start_line: int  # first decorator line
    end_line: int
    signature: str = ""
    doc: str = ""
    bases: tuple[str, ...] = ()  # classes: as written
    module: str = ""
    line: int = 0  # the def/class line

    @property
    def full_name(self) -> str:
        if self.kind == "module":
            return self.module
        return f"{self.module}.{self.qualname}" if self.module else self.qualname


@dataclass(frozen=True, slots=True)
class Import:
    """``import module [as alias]`` (name None) or ``from module import name [as alias]``."""

    path: str
    line: int
    module: str  # absolute
    name: str | None
    alias: str | None

    @property
    def bound(self) -> str:
        """The local name the import binds."""
        if self.alias:
            return self.alias
        return self.name if self.name is not None else self.module.split(".")[0]

    @property
    def target(self) -> str:
        """What the bound name refers to, as a dotted name."""
        if self.name is None:
            return self.module if self.alias else self.module.split(".")[0]
        return f"{self.module}.{self.name}" if self.module else self.name


@dataclass(frozen=True, slots=True)
class CallSite:
    """A call of ``name`` (aliases undone) at ``path:line`` inside ``scope`` ("" = module)."""

    path: str
    line: int
    name: str
    scope: str


def pack_calls(sites: list[list[Any]]) -> list[Any]:
    """A file's call sites ``[line, name, scope]`` as its record keeps them (``c``):
    ``[names, [line, name number, scope, ...]]``, each name once, quick to load."""
    names: dict[str, int] = {}
    flat: list[int] = []
    for line, name, scope in sites:
        flat += (line, names.setdefault(name, len(names)), scope)
    return [list(names), flat]


def unpack_calls(packed: list[Any]) -> Iterator[tuple[int, str, int]]:
    """``(line, name, scope)`` of each call site of a record's ``c``."""
    names, flat = packed
    for k in range(0, len(flat), 3):
        yield flat[k], names[flat[k + 1]], flat[k + 2]
