"""Go: functions, methods (qualified by their receiver type), structs, interfaces (with
their method specs), other named types; imports; calls."""

from __future__ import annotations

from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


SPEC = LanguageSpec(
    package="tree_sitter_go",
    name="go",
    extensions=(".go",),
    test_names=r"_test\.go$",
    grammar=_grammar,
    definitions="""
(function_declaration name: (identifier) @name) @def.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @receiver
    (pointer_type (type_identifier) @receiver)
    (generic_type type: (type_identifier) @receiver)
    (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name
  type: (interface_type (type_elem (type_identifier) @base)?)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(method_elem name: (field_identifier) @name) @def.method
""",
    imports="""
(import_spec name: (_)? @alias path: (_) @module) @import
""",
    calls="""
(call_expression function: [
  (identifier) @name
  (selector_expression field: (field_identifier) @name)
  (generic_type type: (type_identifier) @name)]) @call
""",
)
