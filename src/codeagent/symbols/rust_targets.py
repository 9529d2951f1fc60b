"""A Rust call's target (as its file wrote it: :mod:`codeagent.lang.rust_calls`) resolved to
the repository definition it calls, through the crate's modules as rustc finds them.

    rust_target(graph, "src/parse.rs", "Parser::new")     # ("src/parse.rs.Parser.new", False)
    rust_target(graph, "src/lib.rs", "Version.cmp_req")   # the method of Version's impl
    rust_target(graph, "src/lib.rs", "std::mem::swap")    # ("std::mem::swap", True): outside

A module is a file (``src/a.rs`` or ``src/a/mod.rs`` is ``crate::a``; ``src/lib.rs`` or
``src/main.rs`` is the crate) or an inline ``mod`` in one. A path's first name is ``crate``,
``self``, ``super``, or a name of the module: an item it defines, a module it declares, a name
a ``use`` binds (groups, renames, globs followed), then the prelude; ``std``, ``core`` and
``alloc`` are outside, any other crate unknown (by name). A type's method is one of an
``impl`` of it anywhere in the crate (the one whose type names the same type in its module),
an inherent one first, then a trait's the type implements (its default or declaration); a
trait's is its own. A field's type is read from its struct (the record's ``b`` rows); a call's
value is the type its signature returns (``Self``, ``T``, ``&T``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codeagent.symbols.rust_crate import Module, child, crate_of, parent, root, uses
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

Target = tuple[str, bool]
Found = Definition | Module | str | None  # a definition, a module, a path outside
MAX_DEPTH = 16  # re-exports and fields followed (a lookup is found once: see _lookup)
_TYPES = frozenset({"struct", "enum", "union", "trait"})
_ITEMS = _TYPES | {"function", "type", "mod"}
_OUTSIDE = frozenset({"std", "core", "alloc"})
_WRAPPED = re.compile(r"(?:Option|Result)<\s*([^,<>]+(?:<[^<>]*>)?)\s*[,>]")
_UNWRAPS = frozenset({"unwrap", "expect", "unwrap_unchecked"})
_PRELUDE = frozenset({
    "Box", "String", "Vec", "Option", "Result", "Some", "None", "Ok", "Err", "ToString",
    "ToOwned", "Clone", "Copy", "Default", "Drop", "Eq", "PartialEq", "Ord", "PartialOrd",
    "Iterator", "IntoIterator", "Extend", "From", "Into", "TryFrom", "TryInto", "AsRef",
    "AsMut", "Fn", "FnMut", "FnOnce", "Send", "Sync", "Sized", "drop", "panic",
})  # fmt: skip


def rust_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    module_path, bar, written = written.rpartition("|")
    module: Module = (path, module_path if bar else "")
    first, *after = written.split("().")  # T::new().f: f of what T::new returns
    found = _first(graph, module, first)
    unwrapped: Definition | None = None  # x.pop().unwrap(): the T of pop's Option<T>
    for names in after:
        cls, unwrapped = unwrapped, None
        if cls is None:
            if found is None or found[1]:
                return None
            cls, wrapped = _returns(graph, graph._by_full.get(found[0]))
            if cls is not None and wrapped:
                if names not in _UNWRAPS:
                    return None
                found, unwrapped = None, cls
                continue
        found = _walk(graph, cls, names.split("."), 0) if cls is not None else None
    return found


def _first(graph: SymbolHierarchy, module: Module, written: str) -> Target | None:
    head, *names = written.split(".")
    pointer = head.startswith("*")  # a &mut T, Box<T>: another crate's trait's method not T's
    head, hash, field = head.lstrip("*").partition("#")
    if hash:  # V(x): x is V's field ``field`` (a tuple struct's, or an enum variant's)
        return _payload(graph, module, head.split("::"), field, names)
    found = _resolve(graph, module, head.split("::"), 0)
    if found is None and not names and "::" not in head:  # a function declared in a function
        inner = crate_of(graph).nested.get((module[0], head), [])
        found = inner[0] if len(inner) == 1 else None  # two: which one is the call's scope's
    if isinstance(found, str):
        return (".".join([found, *names]), True)
    if isinstance(found, Definition):
        if not names:
            return (found.full_name, False) if found.kind in ("function", "method") else None
        return _walk(graph, found, names, 0, pointer)
    return None


def _walk(
    graph: SymbolHierarchy, cls: Definition, names: list[str], depth: int, pointer: bool = False
) -> Target | None:
    """The method ``names[-1]`` of the type reached from ``cls`` through the fields before it
    (``pointer``: reached through a ``&mut`` or a smart pointer, whose impls of another crate's
    traits are the ones called)."""
    if cls.kind not in _TYPES or depth > MAX_DEPTH:
        return None
    if len(names) > 1:
        for owner, field, written in graph.files[cls.path].get("b", ()):
            if owner == cls.name and field == names[0]:
                typed = _resolve(graph, _module_of(cls), written.lstrip("*").split("::"), 0)
                if isinstance(typed, Definition):
                    return _walk(graph, typed, names[1:], depth + 1, written.startswith("*"))
                return (".".join([typed, *names[1:]]), True) if isinstance(typed, str) else None
        return None
    method = _method(graph, cls, names[0])
    if method is None or (pointer and _foreign(graph, method)):
        return None
    return (method.full_name, False)


def _payload(
    graph: SymbolHierarchy, module: Module, parts: list[str], field: str, names: list[str]
) -> Target | None:
    """``names`` on the value of field ``field`` of the tuple struct or the enum variant that
    the path ``parts`` names (an enum's variants' fields are its ``b`` rows ``V.0``)."""
    found = _resolve(graph, module, parts, 0)
    if not isinstance(found, Definition) and len(parts) > 1:
        found = _resolve(graph, module, parts[:-1], 0)
        field = f"{parts[-1]}.{field}"
    if not isinstance(found, Definition) or found.kind not in ("struct", "enum") or not names:
        return None
    return _walk(graph, found, [field, *names], 0)


def _foreign(graph: SymbolHierarchy, method: Definition) -> bool:
    """Whether ``method`` implements a trait of another crate."""
    bases = _impl_of(graph, method)
    trait = _resolve(graph, _module_of(method), bases[0].split("::"), 0) if bases else None
    return bool(bases) and not isinstance(trait, Definition)


def _module_of(d: Definition) -> Module:
    """The module a definition is written in."""
    prefix = d.qualname.rpartition(".")[0]
    if d.kind == "method":
        prefix = prefix.rpartition(".")[0]
    return (d.path, prefix)


def _resolve(graph: SymbolHierarchy, module: Module, parts: list[str], depth: int) -> Found:
    """What the path ``parts`` names in ``module``."""
    if depth > MAX_DEPTH or not parts:
        return None
    head, rest = parts[0], parts[1:]
    if head == "":  # ::std::x
        return "::".join(rest) if rest and rest[0] in _OUTSIDE else None
    found: Found
    if head == "crate":
        found = (root(graph, module[0]), "")
    elif head == "self":
        found = module
    elif head == "super":
        found = parent(graph, module)
    else:
        found = _lookup(graph, module, head, depth)
    for part in rest:
        if isinstance(found, Definition) and found.kind == "type":
            found = _alias(graph, found, depth)
        if found is None:
            return None
        if isinstance(found, str):
            return f"{found}::{'::'.join(rest)}" if rest else found
        if isinstance(found, tuple):
            found = parent(graph, found) if part == "super" else _lookup(graph, found, part, depth)
        elif found.kind in _TYPES:
            found = _method(graph, found, part)
        else:
            return None
    if isinstance(found, Definition) and found.kind == "type":
        return _alias(graph, found, depth)
    return found


def _alias(graph: SymbolHierarchy, d: Definition, depth: int) -> Found:
    """What a type alias names (``type Pool = inner::Pool<T>;``: ``inner::Pool``)."""
    written = d.signature.partition("=")[2].strip().rstrip(";").partition("<")[0].strip()
    if not re.fullmatch(r"[A-Za-z_][\w:]*", written):
        return None
    return _resolve(graph, _module_of(d), written.split("::"), depth + 1)


def _lookup(graph: SymbolHierarchy, module: Module, name: str, depth: int) -> Found:
    """The item, module or outside path ``name`` names in ``module``; found once per graph
    (globs that bring each other's names would otherwise be walked again at every step)."""
    memo = crate_of(graph).lookups
    key = (module, name)
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    memo[key] = None
    found = memo[key] = _find(graph, module, name, depth)
    return found


def _find(graph: SymbolHierarchy, module: Module, name: str, depth: int) -> Found:
    path, prefix = module
    qual = f"{prefix}.{name}" if prefix else name
    index = crate_of(graph)
    defs = [d for d in index.items.get((path, qual), ()) if d.kind in _ITEMS]
    items = [d for d in defs if d.kind != "mod"]
    bound, globs = uses(graph, module)
    if items:  # two items of the name, or one beside a `use` of it: a `cfg` keeps one (unread)
        return items[0] if len(items) == 1 and name not in bound else None
    if defs or not prefix:
        inner = child(graph, module, name, inline=bool(defs))
        if inner is not None:
            return inner
    if name in bound and depth < MAX_DEPTH:
        return _resolve(graph, module, bound[name], depth + 1)
    through: list[Found] = []
    for glob in globs if depth < MAX_DEPTH else ():
        target = _resolve(graph, module, glob, depth + 1)
        found = _lookup(graph, target, name, depth + 1) if isinstance(target, tuple) else None
        if found is not None and found not in through:
            through.append(found)
    if through:  # two globs that bring the name: a `cfg` keeps one
        return through[0] if len(through) == 1 else None
    if name in _OUTSIDE or name in _PRELUDE:
        return name
    return None


def _method(graph: SymbolHierarchy, cls: Definition, name: str) -> Definition | None:
    """The method ``name`` of the type ``cls``: an inherent impl's, then a trait impl's, then
    one of the traits it implements (a trait's own for a trait)."""
    index = crate_of(graph)
    found = [m for m in index.methods.get((cls.name, name), ()) if _owned(graph, m, cls)]
    if found:
        found.sort(key=lambda m: (bool(_impl_of(graph, m)), m.path != cls.path, m.line))
        return found[0]
    if cls.kind == "trait":
        return None
    for impl in index.impls_of.get(cls.name, ()):
        module = (impl.path, impl.qualname.rpartition(".")[0])
        if not impl.bases or not _names(graph, module, cls):
            continue
        trait = _resolve(graph, module, impl.bases[0].split("::"), 0)
        if isinstance(trait, Definition) and trait.kind == "trait":
            inherited = _method(graph, trait, name)
            if inherited is not None:
                return inherited
    return None


def _owned(graph: SymbolHierarchy, method: Definition, cls: Definition) -> bool:
    """Whether the impl (or trait) block holding ``method`` is for the type ``cls``."""
    owner = method.qualname.rpartition(".")[0]
    if method.path == cls.path and owner == cls.qualname:
        return True
    return _names(graph, (method.path, owner.rpartition(".")[0]), cls)


def _names(graph: SymbolHierarchy, module: Module, cls: Definition) -> bool:
    """Whether ``cls``'s name, looked up in ``module``, is ``cls``."""
    found = _lookup(graph, module, cls.name, 0)
    return (
        isinstance(found, Definition)
        and found.path == cls.path
        and found.qualname == (cls.qualname)
    )


def _impl_of(graph: SymbolHierarchy, method: Definition) -> tuple[str, ...]:
    """The trait of the impl block holding ``method`` (``()`` for an inherent one)."""
    owner = method.qualname.rpartition(".")[0]
    for impl in crate_of(graph).impls.get((method.path, owner), ()):
        if impl.start_line <= method.line <= impl.end_line:
            return impl.bases
    return ()


def _returns(graph: SymbolHierarchy, d: Definition | None) -> tuple[Definition | None, bool]:
    """The repository type a function or method returns, as its signature says (``Self``,
    ``T``, ``&T``, ``a::T<U>``), and whether in an ``Option`` or a ``Result`` (its ``T``)."""
    if d is None or d.kind not in ("function", "method"):
        return None, False
    _, arrow, result = d.signature.partition("->")
    result = result.split(" where")[0].split("{")[0].strip()
    wrapped = _WRAPPED.match(result)
    result = (wrapped.group(1) if wrapped else result).lstrip("&").strip()
    result = re.sub(r"^'\w+\s+|^mut\s+", "", result)
    result = re.sub(r"^(dyn|impl)\s+", "", result).partition("<")[0].strip()
    if not arrow or not re.fullmatch(r"[A-Za-z_][\w:]*", result):
        return None, False
    module = _module_of(d)
    if result == "Self" and d.kind == "method":
        owner = d.qualname.rpartition(".")[0]
        found = _lookup(graph, module, owner.rpartition(".")[2], 0)
    else:
        found = _resolve(graph, module, result.split("::"), 0)
    typed = found if isinstance(found, Definition) and found.kind in _TYPES else None
    return typed, wrapped is not None
