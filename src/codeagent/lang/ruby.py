"""Ruby: classes (the superclass as base), modules (kind ``namespace``), methods and
singleton methods (``def self.x``); ``require``/``require_relative``; calls, with their targets
where the code says the receiver (:mod:`codeagent.lang.ruby_calls`)."""

from __future__ import annotations

import posixpath

from codeagent.lang.layout import Layout
from codeagent.lang.ruby_calls import RUBY_CALLS, read
from codeagent.lang.spec import LanguageSpec


def _grammar(suffix: str) -> object:
    import tree_sitter_ruby

    return tree_sitter_ruby.language()


def import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """``require_relative 'x'`` (and ``require 'x'``) is ``x.rb`` next to the requiring file,
    else under ``lib/``."""
    file = module if module.endswith(".rb") else module + ".rb"
    for candidate in (posixpath.normpath(posixpath.join(posixpath.dirname(importer), file)),
                      "lib/" + file):  # fmt: skip
        if candidate in layout.paths:
            return [candidate]
    return []


SPEC = LanguageSpec(
    package="tree_sitter_ruby",
    name="ruby",
    extensions=(".rb", ".rake", ".gemspec"),
    import_files=import_files,
    test_names=r"_(spec|test)\.rb$",
    bodies=("body_statement",),
    grammar=_grammar,
    definitions="""
(class name: [(constant) (scope_resolution)] @name (superclass (_) @base)?) @def.class
(module name: [(constant) (scope_resolution)] @name) @def.namespace
(method name: (_) @name) @def.method
(singleton_method name: (_) @name) @def.method
""",
    imports="""
(call method: (identifier) @fn arguments: (argument_list . (string (string_content) @module))
  (#match? @fn "^(require|require_relative|load)$")) @import
""",
    # the calls, and what their receivers are read from (codeagent.lang.ruby_calls)
    calls=RUBY_CALLS,
    receivers=read,
    lexical_constants=True,
)
