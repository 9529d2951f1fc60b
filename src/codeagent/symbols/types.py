"""The symbol graph's records: a definition, an import, a call site (plain, light values)."""

from __future__ import annotations

from dataclasses import dataclass


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
