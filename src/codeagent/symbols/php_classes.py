"""PHP's classes found by their whole names (as :mod:`codeagent.lang.php_calls` writes them:
``App\\Net\\Client``), as PHP's autoloader finds a class whatever its file is called: for the
call targets (:mod:`codeagent.symbols.php_targets`) and the classes' bases
(:class:`~codeagent.symbols.hierarchy.SymbolHierarchy`).

    php_class(graph, "src/App.php", "App\\Net\\Client")   # the Definition
    php_class(graph, "src/App.php", "Client@12")          # the file's class on line 12
    php_class(graph, "src/App.php", "Psr\\Log\\LoggerInterface")  # outside: the name itself

The names are case-insensitive: the repository's class, interface, trait or enum declared with
that name in its file's namespace (:attr:`SymbolTables.php_types`; the caller's own file first
where two declare it). A name no repository class has is outside when no class of the
repository has its last name either, else not known (None).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.tables import SymbolTables


def php_class(graph: SymbolTables, path: str, written: str) -> Definition | str | None:
    """The class ``written`` (whole, or ``Name@line`` of the file at ``path``) names: a
    definition, the name of a class outside the repository, or None (not known)."""
    if "@" in written:  # Name@line: the file's class of that name on that line
        name, _, line = written.rpartition("@")
        for row in graph.files[path]["d"] if path in graph.files else ():
            if row[2] == int(line) and row[0].rpartition(".")[2] == name:
                return graph._by_full.get(f"{path}.{row[0]}")
        return None
    found = graph.php_types.get(written.lower())
    if found:
        return next((d for d in found if d.path == path), found[0])
    last = written.rpartition("\\")[2]
    return None if graph._by_name.get(last) else written


def php_base(graph: SymbolTables, cls: Definition, written: str) -> str | None:
    """The full name of the base ``written`` of the PHP class ``cls`` (its file's record's
    ``b`` rows make it whole): the repository's class, else the whole name (outside); None
    when the file says nothing of it."""
    rows = graph.files[cls.path].get("b", ())
    for ref, base, whole in rows:
        name, _, line = ref.rpartition("@")
        if base == written and name == cls.name and int(line) in (cls.line, cls.start_line):
            found = php_class(graph, cls.path, whole)
            return found.full_name if isinstance(found, Definition) else whole
    return None
