"""C#: classes, structs, interfaces, records (base types as bases), enums, methods,
constructors, destructors, operators (conversions too), namespaces; ``using``; calls and ``new``,
with their targets where the declared types say them (:mod:`codeagent.lang.csharp_calls`)."""

from __future__ import annotations

import re

from codeagent.lang.csharp_calls import CSHARP_CALLS, read
from codeagent.lang.layout import Layout
from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_c_sharp

    return tree_sitter_c_sharp.language()


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """``using App.Models`` is every file that declares something in the namespace."""
    return sorted(layout.namespaces.get(module, ()))


_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|elif|else|endif)\b")


def first_branches(text: str, suffix: str = "") -> str:
    """``text`` as if each ``#if``'s first branch were compiled: the directives' lines and
    the other branches' (``#elif``, ``#else``) blanked, lines kept (the ``repair`` of a file
    that does not parse whole: ``#if`` inside a base list or a signature)."""
    lines = text.split("\n")
    dropped: list[bool] = []  # per open #if: whether a later branch is being read
    for i, line in enumerate(lines):
        found = _CONDITIONAL.match(line)
        if found is not None:
            word = found.group(1)
            if word == "if":
                dropped.append(False)
            elif word == "endif":
                if dropped:
                    dropped.pop()
            elif dropped:
                dropped[-1] = True
            lines[i] = " " * len(line)
        elif any(dropped):
            lines[i] = " " * len(line)
    return "\n".join(lines)


SPEC = LanguageSpec(
    package="tree_sitter_c_sharp",
    name="csharp",
    extensions=(".cs",),
    import_files=import_files,
    import_scope="namespace",
    test_names=r"[a-z0-9](Tests?|IT|TestCase)\.cs$",
    grammar=_grammar,
    definitions="""
(class_declaration name: (identifier) @name (base_list)? @bases) @def.class
(struct_declaration name: (identifier) @name (base_list)? @bases) @def.struct
(interface_declaration name: (identifier) @name (base_list)? @bases) @def.interface
(record_declaration name: (identifier) @name (base_list)? @bases) @def.record
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(operator_declaration operator: _ @operator) @def.method
(conversion_operator_declaration type: _ @conversion) @def.method
(destructor_declaration name: (identifier) @destructor) @def.method
(namespace_declaration name: (_) @name) @def.namespace
(file_scoped_namespace_declaration name: (_) @name) @def.namespace
""",
    imports="""
(using_directive [(qualified_name) (identifier)] @module) @import
""",
    # the calls, and what their receivers are read from (codeagent.lang.csharp_calls)
    calls=CSHARP_CALLS,
    receivers=read,
    declared_types=True,
    repair=first_branches,
    open_scopes=("file_scoped_namespace_declaration",),
)
