"""The file AST tool as the agent sees it: structural facts about one named file of any
language the language layer reads. A Python file's are exact, from its syntax tree; a file of
another language is answered from the index's symbol graph, which its ``LanguageSpec``
extractor filled (:mod:`codeagent.tools.ast_tool.lang_files`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from codeagent.display import safe_name
from codeagent.errors import one_line
from codeagent.lang import PYTHON_AST, language_for, suffixes_read_by
from codeagent.result import Source
from codeagent.tools.ast_tool.candidates import CandidatesResult
from codeagent.tools.ast_tool.errors import AstToolError, InvalidQueryError, NotPythonError
from codeagent.tools.ast_tool.lang_files import answer_lang_file, lang_file, match_lang_file
from codeagent.tools.ast_tool.mentions import file_candidates, resolve_python_file
from codeagent.tools.ast_tool.models import AstArgs
from codeagent.tools.ast_tool.operations import NEEDS_SYMBOL, OPERATION_HELP
from codeagent.tools.ast_tool.query import run_ast_query
from codeagent.tools.ast_tool.result import AstResult
from codeagent.tools.ast_tool.rules import match_structural
from codeagent.tools.base import (
    BaseTool,
    Declined,
    McpTool,
    ModelToolResult,
    RouteExample,
    ToolContext,
)
from codeagent.tools.structural import is_placeholder

if TYPE_CHECKING:
    from codeagent.tools.symbol_tool.result import SymbolToolResult

_OPERATIONS = "\n".join(f"  - `{op}`: {text}" for op, text in OPERATION_HELP.items())

DESCRIPTION = f"""structural facts about ONE named source file: a Python file's exact, from
  its syntax tree; a file of another language (TypeScript, Go, Rust, Java, ...) from the index.
  Use it only when the question names one file (a path such as `src/app/models.py` or
  `src/router.ts`, a file name such as `models.py`, or a dotted module such as `json.decoder`)
  and asks for one of these operations (`file` as written in the question, `operation`,
  `symbol`):
{_OPERATIONS}"""


class AstToolResult(ModelToolResult):
    """An :class:`AstResult` as a tool result (``result.names()`` is what eval scores).
    ``instead``: what the file has when it has none of what was asked (its classes when it
    defines no top-level function), shown after the answer that says so."""

    result: AstResult

    def __init__(self, result: AstResult, instead: AstResult | None = None) -> None:
        super().__init__(result)
        self.instead = instead

    def render(self) -> str:
        return super().render() + (self.instead.render() if self.instead else "")

    def render_long(self) -> str:
        more = self.instead.render(long=True) if self.instead else ""
        return super().render_long() + more

    def context(self) -> str:
        r = self.result
        title = f"Exact facts about {safe_name(r.path)} from its syntax tree ({r.operation})"
        return f"{title}:\n\n{self.render_long()}"

    def citations(self) -> list[Source]:
        cited = super().citations()
        if self.instead is not None:  # the classes shown instead are cited too
            cited += [
                Source(path=p, start_line=a, end_line=b) for p, a, b in self.instead.citations()
            ]
        return cited


class AstTool(BaseTool):
    name = "ast"
    description = DESCRIPTION
    args_model = AstArgs
    structural = True
    label = "one file's syntax tree"
    uses_index = False  # reads the named file as it is on disk
    examples = (
        RouteExample(
            "list the classes in src/app/models.py",
            {"file": "src/app/models.py", "operation": "classes"},
            "asks for the classes of one named file",
        ),
        RouteExample(
            "what methods does Session have in requests.sessions?",
            {"file": "requests.sessions", "operation": "methods", "symbol": "Session"},
            "asks for the methods of one class in a named module",
        ),
        RouteExample(
            "where is parse_header called in utils.py",
            {"file": "utils.py", "operation": "calls", "symbol": "parse_header"},
            "asks where a name is called in one file",
        ),
    )

    def match(self, question: str, ctx: ToolContext) -> BaseModel | Declined | None:
        found = match_structural(question, ctx.repo_root)
        if isinstance(found, Declined):  # a file of another language, perhaps
            return match_lang_file(question, ctx.repo_root) or found
        return found

    def check(self, args: BaseModel, ctx: ToolContext) -> AstArgs:
        """A resolvable file (Python, or another language the layer reads), an operation,
        and a symbol where the operation needs one; the file normalised to its
        repository-relative path. Of another language's file, ``methods`` with no class
        named lists the file's methods."""
        assert isinstance(args, AstArgs)
        symbol = _clean_symbol(args.symbol)
        if not args.file:
            raise InvalidQueryError("it names no file")
        if args.operation is None:
            raise InvalidQueryError("it names no operation")
        other = lang_file(ctx.repo_root, args.file)
        listed = other is not None and args.operation == "methods"  # the file's methods
        if args.operation in NEEDS_SYMBOL and not symbol and not listed:
            raise InvalidQueryError(f"the {args.operation} operation needs a symbol")
        if other is not None:
            return args.model_copy(update={"file": other, "symbol": symbol})
        rel, problem = resolve_python_file(ctx.repo_root, args.file)
        if rel is None:
            if file_candidates(ctx.repo_root, args.file):
                return args.model_copy(update={"symbol": symbol})  # run() lists them and asks
            raise InvalidQueryError(problem)
        return args.model_copy(update={"file": rel, "symbol": symbol})

    def describe(self, args: BaseModel) -> str:
        assert isinstance(args, AstArgs)
        what = f"{args.operation} of {args.symbol}" if args.symbol else str(args.operation)
        return f"structural question ({what}) about {args.file}"

    def mcp_tools(self) -> tuple[McpTool, ...]:
        return (FILE_STRUCTURE,)

    def run(
        self, args: BaseModel, ctx: ToolContext
    ) -> AstToolResult | CandidatesResult | SymbolToolResult:
        assert isinstance(args, AstArgs)
        if candidates := file_candidates(ctx.repo_root, args.file or ""):
            return CandidatesResult(args.file or "", candidates)
        if _other_language(args.file or ""):
            return answer_lang_file(args, ctx)
        operation = args.operation or "outline"
        result = run_ast_query(ctx.repo_root, args.file or "", operation, args.symbol)
        if operation == "functions" and not result.items:  # say what the file has instead
            classes = run_ast_query(ctx.repo_root, result.path, "classes")
            return AstToolResult(result, classes if classes.items else None)
        return AstToolResult(result)


def _other_language(path: str) -> bool:
    """A file of another language than Python that the language layer reads."""
    return language_for(path) is not None and not path.endswith(suffixes_read_by(PYTHON_AST))


def _clean_symbol(symbol: str | None) -> str | None:
    if not symbol:
        return None
    cleaned = symbol.strip().strip("`'\"").removesuffix("()").lstrip("@").strip()
    return None if not cleaned or is_placeholder(cleaned) else cleaned


class StructureArgs(BaseModel):
    path: str = Field(description="A source file, relative to the repository root.")


def _file_structure(args: StructureArgs, ctx: ToolContext) -> str:
    """The file tool's ``outline`` (:mod:`codeagent.tools.operations`): of a Python file,
    read from the file as it is on disk now (not from the index); of a file of the other
    languages, from the index's symbol graph."""
    from codeagent.tools.symbol_tool.names import SymbolToolError

    try:
        return run_ast_query(ctx.repo_root, args.path, "outline").render()
    except NotPythonError as exc:
        if exc.path and _other_language(exc.path):
            outline = AstArgs(file=exc.path, operation="outline")
            try:
                return answer_lang_file(outline, ctx).result.render(long=True)
            except SymbolToolError as failed:
                raise AstToolError(f"cannot outline {exc.path}: {one_line(failed)}") from None
        raise AstToolError(f"cannot outline {args.path}: {one_line(exc)}") from None
    except AstToolError as exc:  # a missing or unreadable file: an error, not an outline
        raise AstToolError(f"cannot outline {args.path}: {one_line(exc)}") from None


FILE_STRUCTURE = McpTool(
    name="file_structure",
    description="Outline one source file with line numbers: a Python file's imports, classes "
    "with methods, functions and constants, read from its syntax tree (exact); a file of "
    "another language the index structures (Go, Rust, Java, TypeScript, ...): its types, "
    "functions and methods.",
    args_model=StructureArgs,
    answer=_file_structure,
    reads_files=True,
    operation="outline",
)
