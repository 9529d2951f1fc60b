"""C++: C's definitions plus classes and structs (base classes as bases), namespaces,
functions defined in a class body (methods) or outside it (``Type::method``: qualified by
``Type``), operators and destructors; ``#include``; calls."""

from __future__ import annotations

import re

from codeagent.lang.c import (
    INCLUDES,
    MACRO_FUNCTIONS,
    TEST_NAMES,
    TOP_LEVEL,
    TYPES,
    blank_macros,
    function_patterns,
    import_files,
)
from codeagent.lang.c import SPEC as C
from codeagent.lang.c_branches import first_branches_where_needed
from codeagent.lang.cpp_calls import CPP_CALLS, read
from codeagent.lang.cpp_types import MACRO_NAMESPACE, OPENS, macro_body
from codeagent.lang.spec import LanguageSpec

# A macro that opens or closes namespaces, ``#define PUGI_IMPL_NS_BEGIN namespace pugi {
# namespace impl {`` and ``#define PUGI_IMPL_NS_END } }``: in a source file that defines it
# (no other file sees a source file's macros; a header's may be defined elsewhere for the
# files that include it, so a header's stay blanked), each use alone on its line reads as
# its first definition, and what is defined between is in those namespaces.
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+((?:.*\\\n)*.*)$", re.M)
_CLOSES = re.compile(r"(?:\}\s*)+")
SOURCES = (".cpp", ".cc", ".cxx", ".c++")


def namespace_macros(text: str) -> str:
    """``text`` with the namespace macros it defines written out (lines kept)."""
    found: dict[str, str] = {}
    for match in _DEFINE.finditer(text):
        body = macro_body(match.group(2))
        if body and (OPENS.fullmatch(body) or _CLOSES.fullmatch(body)):
            found.setdefault(match.group(1), body)
    if not found:
        return text
    names = "|".join(map(re.escape, found))
    use = re.compile(rf"^([ \t]*)({names})(?=[ \t]*(?://.*)?$)", re.M)
    return use.sub(lambda m: m.group(1) + found[m.group(2)], text)


def repair(text: str, suffix: str = "") -> str:
    """:func:`blank_macros`, after a source file's namespace macros are written out and the
    conditional groups the grammar cannot read are reduced to their first branch."""
    return blank_macros(
        first_branches_where_needed(namespace_macros(text) if suffix in SOURCES else text)
    )


def _grammar(suffix: str) -> object:
    import tree_sitter_cpp

    return tree_sitter_cpp.language()


_NAME = "[(identifier) (field_identifier) (operator_name) (destructor_name)] @name"

SPEC = LanguageSpec(
    package="tree_sitter_cpp",
    name="cpp",
    extensions=(".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"),
    import_files=import_files,
    family=C.family,  # a C++ file includes C's headers and C++'s alike
    test_names=TEST_NAMES,
    grammar=_grammar,
    definitions=function_patterns(_NAME, references=True)
    + function_patterns(
        f"(qualified_identifier scope: (_) @receiver name: {_NAME})", references=True
    )
    + function_patterns(
        "(qualified_identifier scope: (_) @receiver"
        f" name: (qualified_identifier scope: (_) @receiver name: {_NAME}))",
        references=True,
    )
    # an explicit specialisation, template <> auto digits10<uint128_t>() -> int
    + function_patterns("(template_function name: (identifier) @name)", references=True)
    + function_patterns(
        "(qualified_identifier scope: (_) @receiver"
        " name: (template_function name: (identifier) @name))",
        references=True,
    )
    + """
(function_definition declarator: (operator_cast) @cast) @def.function
(function_definition declarator: (qualified_identifier scope: (_) @receiver
                                                       name: (operator_cast) @cast)) @def.function
(class_specifier name: (type_identifier) @name (base_class_clause)? @bases body: (_)) @def.class
(struct_specifier name: (type_identifier) @name (base_class_clause) @bases body: (_)) @def.struct
(class_specifier name: (template_type name: (type_identifier) @name)
  (base_class_clause)? @bases body: (_)) @def.class
(struct_specifier name: (template_type name: (type_identifier) @name)
  (base_class_clause)? @bases body: (_)) @def.struct
"""
    # a nested type defined outside its class, class Block::Iter { ... }: qualified by Block
    + "".join(
        f"""
({kind}_specifier name: (qualified_identifier scope: (_) @receiver {name})
  (base_class_clause)? @bases body: (_)) @def.{kind}"""
        for kind in ("class", "struct")
        for name in (
            "name: (type_identifier) @name",
            "name: (qualified_identifier scope: (_) @receiver name: (type_identifier) @name)",
        )
    )
    + "\n"
    # a namespace a macro names is no scope (lang.cpp_types.MACRO_NAMESPACE)
    + "((namespace_definition name: (_) @name) @def.namespace"
    + f' (#not-match? @name "{MACRO_NAMESPACE}"))'
    + """
(alias_declaration name: (type_identifier) @name) @def.typedef
(type_definition declarator: (reference_declarator (type_identifier) @name)) @def.typedef
"""
    + TYPES
    + MACRO_FUNCTIONS,
    imports=INCLUDES,
    # the calls, and the declared types their receivers are read from (lang.cpp_calls)
    calls=CPP_CALLS,
    receivers=read,
    scoped_names=True,
    repair=repair,
    macro_blocks=TOP_LEVEL,
    # App(const App &) = delete; virtual ~App() = default;: declarations (a deleted member
    # cannot be called, a defaulted one has no source), as ctags reads them
    declaration_children=("default_method_clause", "delete_method_clause"),
    # template <class T> before a definition is its first line, a comment above it its doc
    wrappers=("template_declaration",),
    wrapper_parts=("template_parameter_list", "requires_clause"),
)
