"""PHP: classes (parent class and interfaces as bases), interfaces, traits, enums,
functions, methods, namespaces, the methods a class's docblock declares (``@method``);
``use``; calls and ``new``, with their targets where the declared types say them
(:mod:`codeagent.lang.php_calls`)."""

from __future__ import annotations

import re
from typing import Any

from codeagent.lang.layout import Layout
from codeagent.lang.php_calls import PHP_CALLS, read
from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_php

    return tree_sitter_php.language_php()


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """``use App\\Models\\User`` is a file ending with ``Models/User.php`` (the longest ending
    that names a file; the namespace's root folder is not known)."""
    parts = [p for p in module.replace("\\", "/").split("/") if p]
    for start in range(len(parts) - 1):
        found = layout.ending_with("/".join(parts[start:]) + ".php")
        if found:
            return found
    return []


# a docblock's ``@method [static] [T] name(...)``: the name
_METHOD = re.compile(
    r"@method[ \t]+(?:static[ \t]+)?(?:(?:[^\s(<]|<[^>\n]*>)+[ \t]+)?(\w+)[ \t]*\("
)


def doc_methods(lines: list[str], row: list[Any]) -> list[list[Any]]:
    """The methods the docblock of the class (interface, trait) ``row`` declares with
    ``@method``, which its ``__call`` or ``__callStatic`` answers: a method row each, on the
    tag's line (where a PHP language server's "go to definition" lands), the tag its
    signature."""
    found = []
    for line in range(int(row[3]), int(row[2])):
        text = lines[line - 1]
        tag = _METHOD.search(text) if "@method" in text else None
        if tag is not None:
            written = text[tag.start() :].removesuffix("*/").strip()
            found.append([f"{row[0]}.{tag[1]}", "method", line, line, line, written, "", []])
    return found


SPEC = LanguageSpec(
    package="tree_sitter_php",
    name="php",
    members_in_body=True,
    extensions=(".php",),
    import_files=import_files,
    grammar=_grammar,
    definitions="""
(class_declaration name: (name) @name (base_clause)? @bases (class_interface_clause)? @bases)
  @def.class
(interface_declaration name: (name) @name (base_clause)? @bases) @def.interface
(trait_declaration name: (name) @name) @def.trait
(enum_declaration name: (name) @name) @def.enum
(function_definition name: (name) @name) @def.function
(method_declaration name: (name) @name) @def.method
(namespace_definition name: (namespace_name) @name) @def.namespace
""",
    imports="""
(namespace_use_clause [(qualified_name) (name)] @module) @import
""",
    # the calls, and what their receivers are read from (codeagent.lang.php_calls)
    calls=PHP_CALLS,
    receivers=read,
    qualified_types=True,
    doc_members=doc_methods,
)
