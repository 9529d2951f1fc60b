"""What MCP lists for the symbol tool: ``find_definition`` (the graph's definitions of a name),
``find_references`` (the calls resolved to it, then those matched by name, then its
importers) and ``find_overrides`` (the methods that override one), each as one line per
place."""

from __future__ import annotations

from pydantic import BaseModel, Field

from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.base import McpTool, ToolContext
from codeagent.tools.symbol_tool.callers import callers_result
from codeagent.tools.symbol_tool.names import SymbolToolError
from codeagent.tools.symbol_tool.overrides import overrides_result

MAX_REFERENCES = 100


class DefinitionArgs(BaseModel):
    name: str = Field(description="A name: `X`, `Class.method` or `pkg.mod.X`.")


class ReferencesArgs(BaseModel):
    name: str = Field(description="The function, method or class name to look for.")


class OverridesArgs(BaseModel):
    name: str = Field(description="`Class.method` (its subclasses' overrides) or a method's name.")


def _graph(ctx: ToolContext) -> SymbolGraph:
    graph = ctx.symbols
    if graph is None:
        raise SymbolToolError("the index carries no symbol graph")
    return graph  # type: ignore[no-any-return]


def _definitions(args: DefinitionArgs, ctx: ToolContext) -> str:
    found = [
        f"{d.path}:{d.start_line}-{d.end_line}  {d.qualname}  [{d.kind}]"
        for d in _graph(ctx).definitions(args.name)
    ]
    return "\n".join(found) or f"no definition of {args.name} found"


def _references(args: ReferencesArgs, ctx: ToolContext) -> str:
    """The calls resolved to the name first, then those matched by name only, each with its
    fields (``resolved: true|false``, the caller's qualified name, the target), then the
    importers; a first line counts them."""
    graph, name = _graph(ctx), args.name
    try:
        result = callers_result(graph, name, None)
    except SymbolToolError:
        result = None
    lines = []
    if result is not None:
        lines.append(result.render().splitlines()[0])
        for i in result.items:
            fields = f"resolved: {'true' if i.resolved else 'false'}  caller: {i.caller}"
            fields += f"  target: {i.target}" if i.target else ""
            lines.append(f"{i.path}:{i.start_line}: a call in {i.name or '<module>'}  {fields}")
    lines += [f"{path}  imports it" for path in graph.importers(name)]
    more = len(lines) - MAX_REFERENCES
    tail = [f"... and {more} more"] if more > 0 else []
    note = [result.note] if result is not None and result.note else []
    return "\n".join([*lines[:MAX_REFERENCES], *tail, *note]) or f"no references to {name} found"


def _overrides(args: OverridesArgs, ctx: ToolContext) -> str:
    """A first line that counts them, then one line per overriding method: its place, its
    qualified name and the base method it replaces."""
    try:
        result = overrides_result(_graph(ctx), args.name)
    except SymbolToolError as exc:
        return f"no overrides of {args.name} found: {exc}"
    lines = [result.render().splitlines()[0]]
    for i in result.items:
        over = f"  overrides: {i.via}" if i.via else ""
        lines.append(f"{i.path}:{i.start_line}-{i.end_line}  {i.name}  [{i.kind}]{over}")
    return "\n".join(lines)


FIND_DEFINITION = McpTool(
    name="find_definition",
    description="Find where a class, function or method is defined: "
    "`path:start-end  qualified.name  [kind]`, one line per definition.",
    args_model=DefinitionArgs,
    answer=_definitions,
    operation="definition",
)
FIND_REFERENCES = McpTool(
    name="find_references",
    description="Find the places that use a name (calls and imports): one `path:line` per use. "
    "Calls tied to the definition by receiver, import or type come first (`resolved: true`, "
    "with the caller's qualified name and the target), then calls of the same name that could "
    "not be tied to a type (`resolved: false`), then the importing files.",
    args_model=ReferencesArgs,
    answer=_references,
    operation="callers",
)
FIND_OVERRIDES = McpTool(
    name="find_overrides",
    description="Find the methods that override a method: for `Class.method`, those its "
    "subclasses (at any depth) define again; for a method's name, every method of it. One "
    "`path:start-end  Class.method  [method]  overrides: Base.method` per method.",
    args_model=OverridesArgs,
    answer=_overrides,
    operation="overrides",
)
