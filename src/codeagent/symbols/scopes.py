"""The scopes of one Python file as call resolution reads them: which scopes code in a scope
sees, what each scope's names are (its definitions over its bindings), and what a class's
instances' attributes are bound to; each read once, on first use.

    scopes = FileScopes(structure, bound)   # bound: the binding nodes by scope (pysyntax.calls)
    scopes.visible(3)                       # [3, 1, None]: itself, the functions around, module
    scopes.names(3)["client"]               # a definition's qualified name, or its bindings
"""

from __future__ import annotations

import ast

from codeagent.pysyntax import Structure
from codeagent.symbols.attributes import attribute_bindings
from codeagent.symbols.bindings import Bindings, Entry, Types, scope_bindings

_NONE: dict[str, str] = {}
# A scope's names: a definition's qualified name, or the name's bindings there.
Names = dict[str, "str | list[Entry]"]


class FileScopes:
    """The scopes of one file. ``chains`` and ``named`` hold what :meth:`visible` and
    :meth:`names` have read (the hot lookups read them first)."""

    def __init__(self, structure: Structure, bound: dict[int | None, list[ast.AST]]) -> None:
        """``bound``: the file's binding nodes (:data:`BINDING_NODES`) by scope, in order."""
        self.structure = structure
        self.chains: dict[int | None, list[int | None]] = {}
        self.named: dict[int | None, Names] = {}
        self._nodes = bound
        self._bindings: dict[int | None, Bindings] = {}
        self._attrs: dict[int, Types] = {}
        self._defs: dict[int | None, dict[str, str]] | None = None

    def visible(self, scope: int | None) -> list[int | None]:
        """The scopes whose names code in ``scope`` sees: itself, the functions around it
        (class bodies are skipped, as Python skips them), the module."""
        found = self.chains.get(scope)
        if found is None:
            found = []
            first, index = True, scope
            while index is not None:
                site = self.structure.defs[index]
                if first or not isinstance(site.node, ast.ClassDef):
                    found.append(index)
                first = False
                index = site.parent
            found.append(None)
            self.chains[scope] = found
        return found

    def names(self, scope: int | None) -> Names:
        """The names of a scope: its bindings, and its definitions over them."""
        found = self.named.get(scope)
        if found is None:
            found = self.named[scope] = {**self.bindings(scope), **self._own_defs(scope)}
        return found

    def bindings(self, scope: int | None) -> Bindings:
        """What the scope binds (:func:`~codeagent.symbols.bindings.scope_bindings`)."""
        found = self._bindings.get(scope)
        if found is None:
            nodes = self._nodes.get(scope, [])
            found = self._bindings[scope] = scope_bindings(self.structure, scope, nodes)
        return found

    def attributes(self, cls: int) -> Types:
        """``self.x`` of class ``cls`` (:mod:`codeagent.symbols.attributes`)."""
        found = self._attrs.get(cls)
        if found is None:
            found = self._attrs[cls] = attribute_bindings(self.structure, cls, self.nodes)
        return found

    def _own_defs(self, scope: int | None) -> dict[str, str]:
        """Names defined by ``def``/``class`` in a scope -> their qualified names."""
        if self._defs is None:
            self._defs = {}
            for site in self.structure.defs:
                self._defs.setdefault(site.parent, {}).setdefault(site.node.name, site.qualname)
        return self._defs.get(scope, _NONE)

    def nodes(self, scope: int | None) -> list[ast.AST]:
        """The scope's binding nodes, in source order."""
        return self._nodes.get(scope, [])
