"""The MCP server (official ``mcp`` SDK): the same tools over stdio (``codeagent mcp``) and over
Streamable HTTP at ``/mcp`` of ``codeagent serve``.

Every tool takes an optional ``repo``: the id of a served repository (``list_repositories``
names them); it may be left out when only one is served. ``ask`` and ``search_code`` without
it search every served repository and name the repository of each source
(:mod:`codeagent.server.everywhere`).

Mounted on ``codeagent serve``, every tool that works on a repository takes a slot of the
server's :class:`~codeagent.server.limits.Admission`, as ``POST /v1/ask`` does: past the
queue the call is refused at once with a tool error (what HTTP says with ``429``). A
question or query longer than ``max_question_chars`` is a tool error too, before any
sanitizing, as HTTP's ``413``.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from pydantic import Field

from codeagent import __version__
from codeagent.errors import CodeAgentError, one_line
from codeagent.repomap import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from codeagent.server import tools
from codeagent.server.backend import RepoBackend
from codeagent.server.everywhere import AllRepos
from codeagent.server.limits import BUSY_MESSAGE, RETRY_AFTER_SECONDS, Admission, Busy, check_length
from codeagent.server.repos import RequestError, pick

if TYPE_CHECKING:
    from codeagent.tools.base import Tool
    from codeagent.tools.registry import Registry

INSTRUCTIONS = (
    "Answers questions about the source code of the repositories listed by list_repositories. "
    "Use find_definition / find_references / file_structure for exact structural facts, "
    "search_code to locate code by topic, and ask for an explained answer with cited lines."
)

RepoArg = Annotated[
    str | None,
    Field(
        description="Repository id from list_repositories; omit when only one is served"
        " (ask and search_code: omitted, every served repository is searched)."
    ),
]


def _registry(backends: dict[str, RepoBackend]) -> Registry:
    """The registry the served workspaces answer with (the default one when none is served)."""
    for backend in backends.values():
        workspace = getattr(backend, "workspace", None)  # a test's scripted backend has none
        if workspace is not None:
            registry: Registry = workspace.registry
            return registry
    from codeagent.tools.registry import default_registry

    return default_registry()


def _registered_tool(
    tool: Tool, call: Callable[..., Awaitable[str]]
) -> Callable[..., Awaitable[str]]:
    """An MCP tool function for ``tool``: its arguments (from its args model) and ``repo``."""

    async def run(**values: Any) -> str:
        repo = values.pop("repo", None)
        return await call(repo, lambda b: tools.run_tool(b, tool, values))

    params = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=None if info.is_required() else info.default,
            annotation=Annotated[info.annotation, Field(description=info.description or name)],
        )
        for name, info in tool.args_model.model_fields.items()
    ]
    params.append(
        inspect.Parameter("repo", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=RepoArg)
    )
    run.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    run.__name__ = tool.name
    return run


def build_mcp(
    backends: dict[str, RepoBackend],
    *,
    admission: Admission | None = None,
    max_question_chars: int = 4000,
) -> Any:
    """The MCP server over ``backends``; ``admission``: the HTTP server's cap on concurrent
    work, shared (``None``: no cap, as over stdio, where one client calls at a time)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("codeagent", instructions=INSTRUCTIONS, version=__version__)
    served = {k: b.repo for k, b in backends.items()}
    busy = f"{BUSY_MESSAGE}: try again in {RETRY_AFTER_SECONDS} s"

    everywhere = AllRepos(backends)

    async def call(
        repo: str | None,
        work: Callable[[RepoBackend], str],
        text: tuple[str, str] | None = None,
        across: Callable[[AllRepos], str] | None = None,
    ) -> str:
        """Run ``work`` on the named repository in a worker thread, holding a slot;
        ``text``: (what, the question or query) to check against the size cap first;
        ``across``: the work when no repository is named and several are served."""
        try:
            if text is not None:
                check_length(text[1], max_question_chars, text[0])
            if across is not None and not repo and len(backends) > 1:
                run: Callable[[], str] = lambda: across(everywhere)  # noqa: E731
            else:
                backend = backends[pick(served, repo).id]
                run = lambda: work(backend)  # noqa: E731
            slot = admission.slot() if admission is not None else nullcontext()
            async with slot:
                # A cancelled call still waits for its thread: the slot is held until the
                # work has stopped.
                return await anyio.to_thread.run_sync(run)
        except Busy:
            raise ToolError(busy) from None
        except (RequestError, CodeAgentError) as exc:
            raise ToolError(one_line(exc)) from None  # the client sees an error result

    @server.tool()
    async def list_repositories() -> str:
        """List the repositories this server can answer about: one `id  root` per line."""
        return "\n".join(f"{b.repo.id}  {b.repo.root}" for b in backends.values())

    @server.tool()
    async def ask(
        question: Annotated[str, Field(description="A question about the code, in plain words.")],
        repo: RepoArg = None,
    ) -> str:
        """Answer a question about a repository's code, citing `path:start-end` line ranges.

        Exact for structural questions about one Python file (e.g. "list the methods of
        Session in sessions.py"); otherwise answered from a search of the whole repository.
        """
        asked = ("question", question)
        return await call(repo, lambda b: tools.ask(b, question), asked, tools.ask_all(question))

    @server.tool()
    async def search_code(
        query: Annotated[
            str, Field(description="Words, identifiers or a description of the code.")
        ],
        repo: RepoArg = None,
        k: Annotated[int, Field(ge=1, le=50, description="How many results.")] = 8,
    ) -> str:
        """Search a repository (keyword + semantic) and return the best matching code chunks,
        each as `path:start-end  symbol` followed by its numbered lines around the line that
        best matches the query."""
        work = lambda b: tools.search_code(b, query, k)  # noqa: E731
        return await call(repo, work, ("query", query), tools.search_all(query, k))

    @server.tool()
    async def file_structure(
        path: Annotated[str, Field(description="A Python file, relative to the repository root.")],
        repo: RepoArg = None,
    ) -> str:
        """Outline one Python file: its imports, classes with methods, functions and constants,
        with line numbers, read from its syntax tree (exact)."""
        return await call(repo, lambda b: tools.file_structure(b, path))

    @server.tool()
    async def find_definition(
        name: Annotated[str, Field(description="A name: `X`, `Class.method` or `pkg.mod.X`.")],
        repo: RepoArg = None,
    ) -> str:
        """Find where a class, function or method is defined: `path:start-end  kind name`."""
        return await call(repo, lambda b: tools.find_definition(b, name))

    @server.tool()
    async def repository_map(
        focus: Annotated[
            list[str] | None,
            Field(description="Questions, files or folders to turn the map towards."),
        ] = None,
        budget: Annotated[
            int, Field(ge=MIN_BUDGET, le=MAX_BUDGET, description="At most this many tokens.")
        ] = DEFAULT_BUDGET,
        repo: RepoArg = None,
    ) -> str:
        """A map of the repository: its most important files (PageRank over imports, calls
        and inheritance, turned towards the focus), each with its most important definitions
        and their signatures, within a token budget. Tests, docs and vendored files are left
        out unless the focus names them. Read it first in an unknown repository."""
        wanted = list(focus or [])
        asked = ("focus", "\n".join(wanted))
        return await call(repo, lambda b: tools.repository_map(b, budget, wanted), asked)

    for tool in _registry(backends).mcp_tools():  # a registered tool MCP exposes: its own
        server.add_tool(_registered_tool(tool, call), name=tool.name, description=tool.description)

    @server.tool()
    async def find_references(
        name: Annotated[str, Field(description="The function, method or class name to look for.")],
        repo: RepoArg = None,
    ) -> str:
        """Find the places that use a name (calls and imports): one `path:line` per use.
        Calls tied to the definition by receiver, import or type come first (`resolved:
        true`, with the caller's qualified name and the target), then calls of the same name
        that could not be tied to a type (`resolved: false`), then the importing files."""
        return await call(repo, lambda b: tools.find_references(b, name))

    return server


def http_routes(server: Any) -> tuple[list[Any], Callable[[], AbstractAsyncContextManager[Any]]]:
    """The Streamable HTTP routes (at ``/mcp``) and the session manager to run in the lifespan.

    The SDK's own ``Host``/``Origin`` check is off: :mod:`codeagent.server.guard` checks every
    route of the server, ``/mcp`` included, with the same ``--allowed-host`` and
    ``--allowed-origin`` (the SDK's would refuse those, and allow any loopback port's origin).
    """
    from mcp.server.transport_security import TransportSecuritySettings

    off = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.streamable_http_app(streamable_http_path="/mcp", transport_security=off)
    return list(app.routes), server.session_manager.run
