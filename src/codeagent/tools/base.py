"""What every tool is: a name, a description for the router, a pydantic args model, an
optional rule matcher, and ``run(args, ctx) -> ToolResult``.

A tool that cannot answer raises :class:`ToolFailure` (any :class:`~codeagent.errors.ToolError`)
with a one-line reason; the agent then falls back to the tool's ``fallback`` (search, by
default). Light imports only (pydantic, typing): the router prompt and the rule router are
built from these without loading the index.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel

from codeagent.config import Settings
from codeagent.errors import ToolError
from codeagent.result import Source

if TYPE_CHECKING:
    from codeagent.index.lazy import LazyIndex
    from codeagent.records import SearchHit
    from codeagent.store.store import IndexStore

ToolFailure = ToolError  # what a tool raises to make the agent fall back
DEFAULT_FALLBACK = "*default*"  # a tool's ``fallback``: the registry's default tool


@dataclass(frozen=True)
class RouteExample:
    """One example of the router prompt: a question, the tool's arguments for it, why."""

    question: str
    args: dict[str, Any]
    reason: str


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use: the repository, the settings, the index (loaded on first use: a
    tool that never touches ``store`` never loads it), and the question being answered."""

    repo_root: Path
    settings: Settings
    index: LazyIndex
    question: str = ""

    @property
    def store(self) -> IndexStore:
        return self.index.get()

    @property
    def symbols(self) -> Any:
        """The repository's symbol graph (None when the index carries none)."""
        return getattr(self.store, "symbols", None)


@dataclass(frozen=True)
class Declined:
    """A rule matcher's "not mine", with why (the route that is taken instead says it), and a
    notice for the answer when the user should hear it (a named file that does not exist)."""

    reason: str
    notice: str | None = None
    # A failure of the tool's own that the answer reports as its fallback (a named file that
    # does not exist), not merely a question that is not the tool's.
    failure: str | None = None


# What MCP's server lends a tool that answers over every served repository: ``(query, k)`` ->
# the best windows, each with its repository's id, and the notices of the repositories.
SearchEverywhere = Callable[[str, int], tuple[list[tuple[str, "SearchHit"]], list[str]]]


@dataclass(frozen=True)
class McpTool:
    """One tool MCP lists, declared by the registered tool that answers it: its name, its
    description and arguments as the client sees them, and its answer as text. The server adds
    ``repo``, holds a slot, checks ``checked`` against the question size cap, and ends the
    text with the state it came from (the index's notices first, unless ``reads_files``)."""

    name: str
    description: str
    args_model: type[BaseModel]
    answer: Callable[[Any, ToolContext], str]
    checked: str | None = None  # the argument held to the question size cap (HTTP's 413)
    reads_files: bool = False  # read from the files as they are now, not from the index
    # The answer over every served repository when none is named (None: one must be named
    # when several are served).
    everywhere: Callable[[Any, SearchEverywhere], str] | None = None
    # The structural operation it answers (a row of codeagent.tools.operations), if one.
    operation: str | None = None


def rendered(tool: Tool, args: BaseModel, ctx: ToolContext) -> str:
    """``tool``'s result for ``args`` as MCP shows it: every signature (a client reads it all);
    a tool that cannot answer raises (an error result: MCP does not fall back, the client
    chose the tool)."""
    result = tool.run(tool.check(args, ctx), ctx)
    render = getattr(result, "render_long", result.render)
    return str(render())


@runtime_checkable
class ToolResult(Protocol):
    def render(self) -> str:
        """The exact, deterministic answer text (the answer without an LLM)."""
        ...

    def context(self) -> str:
        """What an LLM answer is given: a title line, a blank line, the facts or the code."""
        ...

    def citations(self) -> list[Source]:
        """The locations this result rests on (listed as the answer's sources)."""
        ...

    def to_json(self) -> dict[str, Any] | None:
        """The result as JSON data for ``ask --json`` (None: nothing beyond the sources)."""
        ...


class ModelToolResult:
    """A tool result over a pydantic result model that renders itself and lists its citations
    as ``(path, start, end)`` tuples (the AST and symbol tools' results)."""

    def __init__(self, result: Any) -> None:
        self.result = result

    def render(self) -> str:
        return str(self.result.render())

    def render_long(self) -> str:
        """The answer with every signature (a listing is one line per class or function
        otherwise)."""
        return str(self.result.render(long=True))

    def context(self) -> str:
        return str(self.result.context())

    def citations(self) -> list[Source]:
        return [Source(path=p, start_line=s, end_line=e) for p, s, e in self.result.citations()]

    def to_json(self) -> dict[str, Any]:
        return dict(self.result.model_dump(mode="json"))

    def names(self) -> list[str]:
        """The exact names the answer gives (what eval scores)."""
        return list(self.result.names())


class Tool(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str:
        """Markdown for the router prompt: when to use the tool, what it answers."""
        ...

    @property
    def args_model(self) -> type[BaseModel]:
        """Its arguments; every field optional (the router fills what it can)."""
        ...

    @property
    def fallback(self) -> str | None:
        """The tool that answers when this one fails (None: none; ``DEFAULT_FALLBACK``: the
        registry's default tool)."""
        ...

    @property
    def label(self) -> str:
        """What the tool is, in a few words (the web page shows it with the route)."""
        ...

    @property
    def announce(self) -> str | None:
        """The line said when this tool answers, e.g. ``searching the repository`` (None:
        nothing is said: the answer shows what the tool did)."""
        ...

    @property
    def examples(self) -> tuple[RouteExample, ...]:
        """Questions this tool answers, with its arguments: the router prompt's examples."""
        ...

    def mcp_tools(self) -> tuple[McpTool, ...]:
        """The tools MCP lists for it (none: MCP's ``ask`` still routes to it)."""
        ...

    @property
    def uses_index(self) -> bool:
        """It reads the repository's index (False: it reads files as they are, e.g. one
        file's syntax tree; eval then needs no index for it)."""
        ...

    @property
    def structural(self) -> bool:
        """It answers structural questions only: the router sends it a text only when
        :func:`codeagent.tools.structural.not_a_question` finds it shaped like one."""
        ...

    def match(self, question: str, ctx: ToolContext) -> BaseModel | Declined | None:
        """The rule router's question: the args when the rules say this tool, else None
        (or :class:`Declined` with why not)."""
        ...

    def check(self, args: BaseModel, ctx: ToolContext) -> BaseModel:
        """``args`` normalised against the repository; raises ToolFailure when unusable."""
        ...

    def describe(self, args: BaseModel) -> str:
        """A short phrase for the route's reason, e.g. ``classes of shop/models.py``."""
        ...

    def run(self, args: BaseModel, ctx: ToolContext) -> ToolResult: ...


class BaseTool:
    """Defaults for the optional parts of :class:`Tool`: no rules, no checks, fall back to
    search. A tool subclasses it and sets ``name``, ``description``, ``args_model``."""

    name: str
    description: str
    args_model: type[BaseModel]
    fallback: str | None = DEFAULT_FALLBACK
    structural: bool = False
    announce: str | None = None
    examples: tuple[RouteExample, ...] = ()
    mcp: bool = False  # MCP lists it as a tool of its own (see :meth:`mcp_tools`)
    uses_index: bool = True

    @property
    def label(self) -> str:
        return self.name

    def match(self, question: str, ctx: ToolContext) -> BaseModel | Declined | None:
        return None

    def check(self, args: BaseModel, ctx: ToolContext) -> BaseModel:
        return args

    def describe(self, args: BaseModel) -> str:
        return self.name

    def mcp_tools(self) -> tuple[McpTool, ...]:
        """With ``mcp`` set: one MCP tool named as the tool, with its arguments, answering with
        its rendered result."""
        if not self.mcp:
            return ()
        answer = lambda args, ctx: rendered(self, args, ctx)  # noqa: E731
        return (McpTool(self.name, self.description, self.args_model, answer),)

    def run(self, args: BaseModel, ctx: ToolContext) -> ToolResult:
        raise NotImplementedError
