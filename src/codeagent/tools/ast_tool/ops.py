"""What each operation answers: its items picked out of a file's analysis (the table in
:mod:`codeagent.tools.ast_tool.operations` says which function answers which operation)."""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass

from codeagent.tools.ast_tool.analyze import Analysis, DefRecord
from codeagent.tools.ast_tool.calls import find_calls
from codeagent.tools.ast_tool.errors import AmbiguousSymbolError, SymbolNotFoundError
from codeagent.tools.ast_tool.models import (
    ClassInfo,
    Definition,
    FunctionInfo,
    Item,
    OutlineEntry,
)
from codeagent.tools.ast_tool.render import decorated_header, def_header
from codeagent.tools.ast_tool.source import ParsedFile


@dataclass
class Query:
    """One query about one parsed file."""

    analysis: Analysis
    parsed: ParsedFile
    rel: str
    symbol: str  # "" for the operations that take none


Answer = tuple[list[Item], str | None]  # the items, the symbol as resolved


def functions(q: Query) -> Answer:
    return [r.info for r in q.analysis.top_level(FunctionInfo)], None


def classes(q: Query) -> Answer:
    return [r.info for r in q.analysis.top_level(ClassInfo)], None


def methods(q: Query) -> Answer:
    classes = _find(q.analysis, q.symbol, q.rel, classes_only=True)
    items = [m for r in classes if isinstance(r.info, ClassInfo) for m in r.info.methods]
    return list(items), classes[0].qualname


def imports(q: Query) -> Answer:
    return list(q.analysis.imports), None


def variables(q: Query) -> Answer:
    return [info for info, _ in q.analysis.variables], None


def decorators(q: Query) -> Answer:
    return list(q.analysis.decorators), None


def calls(q: Query) -> Answer:
    key = f"calls:{q.symbol}"
    if key not in q.parsed.memo:
        q.parsed.memo[key] = find_calls(q.parsed, q.symbol)
    return list(q.parsed.memo[key]), q.symbol


def definition(q: Query) -> Answer:
    return _definition(q.analysis, q.parsed, q.symbol, q.rel)


def outline(q: Query) -> Answer:
    if "outline" not in q.parsed.memo:
        q.parsed.memo["outline"] = [_outline_entry(r) for r in q.analysis.defs]
    return list(q.parsed.memo["outline"]), None


def _find(analysis: Analysis, symbol: str, rel: str, *, classes_only: bool) -> list[DefRecord]:
    """Definitions named ``symbol``: an exact qualified name, else a unique name or
    qualified-name suffix (``inner`` or ``Outer.inner`` for ``mod.Outer.inner``)."""
    defs = [d for d in analysis.defs if isinstance(d.info, ClassInfo) or not classes_only]
    exact = [d for d in defs if d.qualname == symbol]
    if exact:
        return exact
    tail = "." + symbol
    partial = [d for d in defs if d.qualname.endswith(tail)]
    qualnames = sorted({d.qualname for d in partial})
    if len(qualnames) == 1:
        return partial
    what = "class" if classes_only else "symbol"
    if qualnames:
        raise AmbiguousSymbolError(
            f"{what} {symbol!r} is ambiguous in {rel}: {len(qualnames)} definitions "
            f"({', '.join(qualnames)}); give its qualified name",
            path=rel,
            symbol=symbol,
            close_matches=qualnames,
        )
    known = sorted({d.qualname for d in defs} | {d.qualname.rpartition(".")[2] for d in defs})
    if not classes_only:
        known = sorted(set(known) | {v.name for v, _ in analysis.variables})
    close = _close_matches(symbol, known)
    hint = f"; did you mean: {', '.join(close)}?" if close else ""
    raise SymbolNotFoundError(
        f"{what} {symbol!r} not found in {rel}{hint}", path=rel, symbol=symbol, close_matches=close
    )


def _close_matches(symbol: str, known: list[str], limit: int = 5) -> list[str]:
    """Close spellings at the symbol's own depth (difflib), names extending one of them
    (``Session`` -> ``SessionRedirectMixin``), then close spellings at other depths."""
    close = difflib.get_close_matches(symbol, known, n=limit, cutoff=0.6)
    depth = symbol.count(".")
    same = [c for c in close if c.count(".") == depth]
    longer = sorted(
        (k for k in known if k.count(".") == depth and k not in same) if same else (),
        key=lambda k: (len(k), k),
    )
    longer = [k for k in longer if any(k.startswith(c) for c in same)]
    return list(dict.fromkeys([*same, *longer, *close]))[:limit]


def _definition(
    analysis: Analysis, parsed: ParsedFile, symbol: str, rel: str
) -> tuple[list[Item], str]:
    variables = [(v, s) for v, s in analysis.variables if v.name == symbol]
    if variables and not any(d.qualname == symbol for d in analysis.defs):
        items: list[Item] = [
            Definition(name=v.name, qualname=v.name, symbol_kind="variable",
                       header=parsed.lines[v.line - 1].strip(), start_line=v.line,
                       end_line=v.end_line, source=parsed.segment(v.line, v.end_line),
                       condition=v.condition)
            for v, _ in variables
        ]  # fmt: skip
        return items, symbol
    records = _find(analysis, symbol, rel, classes_only=False)
    items = []
    for r in records:
        info = r.info
        kind = "class" if isinstance(info, ClassInfo) else "function"
        if isinstance(info, FunctionInfo) and r.parent_kind == "class":
            kind = "method"
        assert isinstance(r.node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        items.append(
            Definition(name=info.name, qualname=r.qualname, symbol_kind=kind,
                       header=def_header(info), start_line=info.start_line,
                       end_line=info.end_line,
                       source=parsed.segment(info.start_line, info.end_line),
                       docstring=ast.get_docstring(r.node),
                       is_overload=isinstance(info, FunctionInfo) and info.is_overload,
                       condition=r.condition)
        )  # fmt: skip
    return items, records[0].qualname


def _outline_entry(record: DefRecord) -> OutlineEntry:
    info = record.info
    kind = "class" if isinstance(info, ClassInfo) else "function"
    if isinstance(info, FunctionInfo) and record.parent_kind == "class":
        kind = "method"
    return OutlineEntry(
        name=info.name,
        qualname=record.qualname,
        symbol_kind=kind,
        header=decorated_header(info),
        depth=record.depth,
        start_line=info.start_line,
        end_line=info.end_line,
        condition=record.condition,
    )
