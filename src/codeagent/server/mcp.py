"""The MCP server (official ``mcp`` SDK): the same tools over stdio (``codeagent mcp``) and over
Streamable HTTP at ``/mcp`` of ``codeagent serve``.

The tools besides ``list_repositories`` and ``ask`` come from the tool registry: each
registered tool declares what MCP lists for it (:class:`~codeagent.tools.base.McpTool`: its
name, arguments and answer as text), and :data:`~codeagent.tools.registry.MCP_TOOLS` adds
those no routed tool stands behind. Every tool takes an optional ``repo``: the id of a served
repository (``list_repositories`` names them); it may be left out when only one is served.
``ask``, and a tool that declares an answer over every repository, search every served
repository without it and name the repository of each source (:mod:`codeagent.server.everywhere`).

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
from pydantic import Field, ValidationError

from codeagent import __version__
from codeagent.errors import CodeAgentError, one_line
from codeagent.server import tools
from codeagent.server.backend import RepoBackend
from codeagent.server.everywhere import AllRepos
from codeagent.server.limits import BUSY_MESSAGE, RETRY_AFTER_SECONDS, Admission, Busy, check_length
from codeagent.server.repos import RequestError, pick

if TYPE_CHECKING:
    from codeagent.tools.base import McpTool
    from codeagent.tools.registry import Registry

INSTRUCTIONS = (
    "Answers questions about the source code of the repositories listed by list_repositories. "
    "Use ask for an explained answer with cited lines; each other tool says what it finds: {}."
)

RepoArg = Annotated[
    str | None,
    Field(
        description="Repository id from list_repositories; omit when only one is served"
        " (ask and the searches: omitted, every served repository is searched)."
    ),
]
# call(repo, work on one repository, (what, text) held to the size cap, work on every one)
Call = Callable[..., Awaitable[str]]


def _generated(spec: McpTool, call: Call) -> Callable[..., Awaitable[str]]:
    """The MCP tool function of ``spec``: its arguments (from its args model) and ``repo``."""

    async def run(**values: Any) -> str:
        from mcp.server.mcpserver.exceptions import ToolError

        repo = values.pop("repo", None)
        try:
            args = spec.args_model.model_validate(
                {k: v for k, v in values.items() if v is not None}
            )
        except ValidationError as exc:
            raise ToolError(f"{spec.name}: {one_line(exc)}") from None
        checked = None
        if spec.checked is not None:
            value = getattr(args, spec.checked)
            text = "\n".join(value) if isinstance(value, list) else str(value or "")
            checked = (spec.checked, text)
        everywhere = spec.everywhere
        across = None
        if everywhere is not None:
            across = lambda all_: everywhere(args, tools.searcher(all_))  # noqa: E731
        return await call(repo, lambda b: tools.answer(b, spec, args), checked, across)

    params = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if info.is_required() else info.default,
            annotation=Annotated[
                (info.annotation, *info.metadata, Field(description=info.description or name))
            ],
        )
        for name, info in spec.args_model.model_fields.items()
    ]
    params.append(
        inspect.Parameter("repo", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=RepoArg)
    )
    run.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    run.__name__ = spec.name
    return run


def build_mcp(
    backends: dict[str, RepoBackend],
    *,
    registry: Registry | None = None,
    admission: Admission | None = None,
    max_question_chars: int = 4000,
) -> Any:
    """The MCP server over ``backends``, with the tools of ``registry`` (the default one when
    none is given, as the served workspaces answer with); ``admission``: the HTTP server's cap
    on concurrent work, shared (``None``: no cap, as over stdio, where one client calls at a
    time)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from codeagent.tools.registry import default_registry

    specs = (registry if registry is not None else default_registry()).mcp_tools()
    instructions = INSTRUCTIONS.format(", ".join(spec.name for spec in specs))
    server = MCPServer("codeagent", instructions=instructions, version=__version__)
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

    for spec in specs:  # each registered tool's own, as it declares them
        server.add_tool(_generated(spec, call), name=spec.name, description=spec.description)

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
