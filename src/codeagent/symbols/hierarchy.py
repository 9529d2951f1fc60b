"""Who derives from whom: the bases of a class resolved to full names, the subclasses of
each, the methods of a type of another language, implicit interfaces (Go's), and the method
resolution order (C3 for Python, breadth first for the other languages).

The second layer of the symbol graph, over :class:`~codeagent.symbols.tables.SymbolTables`
(the tables themselves); :class:`~codeagent.symbols.graph.SymbolGraph` answers the questions
with it, and :mod:`codeagent.symbols.call_targets` follows calls through it.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property

from codeagent.lang import languages_where, members_in_body
from codeagent.symbols.csharp_targets import namespace_head, namespace_path
from codeagent.symbols.file_imports import import_scope
from codeagent.symbols.go_shapes import Shape, fits, is_generic, shape
from codeagent.symbols.mro import breadth_first, c3_order
from codeagent.symbols.php_classes import php_base
from codeagent.symbols.tables import CLASS_KINDS, METHOD_KINDS, SymbolTables
from codeagent.symbols.types import Definition


class SymbolHierarchy(SymbolTables):
    """Bases, subclasses, members and the method resolution order of the graph's types."""

    @cached_property
    def _children(self) -> dict[str, list[Definition]]:
        """Resolved base name -> the classes that list it as a base."""
        index: dict[str, list[Definition]] = defaultdict(list)
        implicit = languages_where("implicit_interfaces")
        for d in self._defs:
            for base in self.resolved_bases(d):
                index[base].append(d)
            if d.kind == "interface" and self.files[d.path].get("l") in implicit:
                for impl in self.implicit_implementations(d):
                    if impl not in index[d.full_name]:
                        index[d.full_name].append(impl)
        return index

    def resolved_bases(self, cls: Definition) -> list[str]:
        """``cls``'s bases as full names: the repository class when resolvable, else as
        written with the import that bound it applied (``logging.Handler``, ``Exception``)."""
        if "l" in self.files.get(cls.path, {}):
            return [self._lang_type(cls, written) for written in cls.bases]
        out: list[str] = []
        imports = self._imports.get(cls.path, [])
        for written in cls.bases:
            head, _, rest = written.partition(".")
            candidates = []
            scope = cls.qualname.rpartition(".")[0]
            while True:  # the enclosing scopes, innermost first, then the module
                local = f"{scope}.{head}" if scope else head
                candidates.append(f"{cls.module}.{local}" if cls.module else local)
                if not scope:
                    break
                scope = scope.rpartition(".")[0]
            name = next((c for c in candidates if c in self._by_full), None)
            if name is not None:
                name = f"{name}.{rest}" if rest else name
            else:
                bound = [i for i in imports if i.bound == head and i.line <= cls.line]
                bound = bound or [i for i in imports if i.bound == head]
                name = f"{bound[-1].target}.{rest}" if bound and rest else written
                if bound and not rest:
                    name = bound[-1].target
            out.append(self.resolve(name) or name)
        return out

    # -- the other languages (codeagent.lang) ---------------------------------------------------

    @cached_property
    def _lang_types(self) -> dict[tuple[str, str], list[Definition]]:
        """(language, type name) -> the types of that name (impl blocks aside)."""
        index: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        for d in self._defs:
            language = self.files[d.path].get("l")
            if language and d.kind in CLASS_KINDS and d.kind != "impl":
                index[(language, d.name)].append(d)
        return index

    def _lang_type(self, cls: Definition, written: str) -> str:
        """A base written in another language resolved by its last name to the type of that
        name in the same language (the same file first, then the same directory, then a
        unique one) whose qualified name agrees with what is written before the last name
        (``Converter.Factory`` is no ``CallAdapter.Factory``); else as written."""
        language = self.files[cls.path]["l"]
        if language in languages_where("qualified_types"):  # PHP: by the name made whole
            whole = php_base(self, cls, written)
            if whole is not None:
                return whole
        dotted = written.replace("::", ".").replace("\\", ".").strip(".")
        if import_scope(language):  # C#: by namespace, as the compiler finds a type
            parts = dotted.split(".")
            hit = namespace_path(self, cls.path, parts) if len(parts) > 1 else None
            named = (
                hit[0] if hit and hit[1] == len(parts) else namespace_head(self, cls.path, dotted)
            )
            if isinstance(named, Definition) and named is not cls:
                return named.full_name
        last = dotted.rsplit(".", 1)[-1]
        found = [d for d in self._lang_types.get((language, last), []) if d is not cls]
        if (here := _relative(cls.qualname, dotted)) is not None:  # Rust's super::X, self::X
            exact = [d for d in found if d.qualname == here]
            if exact:
                return exact[0].full_name
        while dotted.split(".", 1)[0] in _RELATIVE and "." in dotted:  # else as if not written
            dotted = dotted.split(".", 1)[1]
        if "." in dotted:  # `extends Converter.Factory`: not CallAdapter.Factory
            found = [d for d in found if _ends_alike(d.qualname, dotted)]
            if language in languages_where("members_in_folder"):  # Go's pkg.T: another
                here = cls.path.rpartition("/")[0]  # package's, the one named pkg first
                found = [d for d in found if d.path.rpartition("/")[0] != here]
                package = dotted.rsplit(".", 2)[-2]
                found = [d for d in found if _folder_name(d.path) == package] or found
        folder = cls.path.rpartition("/")[0]
        for pick in (
            [d for d in found if d.path == cls.path],
            [d for d in found if d.path.rpartition("/")[0] == folder],
            found if len(found) == 1 else [],
        ):
            if pick:
                return pick[0].full_name
        return written

    @cached_property
    def _lang_members(self) -> dict[tuple[str, str], list[Definition]]:
        """(language, owner qualname) -> methods and constructors, in every file."""
        index: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        for d in self._defs:
            language = self.files[d.path].get("l")
            if language and d.kind in METHOD_KINDS and "." in d.qualname:
                index[(language, d.qualname.rpartition(".")[0])].append(d)
        return index

    @cached_property
    def _lang_impls(self) -> dict[tuple[str | None, str], list[Definition]]:
        """(language, type qualname) -> the type's ``impl`` blocks (Rust), in every file."""
        index: dict[tuple[str | None, str], list[Definition]] = defaultdict(list)
        for d in self._defs:
            if d.kind == "impl":
                index[(self.files[d.path].get("l"), d.qualname)].append(d)
        return index

    def members(self, cls: Definition) -> list[Definition]:
        """The methods of a type of another language: declared in its body (in its own file
        where the language declares them nowhere else), in ``impl`` blocks, or for it by
        receiver (Go: in its package's directory)."""
        language = self.files[cls.path]["l"]
        found = self._lang_members.get((language, cls.qualname), [])
        if language in languages_where("members_in_folder"):
            folder = cls.path.rpartition("/")[0]
            found = [d for d in found if d.path.rpartition("/")[0] == folder]
        elif language in members_in_body():  # a same-named type of another file has its own
            found = [d for d in found if d.path == cls.path]
        return sorted(found, key=lambda d: (d.path != cls.path, d.path, d.start_line))

    @cached_property
    def _implicit_method_index(self) -> dict[tuple[str, str], dict[str, Definition]]:
        """(language, method name) -> the (non-interface) types that have it, by full name,
        each with its method (its own, else the one promoted from the nearest type it embeds),
        in the languages whose interfaces are implemented implicitly (Go)."""
        index: dict[tuple[str, str], dict[str, Definition]] = defaultdict(dict)
        implicit = languages_where("implicit_interfaces")
        for (language, _), types in self._lang_types.items():
            for d in types if language in implicit else ():
                if d.kind != "interface":
                    for holder, _via in self._mro(d, set()):  # d first, then what it embeds
                        for m in self.members(holder):
                            index[(language, m.name)].setdefault(d.full_name, m)
        return index

    def implicit_implementations(self, iface: Definition) -> list[Definition]:
        """The types with every method of the interface ``iface`` (those it declares and those
        of the repository's interfaces it embeds, and ``error``'s), each of the same
        parameter and result types, in its language (implicit implementation: Go's)."""
        wanted = self._interface_methods(iface, set())
        if not wanted:
            return []
        index, language = self._implicit_method_index, self.files[iface.path]["l"]
        generic = is_generic(iface.signature)
        names: set[str] | None = None
        for name, want in wanted.items():
            have = index.get((language, name), {})
            fit = {t for t, m in have.items() if fits(want, self._shape(m), generic=generic)}
            names = fit if names is None else names & fit
        return sorted((self._by_full[n] for n in names or ()), key=lambda d: (d.path, d.start_line))

    def _interface_methods(self, iface: Definition, seen: set[str]) -> dict[str, Shape | None]:
        """Method name -> shape of what ``iface`` asks for, its embedded interfaces' too (a
        base outside the repository other than ``error`` is not known: not asked for)."""
        seen.add(iface.full_name)
        out: dict[str, Shape | None] = {}
        for base in self.resolved_bases(iface):
            d = self._by_full.get(base)
            if d is not None and d.kind == "interface" and base not in seen:
                out.update(self._interface_methods(d, seen))
            elif d is None and base == "error":
                out["Error"] = ((), ("string",))
        out.update((m.name, self._shape(m)) for m in self.members(iface))
        return out

    def _shape(self, method: Definition) -> Shape | None:
        key = (method.path, method.line, method.name)
        if key not in self._shapes:
            self._shapes[key] = shape(method.signature, method.name)
        return self._shapes[key]

    @cached_property
    def _shapes(self) -> dict[tuple[str, int, str], Shape | None]:
        return {}

    # -- method resolution order --------------------------------------------------------------

    def _mro(self, cls: Definition, seen: set[str]) -> list[tuple[Definition, str | None]]:
        python = "l" not in self.files[cls.path]
        linear = c3_order(cls, self._repo_bases) if python else None
        if linear is not None:
            seen.update(d.full_name for d in linear)
            return [(cls, None)] + [(d, d.full_name) for d in linear[1:]]
        return breadth_first(cls, self._named_bases, seen)

    def _repo_bases(self, cls: Definition) -> list[Definition]:
        found = (self._by_full.get(base) for base in self.resolved_bases(cls))
        return [d for d in found if d is not None and d.kind == "class"]

    def _named_bases(self, cls: Definition) -> list[tuple[str, Definition]]:
        bases = list(self.resolved_bases(cls))
        # a Rust type (or one of its impl blocks) has the traits of all its impl blocks
        for block in self._lang_impls.get((self.files[cls.path].get("l"), cls.qualname), []):
            bases += [base for base in self.resolved_bases(block) if base not in bases]
        found = ((base, self._by_full.get(base)) for base in bases)
        return [(base, d) for base, d in found if d is not None and d.kind in CLASS_KINDS]

    def _own_methods(self, cls: Definition) -> list[Definition]:
        if "l" in self.files[cls.path]:
            return self.members(cls)
        prefix = cls.qualname + "."
        rows = self.files[cls.path]["d"]
        return [
            self._by_full[f"{cls.module}.{q}" if cls.module else q]
            for q, kind, *_ in rows
            if kind == "method" and q.startswith(prefix) and "." not in q[len(prefix) :]
        ]


def _folder_name(path: str) -> str:
    return path.rpartition("/")[0].rpartition("/")[2]


_RELATIVE = frozenset({"super", "self", "crate", "Self"})  # a path's start, no module's name


def _relative(qualname: str, dotted: str) -> str | None:
    """The qualified name a Rust path relative to the module of ``qualname`` names
    (``super.Base`` from ``client.Exec`` is ``Base``, ``self.Base`` is ``client.Base``); None
    for a path that does not start with ``super`` or ``self``."""
    module = qualname.rpartition(".")[0].split(".") if "." in qualname else []
    parts = dotted.split(".")
    if parts[0] not in ("super", "self"):
        return None
    while parts and parts[0] in ("super", "self"):
        if parts.pop(0) == "super":
            if not module:
                return None
            module.pop()
    return ".".join([*module, *parts]) if parts else None


def _ends_alike(qualname: str, written: str) -> bool:
    """Whether a type's qualified name and a dotted name written for it agree on the parts
    both have (``Converter.Factory`` and ``retrofit2.Converter.Factory``; ``Handler`` and
    ``http.Handler``), not only on the last."""
    a, b = "." + qualname, "." + written
    return a.endswith(b) or b.endswith(a)
