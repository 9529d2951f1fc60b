"""`codeagent serve`, `codeagent stop` and `codeagent mcp`: the warm server and its MCP tools.

Module-level imports stay light (click, the standard library): the server, uvicorn and the
agent are imported inside the commands.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from codeagent.cli.common import (
    dense_option,
    embed_option,
    llm_option,
    number_option,
    path_option,
)
from codeagent.errors import CodeAgentError

if TYPE_CHECKING:
    from codeagent.server.address import ServerAddress

START_TIMEOUT = 120.0  # seconds `serve --background` waits for the server to come up
STOP_TIMEOUT = 15.0
LOG_NAME = "server.log"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@number_option(
    "--port",
    values=click.IntRange(0, 65535),
    default=8765,
    help="Port (0: any free port; the address file records it).",
)
@click.option(
    "--repo",
    "repos",
    multiple=True,
    metavar="PATH",
    help="A repository to serve (repeatable; default: the current directory).",
)
@path_option(
    "--repos",
    "repos_file",
    kind="file",
    help="A file of repositories to serve: a path or a git URL a line (# comments). URLs are"
    " cloned under CODEAGENT_HOME/repos and fetched again every --fetch-every seconds.",
)
@click.option(
    "--max-memory",
    metavar="SIZE",
    help="Memory budget of the open indexes (e.g. 2G, 500M): indexes open at their"
    " repository's first question, the least recently used close past it. Default with"
    " --repos: no limit.",
)
@number_option(
    "--fetch-every",
    values=click.FloatRange(0, 7 * 86400),
    default=300.0,
    help="Seconds between fetches of the git URLs of --repos (0: never).",
)
@path_option(
    "--token-file",
    kind="file",
    help="Bearer token file (default: CODEAGENT_HOME/server.token, created 0600).",
)
@number_option(
    "--max-concurrent", values=click.IntRange(1, 64), default=3, help="Answers computed at once."
)
@number_option(
    "--max-queue",
    values=click.IntRange(0, 1000),
    default=6,
    help="Questions waiting for a slot; beyond it: 429 with Retry-After.",
)
@number_option(
    "--idle-timeout",
    values=click.FloatRange(0.1, 3600),
    default=30.0,
    help="Seconds a stream may go without an event.",
)
@click.option(
    "--cors-origin",
    "cors_origins",
    multiple=True,
    metavar="ORIGIN",
    help="Allow browser calls from ORIGIN, with CORS headers (repeatable; default: none).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME[:PORT]",
    help="Also answer requests whose Host is NAME (a reverse proxy's name; repeatable)."
    " Default: 127.0.0.1, localhost, [::1] and the --host address.",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    metavar="ORIGIN",
    help="Also accept requests whose Origin is ORIGIN, e.g. https://code.example.com"
    " (repeatable). Default: only the server's own.",
)
@click.option(
    "--require-token",
    is_flag=True,
    help="Require the bearer token from loopback clients too (the start line prints the"
    " page's URL with it).",
)
@click.option("--no-mcp", is_flag=True, help="Do not mount the MCP server at /mcp.")
@click.option(
    "--no-watch",
    is_flag=True,
    help="Do not watch the repositories for changes (each question still checks its"
    " repository and updates the index when it changed).",
)
@number_option(
    "--exit-after-idle",
    values=click.FloatRange(0, 7 * 86400),
    default=0.0,
    help="Exit after this many seconds without a request (0: never).",
)
@click.option("--background", is_flag=True, help="Start detached; `codeagent stop` ends it.")
@llm_option
@embed_option
@dense_option
def serve_command(
    host: str,
    port: int,
    repos: tuple[str, ...],
    repos_file: Path | None,
    max_memory: str | None,
    fetch_every: float,
    token_file: Path | None,
    max_concurrent: int,
    max_queue: int,
    idle_timeout: float,
    cors_origins: tuple[str, ...],
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
    require_token: bool,
    no_mcp: bool,
    no_watch: bool,
    exit_after_idle: float,
    background: bool,
    llm: str | None,
    embed: str | None,
    dense: str | None,
) -> None:
    """Serve repositories over HTTP (JSON / SSE / NDJSON), MCP (/mcp) and a web page (/).

    Only the repositories given here can be asked about. Clients other than loopback need
    the bearer token (CODEAGENT_HOME/server.token); with --require-token, every client does.
    Requests are refused whose Host is not one of the server's names (DNS rebinding), whose
    Origin is another site's, or whose POST body is not application/json. `codeagent ask`
    uses a running server by itself. File-system events keep each repository's index
    current between questions (--no-watch: only each question's check does). With --repos
    or --max-memory, indexes open at first use and are built one at a time in the
    background, nothing is watched (each question checks its repository), and a question
    that names no repository searches them all.

    \b
    Examples:
      codeagent serve --repo ~/src/project
      codeagent serve --repo ~/src/a --repo ~/src/b --background
      codeagent serve --repos repos.txt --max-memory 2G
    """
    from codeagent.config import Settings

    settings = Settings.load(llm=llm, embed=embed, dense=dense)
    if background:
        from codeagent.server.auth import is_loopback

        token_needed = require_token or not (host == "localhost" or is_loopback(host))
        _start_background(settings.home, with_token=token_needed)
        return
    from codeagent.server.memory import parse_size
    from codeagent.server.run import ServeOptions, serve

    try:
        budget = parse_size(max_memory) if max_memory is not None else None
    except ValueError as exc:
        raise CodeAgentError(f"--max-memory: {exc}") from None
    options = ServeOptions(
        host=host,
        port=port,
        repos=list(repos) or ([] if repos_file is not None else ["."]),
        repos_file=repos_file,
        max_memory=budget,
        fetch_every=fetch_every,
        token_file=token_file,
        max_concurrent=max_concurrent,
        max_queue=max_queue,
        idle_timeout=idle_timeout,
        cors_origins=list(cors_origins),
        allowed_hosts=list(allowed_hosts),
        allowed_origins=list(allowed_origins),
        require_token=require_token,
        mcp=not no_mcp,
        watch=not no_watch,
        exit_after_idle=exit_after_idle,
    )
    serve(options, settings)


def _start_background(home: Path, *, with_token: bool = False) -> None:
    """Re-run this command line without --background, detached; wait for its address file.
    ``with_token``: the page needs the token (--require-token, or beyond loopback), so the
    address printed carries it, as the server's own start line does."""
    from codeagent.server.address import read_address

    args = [a for a in sys.argv[1:] if a != "--background"]
    home.mkdir(parents=True, exist_ok=True)
    log_path = home / LOG_NAME
    # The log holds the start line, which may carry the token: readable by this user only.
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.chmod(log_path, 0o600)
    with os.fdopen(fd, "ab") as log:
        child = subprocess.Popen(
            [sys.executable, "-m", "codeagent", *args],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        address = read_address(home)
        if address is not None and address.pid == child.pid:
            url = address.url
            if with_token and address.token_file:
                from codeagent.server.auth import read_token
                from codeagent.server.run import page_url

                url = page_url(address, read_token(Path(address.token_file)))
            click.echo(f"server started: {url} (pid {child.pid}, log {log_path})")
            return
        if child.poll() is not None:
            tail = log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            raise CodeAgentError(f"the server did not start: {tail[-1] if tail else 'no output'}")
        time.sleep(0.1)
    raise CodeAgentError(f"the server did not start within {START_TIMEOUT:.0f} s (see {log_path})")


@click.command("stop")
def stop_command() -> None:
    """Stop the server `codeagent serve` started (the one recorded in CODEAGENT_HOME)."""
    from codeagent.paths import default_home
    from codeagent.server.address import (
        address_file,
        forget_starting,
        pid_alive,
        read_address,
        starting_pid,
    )

    home = default_home()
    address = read_address(home)
    if address is None:
        starting = starting_pid(home, START_TIMEOUT)  # `codeagent ask` just started one
        if starting is not None:
            click.echo(f"waiting for the server that is starting (pid {starting})", err=True)
            address = _started(home, starting)
    if address is None:
        address_file(home).unlink(missing_ok=True)  # stale: its process is gone
        raise CodeAgentError("no server is running")
    os.kill(address.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    # until the process ends: after removing its address file it still closes socket and lock
    while pid_alive(address.pid):
        if time.monotonic() > deadline:
            raise CodeAgentError(
                f"server pid {address.pid} did not stop within {STOP_TIMEOUT:.0f} s"
            )
        time.sleep(0.05)
    forget_starting(home)
    click.echo(f"stopped the server (pid {address.pid})")


def _started(home: Path, pid: int) -> ServerAddress | None:
    """The address of the server ``pid`` once it writes it; None if it exits first."""
    from codeagent.server.address import pid_alive, read_address

    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and pid_alive(pid):
        address = read_address(home)
        if address is not None and address.pid == pid:
            return address
        time.sleep(0.05)
    return None
