"""``codeagent mcp``: the MCP server over stdio, for an editor or a coding agent (the same
tools ``codeagent serve`` mounts at ``/mcp``)."""

from __future__ import annotations

import click

from codeagent.cli.common import embed_option, llm_option


@click.command("mcp")
@click.option(
    "--repo",
    "repos",
    multiple=True,
    metavar="PATH",
    help="A repository the tools answer about (repeatable; default: the current directory).",
)
@llm_option
@embed_option
def mcp_command(repos: tuple[str, ...], llm: str | None, embed: str | None) -> None:
    """Run the MCP server over stdio (for an editor or a coding agent).

    The index is built (or loaded) from the start; until a first dense index is ready,
    questions are answered from keyword search, the symbol graph and the vectors already
    cached, with a notice, as `codeagent serve` does.

    \b
    Example client configuration:
      {"command": "codeagent", "args": ["mcp", "--repo", "/path/to/project"]}
    """
    from codeagent.config import Settings
    from codeagent.server.mcp_stdio import serve_stdio

    settings = Settings.load(llm=llm, embed=embed)

    def served() -> object:
        """The repositories, their index building (loaded while the client is greeted)."""
        from codeagent.server.mcp_tools import Served
        from codeagent.server.run import make_backends

        backends = make_backends(list(repos) or ["."], settings)
        for backend in backends.values():
            backend.start_background_index()
        return Served(backends, settings.max_question_chars)

    serve_stdio(served)  # type: ignore[arg-type]
