"""Ruby's classes and modules by name (``A.B``, as :mod:`codeagent.lang.ruby_calls` writes
``A::B`` around a call), their methods, mixins and the methods ``class << self`` defines, and
the lookups :mod:`codeagent.symbols.ruby_targets` makes with them: a constant from inside a
nest, a class's ancestors in Ruby's order, a method along them."""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property
from typing import Any

from codeagent.symbols.types import Definition

MAX_ANCESTORS = 64


class RubyTypes:
    """The repository's Ruby classes and modules by name (``A.B``), their methods, mixins and
    methods defined in ``class << self``; built once per graph."""

    def __init__(
        self, files: dict[str, dict[str, Any]], defs: list[Definition], ruby: frozenset[str]
    ) -> None:
        self.types: dict[str, list[Definition]] = defaultdict(list)
        self.methods: dict[str, list[Definition]] = defaultdict(list)
        self.mixins: dict[str, list[tuple[str, str]]] = defaultdict(list)  # (kind, written)
        self.meta: set[tuple[str, str]] = set()  # (class, method) of a class << self
        self.returns: dict[tuple[str, str, bool], str] = {}  # (class, method, own) -> "iConst"
        for d in defs:
            if files[d.path].get("l") not in ruby:
                continue
            name = d.qualname.replace("::", ".")
            if d.kind in ("class", "namespace"):
                self.types[name].append(d)
            elif d.kind == "method":
                self.methods[name].append(d)
        for rec in files.values():
            if rec.get("l") in ruby:
                for owner, kind, written in rec.get("b", ()):
                    if kind == "<<":
                        self.meta.add((owner, written))
                    elif kind[0] == ">":  # what a method returns (>>: the class's own)
                        self.returns[(owner, kind.lstrip(">"), kind[:2] == ">>")] = written
                    else:
                        self.mixins[owner].append((kind, written))
        self._orders: dict[tuple[str, bool], list[tuple[str, bool]]] = {}

    def constant(self, nest: str, written: str) -> str | None:
        """The class or module ``written`` names from inside ``nest``, or None."""
        if written == "self":
            return nest if nest in self.types else None
        dotted = written.replace("::", ".")
        if dotted.startswith("."):  # ::Foo: the top level's
            return dotted[1:] if dotted[1:] in self.types else None
        outer = nest.split(".") if nest else []
        for i in range(len(outer), -1, -1):
            candidate = ".".join([*outer[:i], dotted])
            if candidate in self.types:
                return candidate
        return None

    def superclass(self, name: str) -> str | None:
        """The repository class ``name``'s superclass is (as any opening of it says)."""
        for d in self.types.get(name, ()):
            if d.kind == "class" and d.bases:
                return self.constant(name.rpartition(".")[0], d.bases[0])
        return None

    def ancestors(self, name: str, singleton: bool) -> list[tuple[str, bool]]:
        """(class or module, whether its methods on ``self`` are meant) in lookup order."""
        key = (name, singleton)
        if key not in self._orders:
            order: list[tuple[str, bool]] = []
            self._visit(name, singleton, order, set())
            self._orders[key] = order
        return self._orders[key]

    def _visit(
        self, name: str, singleton: bool, order: list[tuple[str, bool]], seen: set[str]
    ) -> None:
        if name in seen or len(order) >= MAX_ANCESTORS:
            return
        seen.add(name)
        mixins = self.mixins.get(name, ())
        modules = [m for kind, w in reversed(mixins) for m in [self._mixin(name, kind, w)] if m]
        if not singleton:
            for kind, module in modules:
                if kind == "prepend":
                    self._visit(module, False, order, seen)
        order.append((name, singleton))
        own = "extend" if singleton else "include"
        for kind, module in modules:  # a module's own +extend: what its includer's class gets
            if kind == own or (singleton and kind == "+extend"):
                self._visit(module, False, order, seen)
        if singleton:  # what an included module's self.included(base) extends its includer with
            for module in (module for kind, module in modules if kind == "include"):
                for hooked in self._hooked(module):
                    self._visit(hooked, False, order, seen)
        parent = self.superclass(name)
        if parent is not None:
            self._visit(parent, singleton, order, seen)

    def _hooked(self, module: str) -> list[str]:
        """The modules ``module``'s ``self.included(base)`` extends its includer with."""
        found = (
            self.constant(module, w) for kind, w in self.mixins.get(module, ()) if kind == "+extend"
        )
        return [m for m in found if m is not None]

    def _mixin(self, owner: str, kind: str, written: str) -> tuple[str, str] | None:
        found = self.constant(owner, written)
        return (kind, found) if found is not None else None

    def method(self, name: str, method: str, singleton: bool) -> Definition | None:
        """The definition a call of ``method`` on ``name`` (an instance of it, or the class
        itself) reaches, or None. In a module's instance method ``self`` is an instance of a
        class that includes it: a method the module's ancestors lack is the one every such
        class reaches, when they agree."""
        found = self._along(name, method, singleton)
        if found is None and not singleton and name in self.includers:
            reached = {self._along(c, method, False) for c in self.includers[name]}
            found = reached.pop() if len(reached) == 1 else None
        return found

    @cached_property
    def includers(self) -> dict[str, list[str]]:
        """Module -> the classes and modules that include it."""
        found: dict[str, list[str]] = defaultdict(list)
        for owner, mixins in self.mixins.items():
            for kind, written in mixins:
                module = self.constant(owner, written) if kind == "include" else None
                if module is not None and module != owner:
                    found[module].append(owner)
        return found

    def _along(self, name: str, method: str, singleton: bool) -> Definition | None:
        for owner, on_self in self.ancestors(name, singleton):
            module = any(t.kind == "namespace" for t in self.types.get(owner, ()))
            for d in self.methods.get(f"{owner}.{method}", ()):
                own = d.signature.startswith("def self.") or (owner, method) in self.meta
                if own == on_self or (on_self and module):
                    return d
        return None

    def returned(self, name: str, reader: str, singleton: bool) -> tuple[str, str] | None:
        """(mode, class) of what the method ``reader`` that an instance of ``name`` (or, with
        ``singleton``, the class itself) reaches returns, where its last statement says;
        None when it does not."""
        found = self.method(name, reader, singleton)
        if found is None:
            return None
        owner = found.qualname.replace("::", ".").rpartition(".")[0]
        own = found.signature.startswith("def self.") or (owner, reader) in self.meta
        written = self.returns.get((owner, reader, own))
        if not written:
            return None
        cls = self.constant(owner, written[1:]) if written[1:] else owner  # new(..): its own
        return (written[0], cls) if cls in self.types else None
