"""C: function definitions, structs, unions, enums (with a body), typedefs, macros;
``#include``; calls. Without a preprocessor: a file with parse errors is read again with its
macros blanked (:func:`blank_macros`, the ``repair`` of C and C++), and functions a macro
names at the top level are definitions (:data:`MACRO_FUNCTIONS`)."""

from __future__ import annotations

import posixpath
import re

from codeagent.lang.c_branches import first_branches_where_needed
from codeagent.lang.c_calls import C_CALLS, read
from codeagent.lang.layout import Layout
from codeagent.lang.spec import LanguageSpec

# Upper-case macro names with an underscore (FMT_EXPORT, CLI11_NODISCARD, CJSON_CDECL) where a
# declaration goes on: alone on a line, or before a name or keyword; and a macro wrapping a
# return type, CJSON_PUBLIC(cJSON *) name(...). A macro that is itself the type of the one
# name after it stays: UNITY_UINT32 p0[1] = ..., typedef UNITY_UINT32 UNITY_UINT; and in C
# (no constructors) a macro that starts a function's declaration, UNITY_INTERNAL_PTR f(...),
# while int CJSON_CDECL main(void) loses its macro.
_MACRO = r"[A-Z][A-Z0-9]*_[A-Z0-9_]*"
_ANY_MACRO = re.compile(_MACRO)
_ARGUMENTS = r'\((?:[^()\n"]|"(?:\\.|[^"\\\n])*")*\)'  # (a, "b (c)"): a string's parentheses too
_ALONE = re.compile(rf"^[ \t]*{_MACRO}[ \t]*(?:{_ARGUMENTS})?[ \t]*(?://.*)?$", re.MULTILINE)
# An annotation after a function's parameters, before its body or semicolon, on the same
# line or an indented one of its own: void f() const GTEST_LOCK_EXCLUDED_(mu) {
_TRAILING = re.compile(
    rf"(?:(?<=\))|(?<=\bconst))[ \t]*{_MACRO}\([^()\n]*\)(?=[ \t]*[{{;]?[ \t]*$)"
    rf"|^[ \t]+{_MACRO}\([^()\n]*\)(?=[ \t]*{{?[ \t]*$)"
)
# A macro used as a statement at the top level (column 0), whose arguments need not be
# expressions: GMOCK_DECLARE_KIND_(unsigned char, kInteger);
_TOP_CALL = re.compile(rf"^{_MACRO}\((?:[^()\n]|\([^()\n]*\))*\);[ \t]*(?://.*)?$")
_BEFORE = re.compile(
    rf"(?<![\w#.>:])({_MACRO})(?=[ \t]+(?:[A-Za-z_~]|\[\[))(?![ \t]+[A-Za-z_]\w*[ \t]*[;=\[,)])"
)
_WRAPPER = re.compile(rf"(?<![\w#])({_MACRO})\(([^()\n]*)\)(?=[ \t]*[*&]?[ \t]*[A-Za-z_])")
_CALL_AFTER = re.compile(r"[ \t]+[A-Za-z_]\w*[ \t]*\(")
_LEAD = re.compile(r"[ \t]*(?:(?:static|extern|inline|const|volatile)[ \t]+)*")


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _blank_c(match: re.Match[str]) -> str:
    line, start, end = match.string, match.start(), match.end()
    if _CALL_AFTER.match(line, end) and _LEAD.fullmatch(line, 0, start):
        return match.group(0)  # the return type of a function
    return " " * (end - start)


def _unwrap(match: re.Match[str]) -> str:
    """``CJSON_PUBLIC(cJSON *)`` -> its return type; ``FMT_VISIBILITY("default")`` (a string,
    not a type) -> nothing."""
    inside = match.group(2)
    if inside.lstrip().startswith('"'):
        return " " * len(match.group(0))
    return " " * (len(match.group(1)) + 1) + inside + " "


def blank_macros(text: str, c: bool = False) -> str:
    """``text`` with likely attribute macros replaced by spaces (lines and columns kept);
    ``c``: a macro that starts a function's declaration is its return type."""
    lines: list[str] = []
    source = text.split("\n")
    directive = False
    for i, line in enumerate(source):
        directive = directive or line.lstrip().startswith("#")
        if directive or not _ANY_MACRO.search(line):
            lines.append(line)  # a preprocessor line and its continuations keep their macros
            directive = directive and line.endswith("\\")
            continue
        body_next = i + 1 < len(source) and source[i + 1].lstrip().startswith("{")
        if not (body_next and line[:1].isalpha()):  # not TEST_SETUP(group) above its body
            line = _ALONE.sub(_blank, line)
        line = _TRAILING.sub(_blank, _TOP_CALL.sub(_blank, line))
        line = _WRAPPER.sub(_unwrap, line)
        lines.append(_BEFORE.sub(_blank_c if c else _blank, line))
    return "\n".join(lines)


def blank_c_macros(text: str, suffix: str = "") -> str:
    """:func:`blank_macros` for C, after the conditional groups the grammar cannot read are
    reduced to their first branch."""
    return blank_macros(first_branches_where_needed(text), c=True)


def _grammar(suffix: str) -> object:
    import tree_sitter_c

    return tree_sitter_c.language()


def function_patterns(name: str, references: bool = False) -> str:
    """A function definition whose declarator (behind up to two pointers, or with
    ``references`` a C++ ``&``/``&&``) names ``name``."""
    inner = f"(function_declarator declarator: {name})"
    shapes = [
        inner,
        f"(pointer_declarator declarator: {inner})",
        f"(pointer_declarator declarator: (pointer_declarator declarator: {inner}))",
    ]
    if references:
        shapes.append(f"(reference_declarator {inner})")
    return "\n".join(f"(function_definition declarator: {d}) @def.function" for d in shapes)


# Functions a macro names, as test frameworks write them at the top of a file (ctags tags
# them by the macro's name): ``TEST_SETUP(group) {`` reads as a definition of ``(group)``,
# ``TEST(group, name) {`` as a call short of its semicolon followed by a block (``@end``: the
# definition runs to the block's end). Only at the top level: in a function body the same
# shape is a loop macro (``list_for_each(pos, head) {``).
TOP_LEVEL = ("translation_unit", "declaration_list", "preproc_if", "preproc_ifdef",
              "preproc_else", "preproc_elif")  # fmt: skip
_IDENTIFIERS = r"^[(]\\s*\\w+(\\s*,\\s*\\w+)*\\s*[)]$"  # (group, name): words, no string
MACRO_FUNCTIONS = "".join(
    f"""
({parent} (function_definition type: (type_identifier) @name
                              declarator: (parenthesized_declarator)) @def.function)
({parent} (expression_statement (call_expression function: (identifier) @name
                                                 arguments: (argument_list) @args)
                                (MISSING ";")) @def.function
          . (compound_statement) @end
          (#match? @args "{_IDENTIFIERS}"))"""
    for parent in TOP_LEVEL
)
TYPES = """
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.union
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.typedef
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @def.typedef
(type_definition declarator: (pointer_declarator declarator:
  (pointer_declarator declarator: (type_identifier) @name))) @def.typedef
(type_definition declarator: (array_declarator declarator: (type_identifier) @name)) @def.typedef
(type_definition declarator: (function_declarator declarator: (type_identifier) @name)) @def.typedef
(type_definition declarator: (function_declarator declarator:
  (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
  @def.typedef
(type_definition declarator: (function_declarator declarator:
  (parenthesized_declarator (type_identifier) @name))) @def.typedef
(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro
"""
INCLUDES = "(preproc_include path: (_) @module) @import"
CALLS = """
(call_expression function: [(identifier) @name
                            (field_expression field: (field_identifier) @name)]) @call
"""

TEST_NAMES = r"_(?:unit)?tests?\.\w+$"  # x_test.cc, Chromium's x_unittest.cc (C and C++ alike)


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """``#include "x/y.h"`` is the file next to the including one, else every file whose path
    ends with ``x/y.h`` (an include folder)."""
    near = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
    if near in layout.paths:
        return [near]
    return layout.ending_with(posixpath.normpath(module).lstrip("./"))


SPEC = LanguageSpec(
    package="tree_sitter_c",
    name="c",
    extensions=(".c", ".h"),
    import_files=import_files,
    family="c",
    test_names=TEST_NAMES,
    grammar=_grammar,
    definitions=function_patterns("(identifier) @name") + TYPES + MACRO_FUNCTIONS,
    imports=INCLUDES,
    # the calls, and the variables a call of a name may be of (codeagent.lang.c_calls)
    calls=C_CALLS,
    receivers=read,
    linked_functions=True,
    repair=blank_c_macros,
    macro_blocks=TOP_LEVEL,
)
