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
    """A call of ``name`` (aliases undone) at ``path:line`` inside ``scope`` ("" = module).

    ``target``: the full name of the repository definition the call resolves to (by its
    receiver, its imports, the class's bases: :mod:`codeagent.symbols.call_targets`); ``""``
    when it could not be tied to one (a call "by name"). ``outside``: resolved, to a name
    outside the repository (``json.dumps``), which ``target`` then holds."""

    path: str
    line: int
    name: str
    scope: str
    target: str = ""
    outside: bool = False

    @property
    def resolved(self) -> bool:
        return bool(self.target) and not self.outside


def pack_calls(sites: list[list[Any]]) -> list[Any]:
    """A file's call sites ``[line, name, scope]`` or ``[line, name, scope, target]`` as its
    record keeps them (``c``): ``[names, [line, name number, scope, ...]]``, each name once,
    quick to load, then, when a site has a target (:mod:`codeagent.symbols.receivers`), the
    target's number in ``names`` for each site (-1: none)."""
    names: dict[str, int] = {}
    flat: list[int] = []
    targets: list[int] = []
    for line, name, scope, *target in sites:
        flat += (line, names.setdefault(name, len(names)), scope)
        targets.append(names.setdefault(target[0], len(names)) if target and target[0] else -1)
    if any(t >= 0 for t in targets):
        return [list(names), flat, targets]
    return [list(names), flat]


def unpack_calls(packed: list[Any]) -> Iterator[tuple[int, str, int]]:
    """``(line, name, scope)`` of each call site of a record's ``c``."""
    names, flat = packed[0], packed[1]
    for k in range(0, len(flat), 3):
        yield flat[k], names[flat[k + 1]], flat[k + 2]


def call_target(packed: list[Any], site: int) -> str | None:
    """The target written in the file (:mod:`codeagent.symbols.receivers`) of the ``site``-th
    call site of a record's ``c``, or None."""
    if len(packed) < 3 or packed[2][site] < 0:
        return None
    return str(packed[0][packed[2][site]])
