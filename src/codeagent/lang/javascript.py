"""JavaScript: functions (declarations, and function or arrow values bound to a name),
classes (the class they extend as base), methods (and a class field whose value is a
function); ``import``/``require``; calls and ``new``."""

from __future__ import annotations

import posixpath

from codeagent.lang.layout import Layout
from codeagent.lang.spec import LanguageSpec
from codeagent.lang.ts_calls import JS_CALLS, read


def _grammar(suffix: str) -> object:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


FUNCTION_VALUE = "[(arrow_function) (function_expression) (generator_function)]"
# Shared with TypeScript (typescript.py adds its own declarations).
# x.test.ts, x.spec.js, tsd's x.test-d.ts, test.js (JavaScript and TypeScript alike)
TEST_NAMES = r"\.(test|spec)(-d)?\.[mc]?[jt]sx?$|(^|[-_.])(tests?|spec)\.[mc]?[jt]sx?$"
COMMON_DEFINITIONS = f"""
(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(method_definition name: (_) @name) @def.method
(variable_declarator name: (identifier) @name value: {FUNCTION_VALUE}) @def.function
(assignment_expression
  left: [(identifier) @name (member_expression property: (property_identifier) @name)]
  right: {FUNCTION_VALUE}) @def.function
(pair key: [(property_identifier) (string)] @name value: {FUNCTION_VALUE}) @def.function
"""
# a method's decorators; what wraps one definition (``export``, ``const f = () => ..``,
# ``module.exports.f = function``, ``declare``): a comment above them is the definition's
LEADING = ("decorator",)
WRAPPERS = (
    "export_statement",
    "lexical_declaration",
    "variable_declaration",
    "expression_statement",
    "ambient_declaration",
)
IMPORTS = """
(import_statement (import_clause (named_imports
  (import_specifier name: (_) @name alias: (_)? @alias)))
  source: (string (string_fragment) @module)) @import
(import_statement (import_clause (namespace_import (identifier) @alias))
  source: (string (string_fragment) @module)) @import
(import_statement (import_clause (identifier) @alias)
  source: (string (string_fragment) @module)) @import
(import_statement source: (string (string_fragment) @module)) @import
(export_statement source: (string (string_fragment) @module)) @import
(call_expression function: (identifier) @fn
  arguments: (arguments . (string (string_fragment) @module) .)
  (#eq? @fn "require")) @import
(call_expression function: (import)
  arguments: (arguments . (string (string_fragment) @module) .)) @import
"""
CALLS = """
(call_expression function: [(identifier) @name
                            (member_expression property: (property_identifier) @name)]) @call
(new_expression constructor: [(identifier) @name
                              (member_expression property: (property_identifier) @name)]) @call
"""

_JS_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_JS_WRITTEN_FOR_TS = {".js": (".ts", ".tsx"), ".mjs": (".mts",), ".cjs": (".cts",),
                      ".jsx": (".tsx",)}  # fmt: skip


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """The files a relative specifier loads (``./request``, ``../utils/y.js``): the file
    with that path and one of the usual extensions, a ``.js`` written for a ``.ts`` file, or the
    folder's ``index`` file (``.d.ts`` declarations last); a package name or a path alias loads
    nothing of the repository."""
    if not module.startswith("."):
        return []  # a package (or a path alias): nothing of the repository's own
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
    stem, ext = posixpath.splitext(base)
    candidates = [base, *(stem + e for e in _JS_WRITTEN_FOR_TS.get(ext, ()))]
    candidates += [base + e for e in (*_JS_EXTENSIONS, ".d.ts")]
    if ext in _JS_WRITTEN_FOR_TS:  # "./types.js" for types.d.ts
        candidates.append(stem + ".d.ts")
    folder = "" if base == "." else base + "/"  # "../.." from two folders down: the root's
    candidates += [f"{folder}index{e}" for e in (*_JS_EXTENSIONS, ".d.ts")]
    return next(([c] for c in candidates if c in layout.paths), [])


SPEC = LanguageSpec(
    package="tree_sitter_javascript",
    name="javascript",
    members_in_body=True,
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    import_files=import_files,
    family="js",
    test_names=TEST_NAMES,
    grammar=_grammar,
    definitions=COMMON_DEFINITIONS
    + f"""
(class_declaration name: (identifier) @name (class_heritage (_) @base)?) @def.class
(class name: (identifier) @name (class_heritage (_) @base)?) @def.class
(field_definition property: [(property_identifier) (private_property_identifier)] @name
  value: {FUNCTION_VALUE}) @def.method
""",
    imports=IMPORTS,
    calls=JS_CALLS,
    receivers=read,
    leading=LEADING,
    wrappers=WRAPPERS,
)
