"""The symbol tool as the agent sees it: repository-wide structural questions answered from
the symbol graph built at index time."""

from __future__ import annotations

from pydantic import BaseModel

from codeagent.tools.base import (
    BaseTool,
    Declined,
    McpTool,
    RouteExample,
    ToolContext,
)
from codeagent.tools.operations import WIDE
from codeagent.tools.structural import is_placeholder
from codeagent.tools.symbol_tool.match import match_file_importers, match_symbol_question
from codeagent.tools.symbol_tool.names import SymbolToolError
from codeagent.tools.symbol_tool.query import run_symbol_query
from codeagent.tools.symbol_tool.result import SymbolArgs, SymbolToolResult


class SymbolTool(BaseTool):
    name = "symbols"
    description = (
        "Repository-wide structural questions that name no file: where a class, function or "
        "method is defined (X, Class.method or a dotted path), who calls X or where X is used "
        "(by name), subclasses of a class, which modules import X, what a module imports, and "
        "the methods of a class including inherited ones. A question about one named file "
        "(its outline, imports, classes, a class's methods there) is the file tool's, in "
        "every language; which files import a named file is this tool's."
    )
    args_model = SymbolArgs
    structural = True
    label = "the symbol graph"
    examples = (
        RouteExample(
            "where is Session.request defined?",
            {"operation": "definition", "name": "Session.request", "transitive": False},
            "asks where a name is defined, no file named",
        ),
        RouteExample(
            "who calls parse_header?",
            {"operation": "callers", "name": "parse_header", "transitive": False},
            "asks for the callers of a name across the repository",
        ),
    )

    def match(self, question: str, ctx: ToolContext) -> BaseModel | Declined | None:
        from codeagent.tools.ast_tool.lang_files import match_lang_file
        from codeagent.tools.ast_tool.mentions import find_file
        from codeagent.tools.ast_tool.rules import asks_how_or_why, structural_without_file

        if asks_how_or_why(question):
            return None
        if (importers := match_file_importers(question, ctx.repo_root)) is not None:
            return importers  # which files import one named file of another language
        if match_lang_file(question, ctx.repo_root) is not None:
            return None  # one named file, of any language: the file AST tool's
        wide = match_symbol_question(question)
        if wide is not None:
            if wide.operation == "imports" and find_file(question, ctx.repo_root)[0]:
                return None  # what one named file imports: the AST tool
            return wide
        found = structural_without_file(question, ctx.repo_root)
        if found is None:
            return None
        operation, symbol = found
        return SymbolArgs.model_validate({"operation": WIDE[operation], "name": symbol})

    def check(self, args: BaseModel, ctx: ToolContext) -> SymbolArgs:
        """A name that names something (not "something", "it", "these")."""
        assert isinstance(args, SymbolArgs)
        name = args.name.strip().strip("`'\"").removesuffix("()").strip()
        if not name or is_placeholder(name):
            raise SymbolToolError(f"{args.name!r} names no symbol")
        return args.model_copy(update={"name": name})

    def describe(self, args: BaseModel) -> str:
        assert isinstance(args, SymbolArgs)
        what = f"{args.operation} of {args.name}" + (" (transitive)" if args.transitive else "")
        return f"repository-wide structural question ({what}): the symbol graph"

    def mcp_tools(self) -> tuple[McpTool, ...]:
        from codeagent.tools.symbol_tool.mcp import (
            FIND_DEFINITION,
            FIND_OVERRIDES,
            FIND_REFERENCES,
        )

        return (FIND_DEFINITION, FIND_REFERENCES, FIND_OVERRIDES)

    def run(self, args: BaseModel, ctx: ToolContext) -> SymbolToolResult:
        assert isinstance(args, SymbolArgs)
        graph = ctx.symbols
        if graph is None:
            raise SymbolToolError("the index carries no symbol graph")
        return SymbolToolResult(run_symbol_query(graph, args, ctx.repo_root))
