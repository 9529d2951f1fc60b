"""TypeScript (``.ts``, and ``.tsx`` with its JSX grammar): JavaScript's definitions plus
interfaces (extended interfaces as bases), classes with ``extends`` and ``implements``
bases, abstract classes, enums, type aliases, namespaces, declared functions, method
signatures, a class field whose value is a function (``fetch = (req) => ...``: a method, as
the compiler's declarations list a property so initialised); imports and calls as
JavaScript's."""

from __future__ import annotations

from codeagent.lang.javascript import (
    COMMON_DEFINITIONS,
    FUNCTION_VALUE,
    IMPORTS,
    LEADING,
    TEST_NAMES,
    WRAPPERS,
    import_files,
)
from codeagent.lang.spec import LanguageSpec
from codeagent.lang.ts_calls import TS_CALLS, read


def _grammar(suffix: str) -> object:
    import tree_sitter_typescript

    if suffix == ".tsx":
        return tree_sitter_typescript.language_tsx()
    return tree_sitter_typescript.language_typescript()


_HERITAGE = """(class_heritage (extends_clause) @bases? (implements_clause) @bases?)?"""

SPEC = LanguageSpec(
    package="tree_sitter_typescript",
    name="typescript",
    members_in_body=True,
    extensions=(".ts", ".tsx", ".mts", ".cts"),
    import_files=import_files,
    family="js",
    test_names=TEST_NAMES,
    grammar=_grammar,
    definitions=COMMON_DEFINITIONS
    + f"""
(class_declaration name: (_) @name {_HERITAGE}) @def.class
(abstract_class_declaration name: (_) @name {_HERITAGE}) @def.class
(class name: (_) @name {_HERITAGE}) @def.class
(interface_declaration name: (_) @name (extends_type_clause) @bases?) @def.interface
(enum_declaration name: (_) @name) @def.enum
(type_alias_declaration name: (_) @name) @def.type
(internal_module name: (_) @name) @def.namespace
(module name: [(identifier) (nested_identifier)] @name) @def.namespace
(function_signature name: (_) @name) @def.function
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name
  value: {FUNCTION_VALUE}) @def.method
""",
    # and a module augmentation (``declare module '../..' { ... }``) of the file it names
    imports=IMPORTS
    + "(ambient_declaration (module name: (string (string_fragment) @module))) @import\n",
    calls=TS_CALLS,
    receivers=read,
    leading=LEADING,
    wrappers=WRAPPERS,
)
