"""Python: read by its own ``ast`` (:mod:`codeagent.pysyntax`: exact, standard library only),
not by a tree-sitter grammar; the chunker, the symbol graph and the file AST tool read the
same structure.

Its suffixes: ``.py`` (modules), ``.pyi`` (stubs) and ``.pyw`` (windowed scripts), which
``ast`` parses alike. Cython's ``.pyx`` is a dialect: its ``cdef`` syntax is no Python ``ast``
reads, but its files follow Python's conventions (``test_x.pyx``), so the file-kind rules
read it as Python while the index cuts it into line windows.
"""

from __future__ import annotations

from codeagent.lang.spec import PYTHON_AST, LanguageSpec


def module_paths(name: str) -> list[list[str]]:
    """``pkg/models`` is ``pkg/models.py`` or the package ``pkg/models/__init__.py``; a dotted
    ``pkg.models`` (no slash) likewise, after the name as written."""
    rules = [[name + ".py", name + "/__init__.py"]]
    if "/" not in name and "." in name:
        dotted = name.replace(".", "/")
        rules.append([dotted + ".py", dotted + "/__init__.py"])
    return rules


SPEC = LanguageSpec(
    name="python",
    extensions=(".py", ".pyi", ".pyw"),
    structure=PYTHON_AST,
    module_paths=module_paths,
    # ``test_x.py`` is every kind of file's rule (codeagent.rank.file_roles); this is Python's
    test_names=r"(?i:_tests?\.py)$",
    dialects=(".pyx",),
    builtin_methods=frozenset(
        name for kind in (dict, list, str, bytes, set, tuple, int, float) for name in dir(kind)
    ),
)
