"""Go: functions, methods (qualified by their receiver type), structs, interfaces (with
their method specs), other named types; imports; calls, with their targets where the types
the code states say them (:mod:`codeagent.lang.go_calls`)."""

from __future__ import annotations

from codeagent.lang.go_calls import GO_CALLS, read
from codeagent.lang.layout import Layout
from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """An import path loads the files of the folder it ends with (``github.com/o/r/sub`` is
    ``sub/``; the module's root package is not told apart from an outside one)."""
    if "/" not in module:
        return []  # the standard library
    folders = [f for f in layout.by_folder if f and (module == f or module.endswith("/" + f))]
    if not folders:
        return []
    folder = max(folders, key=len)  # github.com/o/r/a/sub: a/sub before sub
    return list(layout.by_folder[folder])


SPEC = LanguageSpec(
    package="tree_sitter_go",
    name="go",
    extensions=(".go",),
    # methods are declared by receiver anywhere in the type's package (its folder), and a type
    # implements every interface whose methods it has
    members_in_folder=True,
    implicit_interfaces=True,
    import_files=import_files,
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
(type_spec name: (type_identifier) @name
  type: (struct_type (field_declaration_list
    (field_declaration !name type: [(type_identifier) (qualified_type)] @base)?))) @def.struct
(type_spec name: (type_identifier) @name
  type: (interface_type (type_elem [(type_identifier) (qualified_type)] @base)?)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(method_elem name: (field_identifier) @name) @def.method
""",
    imports="""
(import_spec name: (_)? @alias path: (_) @module) @import
""",
    # the calls, and what their receivers are read from (codeagent.lang.go_calls)
    calls=GO_CALLS,
    receivers=read,
)
