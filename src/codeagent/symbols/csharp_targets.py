"""A type as a C# file writes it, found as the compiler finds it, by namespace (the languages
whose imports name namespaces: ``LanguageSpec.import_scope``): what
:mod:`codeagent.symbols.java_targets` asks where Java would look in packages.

    namespace_head(graph, "src/App/Program.cs", "Client")   # Shop.Net's Client (using Shop.Net)
    namespace_path(graph, "src/App/Program.cs", ["Shop", "Net", "Client", "Inner"])  # (Inner, 4)

A single name is a type of the file (its own or a nested one, the outermost first), or one
nested in a class of the file declared in another file too (``partial``), else one of the
namespace the file declares or of one around it (``A.B`` then ``A``, then the global
one) anywhere in the repository, else one of a namespace a ``using`` names (the file's, or
a ``global using`` of any file, or one the .NET SDK has every file use); a few of
``System``'s types are outside when the file uses ``System``, and so is a name no type of the
repository has (``TextWriter``: a library's; a type parameter, ``T`` or ``TRequest``, aside). A
qualified name is a namespace and a type of it (relative to the file's namespaces too), then
nested types.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from codeagent.symbols.arity import fits
from codeagent.symbols.file_imports import import_scope
from codeagent.symbols.tables import CLASS_KINDS

if TYPE_CHECKING:
    from codeagent.symbols.tables import SymbolTables
    from codeagent.symbols.types import Definition

# System's types a call names most (outside the repository where the file uses System)
_SYSTEM = frozenset({
    "Console", "Math", "String", "Object", "Convert", "Environment", "GC", "Guid", "DateTime",
    "DateTimeOffset", "TimeSpan", "Array", "Exception", "Type", "Activator", "BitConverter",
    "Buffer", "Enum", "Tuple", "Nullable", "Random", "Uri", "StringComparer", "Int32", "Int64",
    "Double", "Boolean", "Char", "Decimal", "Attribute", "Delegate", "MathF",
})  # fmt: skip


# The namespaces the .NET SDK has every file use (``ImplicitUsings``): a repository's own type
# declared in one (a stand-in for a newer framework's ``System.TimeProvider``) is found there
_IMPLICIT = ("System", "System.Collections.Generic", "System.IO", "System.Linq",
             "System.Net.Http", "System.Threading", "System.Threading.Tasks")  # fmt: skip
# A generic's type parameter, as C# names them (``T``, ``TRequest``): no type to look up
_TYPE_PARAMETER = re.compile(r"T(?:[A-Z0-9]\w*)?")
# System's types C# names by a keyword (``string``): outside wherever they are written
_KEYWORDS = frozenset({
    "String", "Object", "Int32", "Int64", "Boolean", "Double", "Char", "Decimal",
})  # fmt: skip
# Methods of object, string and Type and LINQ's operators: called on one of these types, a
# method of one of these names is taken for the type's own (C# prefers an instance method to
# an extension method) or System.Linq's, whatever the repository's extension methods are
# called (a library's stand-ins for them, under an #if, are many)
_OUTSIDE_WORDS = """
Equals GetHashCode GetType ToString MemberwiseClone ReferenceEquals Clone CompareTo Contains
CopyTo EndsWith GetEnumerator GetTypeCode IndexOf IndexOfAny Insert IsNormalized LastIndexOf
LastIndexOfAny Normalize PadLeft PadRight Remove Replace Split StartsWith Substring ToCharArray
ToLower ToLowerInvariant ToUpper ToUpperInvariant Trim TrimEnd TrimStart Format Join Concat
Compare CompareOrdinal IsNullOrEmpty IsNullOrWhiteSpace AsSpan AsMemory GetMethod GetMethods
GetProperty GetProperties GetField GetFields GetMember GetMembers GetConstructor GetConstructors
GetInterface GetInterfaces GetGenericArguments GetGenericTypeDefinition MakeGenericType
IsAssignableFrom IsInstanceOfType IsSubclassOf GetCustomAttributes GetCustomAttribute IsDefined
GetElementType GetEnumValues GetEnumNames GetEnumUnderlyingType GetNestedType GetNestedTypes
GetEvent GetEvents GetDefaultMembers InvokeMember GetTypeInfo MakeArrayType GetArrayRank
Aggregate All Any Append AsEnumerable Average Cast Count DefaultIfEmpty Distinct ElementAt
ElementAtOrDefault Empty Except First FirstOrDefault GroupBy GroupJoin Intersect Last
LastOrDefault LongCount Max Min OfType OrderBy OrderByDescending Prepend Reverse Select
SelectMany SequenceEqual Single SingleOrDefault Skip SkipWhile Sum Take TakeWhile ThenBy
ThenByDescending ToArray ToDictionary ToHashSet ToList ToLookup Union Where Zip Add Clear
RemoveAt ContainsKey TryGetValue Dispose
"""
_OUTSIDE_METHODS = frozenset(_OUTSIDE_WORDS.split())
_KNOWN = frozenset({"System.String", "System.Object", "System.Type"})  # their methods: above


def namespace_head(graph: SymbolTables, path: str, name: str) -> Definition | str | None:
    """The type the single name ``name`` is in the file at ``path``: a definition, the full
    name of one outside the repository, or None (not known)."""
    rec = graph.files.get(path)
    if rec is None:
        return None
    own = own_type(graph, path, name)
    if own is not None:
        return own
    spaces, language = graph.namespaces, rec["l"]
    types = spaces.types
    for outer in (r[0] for r in rec["d"] if r[1] in CLASS_KINDS):
        nested = spaces.nested.get((language, outer, name))
        if nested:  # nested in a class of the file's declared in another file too (partial)
            return nested[0]
    for namespace in _around(rec):
        found = types.get((language, namespace, name))
        if found:
            return found[0]
    used = [module for _line, module, _name, _alias in rec["i"]]
    used += spaces.global_usings.get(language, ())  # global using A.B: every file's
    used += _IMPLICIT
    for module in used:
        found = types.get((language, module, name))
        if found:
            return found[0]
    if name in _KEYWORDS or (name in _SYSTEM and "System" in used):
        return f"System.{name}"
    if (language, name) not in spaces.names and not _TYPE_PARAMETER.fullmatch(name):
        return name  # no type of the repository is so called: one of a library's
    return None


def own_type(graph: SymbolTables, path: str, name: str) -> Definition | None:
    """The type ``name`` the file at ``path`` defines itself: its top-level one, else the
    outermost nested one (Java's as C#'s)."""
    rec = graph.files[path]
    own = [r[0] for r in rec["d"] if r[1] in CLASS_KINDS and r[0].rpartition(".")[2] == name]
    if not own:
        return None
    qualname = min(own, key=lambda q: q.count("."))
    return graph._by_full.get(f"{path}.{qualname}")


def namespace_path(
    graph: SymbolTables, path: str, parts: list[str]
) -> tuple[Definition, int] | None:
    """``A.B.T.Inner`` written in the file at ``path``: the type a namespace and a name of
    ``parts`` give (the namespace as written, or inside one of the file's), with how many of
    ``parts`` it took; None when no namespace of the repository has it."""
    rec = graph.files.get(path)
    if rec is None:
        return None
    types, language = graph.namespaces.types, rec["l"]
    for n in range(len(parts) - 1, 0, -1):
        written = ".".join(parts[:n])
        for outer in _around(rec):
            namespace = f"{outer}.{written}" if outer else written
            found = types.get((language, namespace, parts[n]))
            if found:
                return found[0], n + 1
    return None


def static_member_types(graph: SymbolTables, path: str) -> list[Definition]:
    """The repository's types a ``using static A.B.T`` of the file names."""
    rec = graph.files.get(path)
    found = []
    for _line, module, _name, _alias in rec["i"] if rec is not None else ():
        parts = module.split(".")
        hit = namespace_path(graph, path, parts) if len(parts) > 1 else None
        if hit is not None and hit[1] == len(parts):
            found.append(hit[0])
    return found


def extension(
    graph: SymbolTables, path: str, name: str, count: int | None
) -> tuple[str, bool] | None:
    """The extension method ``x.name(..)`` calls in the file at ``path``, where the repository
    type of ``x`` has no method of that name: the one static method of that name whose
    first parameter is ``this``, of a class of a namespace the file is in or uses, that takes
    the receiver and ``count`` arguments; None when there is none, or more than one."""
    rec = graph.files.get(path)
    if rec is None or not import_scope(rec["l"]):  # Java's calls come here too: no index built
        return None
    methods = graph.namespaces.extensions.get((rec["l"], name), ())
    if not methods:
        return None
    visible = {*_around(rec), *(module for _line, module, _name, _alias in rec["i"])}
    visible.update((*graph.namespaces.global_usings.get(rec["l"], ()), *_IMPLICIT))
    found = {
        d.full_name
        for d in methods
        if d.qualname.rpartition(".")[0].rpartition(".")[0] in visible
        and fits(d, count + 1 if count is not None else None)
    }
    return (found.pop(), False) if len(found) == 1 else None


def outside_extension(
    graph: SymbolTables, path: str, owner: str, name: str, count: int | None
) -> tuple[str, bool] | None:
    """The extension method ``x.name(..)`` calls where ``x`` is a string, an object or a
    ``Type`` (``"text".FormatWith(..)``), the outside types whose methods are known here,
    unless the name is one of theirs or LINQ's (then that). Another outside type (``PropertyInfo``,
    ``List<T>``) may have an instance method of the name, which C# prefers: a library's
    stand-in for it (``GetGetMethod(this PropertyInfo p)`` under an ``#if``) is not taken."""
    if owner not in _KNOWN or name in _OUTSIDE_METHODS:
        return None
    return extension(graph, path, name, count)


def _around(rec: dict[str, Any]) -> list[str]:
    """The namespaces a file declares and those around them, the innermost first, then the
    global one ("")."""
    declared = [row[0] for row in rec["d"] if row[1] == "namespace"]
    out: list[str] = []
    for namespace in sorted(declared, key=lambda n: -n.count(".")):
        parts = namespace.split(".")
        for n in range(len(parts), 0, -1):
            name = ".".join(parts[:n])
            if name not in out:
                out.append(name)
    return [*out, ""]
