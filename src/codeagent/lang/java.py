"""Java: classes, interfaces, enums, records, annotation types (superclass and implemented
or extended interfaces as bases), methods, constructors; imports; method calls and ``new``, with
their targets where the declared types say them (:mod:`codeagent.lang.java_calls`)."""

from __future__ import annotations

from codeagent.lang.java_calls import JAVA_CALLS, read
from codeagent.lang.layout import Layout
from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_java

    return tree_sitter_java.language()


_TYPE = "[(type_identifier) (scoped_type_identifier) (generic_type)]"


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """``import a.b.C`` is ``a/b/C.java`` under any source root; ``import a.b.*`` every file of
    the folder ``a/b``; ``import static a.b.C.m`` the file of ``a.b.C``."""
    if name is None:  # import a.b.*: the package
        folder = module.replace(".", "/")
        return [p for f in layout.folders_ending_with(folder) for p in layout.by_folder[f]]
    found = layout.ending_with(f"{module}.{name}".replace(".", "/") + ".java")
    return found or layout.ending_with(module.replace(".", "/") + ".java")  # a static import


def package_of(path: str) -> str:
    """A file's package as its folders say it: what follows the last ``java`` folder (the
    source roots' convention: ``src/main/java/a/b`` and ``src/test/java/a/b`` are both
    ``a/b``), else the whole folder."""
    parts = path.split("/")[:-1]
    if "java" in parts:
        parts = parts[len(parts) - parts[::-1].index("java") :]
    return "/".join(parts)


SPEC = LanguageSpec(
    package="tree_sitter_java",
    name="java",
    members_in_body=True,
    extensions=(".java",),
    import_files=import_files,
    test_names=r"[a-z0-9](Tests?|IT|TestCase)\.java$",
    grammar=_grammar,
    definitions=f"""
(class_declaration name: (identifier) @name
  superclass: (superclass {_TYPE} @base)?
  interfaces: (super_interfaces (type_list) @bases)?) @def.class
(interface_declaration name: (identifier) @name
  (extends_interfaces (type_list) @bases)?) @def.interface
(enum_declaration name: (identifier) @name
  interfaces: (super_interfaces (type_list) @bases)?) @def.enum
(record_declaration name: (identifier) @name
  interfaces: (super_interfaces (type_list) @bases)?) @def.record
(annotation_type_declaration name: (identifier) @name) @def.annotation
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(compact_constructor_declaration name: (identifier) @name) @def.constructor
(annotation_type_element_declaration name: (identifier) @name) @def.method
""",
    imports="""
(import_declaration (scoped_identifier scope: (_) @module name: (identifier) @name) .) @import
(import_declaration (scoped_identifier) @module (asterisk)) @import
""",
    # the calls, and what their receivers are read from (codeagent.lang.java_calls)
    calls=JAVA_CALLS,
    receivers=read,
    declared_types=True,
    doc_comment=("block_comment", "line_comment"),
    skip_inside=("object_creation_expression", "enum_constant"),
)
