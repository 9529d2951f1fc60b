"""C: function definitions, structs, unions, enums (with a body), typedefs, macros;
``#include``; calls."""

from __future__ import annotations

from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_c

    return tree_sitter_c.language()


def function_patterns(name: str) -> str:
    """A function definition whose declarator (behind up to two pointers) names ``name``."""
    inner = f"(function_declarator declarator: {name})"
    return "\n".join(
        f"(function_definition declarator: {d}) @def.function"
        for d in (
            inner,
            f"(pointer_declarator declarator: {inner})",
            f"(pointer_declarator declarator: (pointer_declarator declarator: {inner}))",
        )
    )


TYPES = """
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.union
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.typedef
(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro
"""
INCLUDES = "(preproc_include path: (_) @module) @import"
CALLS = """
(call_expression function: [(identifier) @name
                            (field_expression field: (field_identifier) @name)]) @call
"""

SPEC = LanguageSpec(
    package="tree_sitter_c",
    name="c",
    extensions=(".c", ".h"),
    grammar=_grammar,
    definitions=function_patterns("(identifier) @name") + TYPES,
    imports=INCLUDES,
    calls=CALLS,
)
