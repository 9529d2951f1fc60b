"""Phrasings of the repository-wide questions only the symbol graph answers: overrides,
subclasses, importers, a module's imports. (Definitions, callers and methods are phrased like
the file AST tool's questions; the rule router maps those when the question names no file.)"""

from __future__ import annotations

import re
from pathlib import Path

from codeagent.tools.ast_tool.rules import first_name
from codeagent.tools.structural import PLACEHOLDERS
from codeagent.tools.symbol_tool.result import SymbolArgs

_I = re.IGNORECASE
_NAME = r"[A-Za-z_]\w*(?:(?:\.|::|#)[A-Za-z_]\w*)*"  # dotted, with ``::``, or ``A#f``
_ID = rf"`?(?P<sym>{_NAME})(?:\(\))?`?(?![\w/])"
_CLS = (
    rf"(?:the\s+)?(?:(?:class|exception|type|base\s+class|interface|trait)\s+)?{_ID}"
    rf"(?:\s+(?:class|type|interface|trait))?"
)
# a module's name, or an import path with slashes (a Go package, ``@scope/pkg``)
_MOD_ID = rf"`?(?P<sym>(?:@?[A-Za-z_][\w.\-]*/)+[\w.\-]*\w|{_NAME})(?:\(\))?`?(?![\w/])"
_MOD = rf"(?:the\s+)?(?:(?:module|package|file)\s+)?{_MOD_ID}(?:\s+(?:module|package))?"

_SUBCLASSES = [
    re.compile(
        rf"\b(?:sub-?classes|subtypes|child\s+classes|children|derived\s+classes|descendants|"
        rf"implementations|heirs)\s+(?:of|for)\s+{_CLS}",
        _I,
    ),
    re.compile(
        rf"\b(?:classes|types|structs|what|which|who)\s+(?:that\s+|which\s+)?"
        rf"(?:directly\s+|indirectly\s+)?"
        rf"(?:inherits?|derives?|extends?|sub-?class(?:es)?|implements?|embeds?)\s+"
        rf"(?:from\s+)?{_CLS}",
        _I,
    ),
    re.compile(rf"\b(?:inherit|derive)\s+from\s+{_CLS}", _I),
    re.compile(rf"\b(?:is|are)\s+{_CLS}\s+(?:subclassed|extended|inherited\s+from)", _I),
]
_METHOD = rf"(?:the\s+)?(?:method\s+)?{_ID}(?:\s+method)?"
_OVERRIDES = [
    re.compile(
        rf"\b(?:who|what|which(?:\s+(?:classes|types|methods|subclasses))?)\s+"
        rf"(?:also\s+)?overrides?\s+{_METHOD}",
        _I,
    ),
    re.compile(rf"\boverrides\s+of\s+{_METHOD}", _I),
    re.compile(rf"\b(?:where|how\s+often)\s+(?:is|are)\s+{_METHOD}\s+overridden\b", _I),
]
_TRANSITIVE = re.compile(
    r"\b(?:all|every|transitive(?:ly)?|indirect(?:ly)?|descendants|recursive(?:ly)?|whole)\b", _I
)
_IMPORTERS = [
    re.compile(rf"\b(?:which|what)\s+(?:modules|files|code|packages)\s+imports?\s+{_MOD}", _I),
    re.compile(rf"\b(?:who|what)\s+imports\s+{_MOD}", _I),
    re.compile(rf"\bwhere\s+(?:is|are)\s+{_MOD}\s+imported\b", _I),
    re.compile(rf"\b(?:importers|dependents|users)\s+of\s+{_MOD}", _I),
    re.compile(rf"\b(?:modules|files)\s+(?:that|which)\s+imports?\s+{_MOD}", _I),
]
_IMPORTS = [
    re.compile(rf"\bwhat\s+(?:modules\s+|names\s+)?does\s+{_MOD}\s+(?:import|depend\s+on)\b", _I),
    re.compile(
        rf"\b(?:imports|dependencies)\s+(?:of|in|by)\s+(?:the\s+)?(?:module|package)\s+{_ID}", _I
    ),
]
_STOP = PLACEHOLDERS | {"the", "a", "an", "module", "file", "package", "class"}


def match_symbol_question(text: str) -> SymbolArgs | None:
    """Subclasses / importers / imports questions, with the name they ask about (never a
    placeholder: "which classes inherit from something in x.py" names no class)."""
    for operation, patterns in (
        ("overrides", _OVERRIDES),
        ("subclasses", _SUBCLASSES),
        ("importers", _IMPORTERS),
        ("imports", _IMPORTS),
    ):
        name = first_name(patterns, text, lambda name, _match: name.lower() not in _STOP)
        if name is not None:
            transitive = operation == "subclasses" and bool(_TRANSITIVE.search(text))
            return SymbolArgs(operation=operation, name=name, transitive=transitive)
    return None


def match_file_importers(question: str, root: Path) -> SymbolArgs | None:
    """ "which files import src/context.ts?": the importers of one named file of another
    language than Python (a question about the rest of the repository, not that file)."""
    from codeagent.tools.ast_tool.lang_files import asks_for_importers, named_lang_file

    named = named_lang_file(question, root)
    if named is None or not asks_for_importers(named[1]):
        return None
    return SymbolArgs(operation="importers", name=named[0])
