"""Rust: functions, methods (inside ``impl`` and ``trait`` blocks, qualified by the type),
structs, enums, unions, traits (with supertraits as bases), ``impl`` blocks (the trait they
implement as their base), modules (``mod``), type aliases, ``macro_rules!``; ``use``; calls,
with their targets where the paths and the types the code states say them
(:mod:`codeagent.lang.rust_calls`)."""

from __future__ import annotations

import posixpath

from codeagent.lang.layout import Layout
from codeagent.lang.rust_calls import RUST_CALLS, read
from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_rust

    return tree_sitter_rust.language()


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """``use crate::a::b::Item`` is ``a/b.rs``, ``a/b/mod.rs``, ``a.rs`` or ``a/mod.rs`` of the
    importing crate's source folder, the longest that exists."""
    parts = module.split("::")
    if parts[0] != "crate":
        return []
    head, marker, _ = importer.rpartition("src/")
    root = head + marker if marker else posixpath.dirname(importer) + "/"
    parts = parts[1:]
    for k in range(len(parts), 0, -1):
        stem = root + "/".join(parts[:k])
        for candidate in (stem + ".rs", stem + "/mod.rs"):
            if candidate in layout.paths:
                return [candidate]
    return []


SPEC = LanguageSpec(
    package="tree_sitter_rust",
    name="rust",
    extensions=(".rs",),
    import_files=import_files,
    test_names=r"(^|_)tests?\.rs$",
    grammar=_grammar,
    definitions="""
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(union_item name: (type_identifier) @name) @def.union
(trait_item name: (type_identifier) @name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @base)?)
  @def.trait
(impl_item trait: (_)? @base type: (_) @name) @def.impl
(mod_item name: (identifier) @name) @def.mod
(type_item name: (type_identifier) @name) @def.type
(associated_type name: (type_identifier) @name) @def.type
(macro_definition name: (identifier) @name) @def.macro
""",
    imports="""
(use_declaration argument: (_) @module) @import
(extern_crate_declaration name: (identifier) @module) @import
""",
    # the calls, and what their receivers are read from (codeagent.lang.rust_calls)
    calls=RUST_CALLS,
    receivers=read,
    crate_paths=True,
    doc_comment=("line_comment", "block_comment"),
    leading=("attribute_item",),  # #[derive(..)], #[cfg(..)], #[inline], #[test]
)
