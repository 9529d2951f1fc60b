"""The MCP server of the official ``mcp`` SDK: Streamable HTTP at ``/mcp`` of ``codeagent serve``
(``codeagent mcp`` serves the same tools over stdio without the SDK: ``server/mcp_stdio.py``;
both read them from ``server/mcp_tools.py``).

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

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import TYPE_CHECKING, Any

import anyio

from codeagent import __version__
from codeagent.errors import CodeAgentError, one_line
from codeagent.server.backend import RepoBackend
from codeagent.server.limits import BUSY_MESSAGE, RETRY_AFTER_SECONDS, Admission, Busy
from codeagent.server.mcp_tools import CallRefused, McpEntry, Served, instructions, mcp_entries

if TYPE_CHECKING:
    from codeagent.tools.registry import Registry


def _sdk_tool(
    entry: McpEntry, served: Served, admission: Admission | None
) -> Callable[..., Awaitable[str]]:
    """The SDK's tool function of ``entry``: its signature, the work in a worker thread
    holding a slot, a refusal as the SDK's ``ToolError`` (the client sees an error result)."""
    from mcp.server.mcpserver.exceptions import ToolError

    busy = f"{BUSY_MESSAGE}: try again in {RETRY_AFTER_SECONDS} s"

    async def run(**values: Any) -> str:
        try:
            job = entry.plan(served, values)
            if entry.light:
                return job()
            slot = admission.slot() if admission is not None else nullcontext()
            async with slot:
                # A cancelled call still waits for its thread: the slot is held until the
                # work has stopped.
                return await anyio.to_thread.run_sync(job)
        except Busy:
            raise ToolError(busy) from None
        except CodeAgentError as exc:  # CallRefused, RequestError, a tool that cannot answer
            raise ToolError(str(exc) if isinstance(exc, CallRefused) else one_line(exc)) from None

    run.__signature__ = entry.signature  # type: ignore[attr-defined]
    run.__name__ = entry.name
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
    on concurrent work, shared (``None``: no cap)."""
    from mcp.server.mcpserver import MCPServer

    entries = mcp_entries(registry)
    server = MCPServer("codeagent", instructions=instructions(entries), version=__version__)
    served = Served(backends, max_question_chars)
    served.everywhere()  # the agent is imported before the first question comes
    for entry in entries:
        tool = _sdk_tool(entry, served, admission)
        server.add_tool(tool, name=entry.name, description=entry.description)
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
