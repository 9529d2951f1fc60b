"""What a language module declares: its grammar, file extensions and tree-sitter queries.

A language is one module in this package with a ``SPEC = LanguageSpec(...)``. Its queries
use these capture names:

- ``definitions``: ``@def.KIND`` on the definition node (KIND in the language's own words:
  ``function``, ``method``, ``class``, ``struct``, ``interface``, ``trait``, ``enum``,
  ``impl``, ...), ``@name`` on its name (``@operator`` on an overloaded operator's token
  instead: the name is ``operator==``; ``@cast`` on a C++ conversion operator: the name is
  ``operator bool``; ``@destructor`` on a C# destructor's identifier: ``~Parser``;
  ``@conversion`` on the type of a C# conversion operator: ``operator int``), optionally
  ``@end`` (the definition's last node when it is not the ``@def`` node's own end: a block
  after a macro call), ``@receiver`` (the type a method is
  declared for outside the type's body: Go receivers, C++ ``Type::method``) and ``@base``
  (each base type, superclass or implemented interface, as written) or ``@bases`` (a list
  node whose named children are the bases);
- ``imports``: ``@import`` on the statement, ``@module`` on what it imports from, optionally
  ``@name`` (one imported name) and ``@alias`` (the local name it binds);
- ``calls``: ``@call`` on the call, ``@name`` on the called name (the last component).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeagent.lang.layout import Layout

# Kinds whose members are methods (a function inside one is a method), and kinds that only
# qualify their members' names (a function inside a namespace stays a function).
TYPE_KINDS = frozenset(
    {
        "class",
        "struct",
        "interface",
        "trait",
        "enum",
        "impl",
        "record",
        "union",
        "object",
        "type",
        "annotation",
    }
)
SCOPE_KINDS = frozenset({"namespace", "mod", "package"})
# Who reads a language's structure: a tree-sitter grammar and the queries below, or Python's
# own ``ast`` (:mod:`codeagent.pysyntax`, exact, no grammar to install).
TREE_SITTER = "tree-sitter"
PYTHON_AST = "python-ast"


def suffix_of(path: str) -> str:
    """A path's extension, lower case, with its dot (``""`` when it has none)."""
    name = path.rpartition("/")[2]
    return "." + name.rpartition(".")[2].lower() if "." in name else ""


@dataclass(frozen=True, eq=False)
class LanguageSpec:
    """One language: ``grammar`` returns the tree-sitter language capsule for a file
    extension (TypeScript has two grammars), from the wheel ``package``; a language read by
    ``ast`` (``structure`` :data:`PYTHON_AST`) has neither."""

    name: str
    extensions: tuple[str, ...]
    package: str = ""
    grammar: Callable[[str], object] | None = None
    definitions: str = ""
    structure: str = TREE_SITTER
    # A test file's name in the language's own convention (``_test.go``, ``FooTest.java``):
    # a regular expression searched in the file name (codeagent.rank.lang_paths).
    test_names: str = ""
    # Suffixes of dialects that follow the language's file conventions but that its reader
    # cannot parse (Cython's ``.pyx``): named by the file-kind rules, never parsed.
    dialects: tuple[str, ...] = ()
    # The repository files an import loads: ``import_files(importer, module, name, layout)``
    # with ``layout`` the files of the importer's ``family`` (codeagent.symbols.file_imports);
    # None: the symbol graph follows the language's imports by module name (Python).
    import_files: Callable[[str, str, str | None, Layout], list[str]] | None = None
    # Languages whose files import one another share a family (C and C++; JS and TS); "" is
    # the language's own name. A family named after a language is read from that language's
    # spec (C++: C's), so that the name is written in its module only.
    family: str = ""
    # The files a module written by its name may be, one list per rule, tried in turn (Python:
    # ``pkg/models`` or ``pkg.models`` is ``pkg/models.py`` or ``pkg/models/__init__.py``).
    module_paths: Callable[[str], list[list[str]]] | None = None
    # A definition kind that groups files for imports (C#'s ``namespace``: ``using App.Models``
    # loads every file declaring something in it).
    import_scope: str = ""
    # Methods of the language's built-in types: a call of one (``d.get()``) is far more often
    # of that than of a repository's own ``get`` (codeagent.repomap's reference weights).
    builtin_methods: frozenset[str] = frozenset()
    imports: str = ""
    calls: str = ""
    # Kinds that ctags and this layer both call a definition (eval/compare_ctags.py).
    doc_comment: tuple[str, ...] = ("comment",)
    # Nodes before a definition, its siblings, that belong to it as its comments do (Rust's
    # ``#[derive(..)]``, a TypeScript method's ``@decorator``): the definition starts at them.
    leading: tuple[str, ...] = ()
    # Nodes that wrap one definition (``export class A``, ``const f = () => ..``, C++'s
    # ``template <class T>``): a comment above the wrapper is the definition's, which starts
    # with it. Climbed when the definition is the wrapper's only named child that is not of
    # ``leading``, ``doc_comment`` or ``wrapper_parts`` (C++'s template parameters).
    wrappers: tuple[str, ...] = ()
    wrapper_parts: tuple[str, ...] = ()
    # Nodes that hold a type's members after its head (Ruby's ``body_statement``): the comments
    # between the head's line and the first member are the type's children, before that node;
    # they are the first member's, as the comments above any other member are its own.
    bodies: tuple[str, ...] = ()
    # Definitions of these kinds become "method" when a type kind encloses them.
    function_kinds: tuple[str, ...] = ("function",)
    strip_quotes: bool = True
    # Definitions inside a node of these types are left out (Java: the members of an
    # anonymous class or of an enum constant's body, which no name reaches).
    skip_inside: tuple[str, ...] = ()
    # Definition node types whose scope runs on to the end of the block that holds them (C#'s
    # file-scoped ``namespace A.B;``): the definitions after one are inside it.
    open_scopes: tuple[str, ...] = ()
    # A definition node with a child of these types is a declaration, not a definition
    # (C++: a ``= default`` or ``= delete`` member, as ctags reads it).
    declaration_children: tuple[str, ...] = ()
    # C, C++: the node types of the top level, where ``TEST(group, name) {`` (a call short of
    # its semicolon, then a block) names a function and its missing semicolon is no error.
    macro_blocks: tuple[str, ...] = ()
    # When a file has parse errors: a rewrite of its text, lines kept, to parse again (C and
    # C++ blank the attribute macros a preprocessor would expand, a C++ source file's
    # namespace macros are written out), given the file's suffix; the fewer errors win.
    repair: Callable[[str, str], str] | None = None
    # A type's methods are declared in its body only (no ``impl`` block, out-of-line
    # definition, partial or reopened type in another file): a type's methods are those of
    # its own file, so that two types of one name in two files keep their own.
    members_in_body: bool = False
    # A type's methods are declared outside its body, for it by receiver, anywhere in its
    # package, which is its folder (Go): a type's methods are those of its own folder.
    members_in_folder: bool = False
    # A type implements an interface by having its methods, without naming it (Go): an
    # interface's implementations are the types of the language with all its methods.
    implicit_interfaces: bool = False
    # Reads the call rows with what each call's receiver names, the import bindings and the
    # exports, from the tree, the matches of ``calls`` (whose patterns may capture more than
    # calls for it) and the definitions' byte spans (TypeScript, JavaScript:
    # codeagent.lang.ts_calls.read); without it the rows are references.calls_of's. The
    # targets it writes are ts_calls' forms, which the symbol graph follows across files
    # (codeagent.symbols.ts_targets), or, with ``declared_types``, codeagent.lang.java_calls'
    # forms (codeagent.symbols.java_targets); the other languages' calls stay by name.
    receivers: Callable[[Any, Any, Any], Any] | None = None
    # The targets ``receivers`` writes name types as the code declares them, found by the
    # class path: the file's own classes, its imports, its package's, then the packages it
    # imports whole (Java).
    declared_types: bool = False
    # The targets ``receivers`` writes are paths through the crate's modules, ``use``
    # declarations and ``impl`` blocks (Rust: codeagent.lang.rust_calls' forms, followed by
    # codeagent.symbols.rust_targets).
    crate_paths: bool = False
    # The targets ``receivers`` writes are the names of functions as the program links them
    # (C: codeagent.lang.c_calls' ``f``, the file's own function, else the one of that name
    # the repository defines for every file: codeagent.symbols.c_targets).
    linked_functions: bool = False
    # The targets ``receivers`` writes are the calling function's row and a name looked up in
    # its class and namespaces, or a declared type's (C++: codeagent.lang.cpp_calls' forms,
    # followed by codeagent.symbols.cpp_targets).
    scoped_names: bool = False
    # The targets ``receivers`` writes name classes whole, as the file's namespace and
    # imports make them (PHP: codeagent.lang.php_calls' forms, followed by
    # codeagent.symbols.php_targets).
    qualified_types: bool = False
    # The targets ``receivers`` writes name constants as written, looked up from the classes
    # and modules around the call outwards (Ruby: codeagent.lang.ruby_calls' forms, followed
    # by codeagent.symbols.ruby_targets).
    lexical_constants: bool = False
    # The members a type's documentation declares (PHP's ``@method``): ``doc_members(lines,
    # row)``, rows read from the lead of the type's row ``row`` (codeagent.lang.doc_members).
    doc_members: Callable[[list[str], list[Any]], list[list[Any]]] | None = None
