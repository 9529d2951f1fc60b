"""Start the server in this process: settings, backends, token, socket, uvicorn, address file."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from codeagent.config import Settings
from codeagent.errors import ConfigError
from codeagent.server.address import ServerAddress, read_address, remove_address, write_address
from codeagent.server.auth import default_token_file, is_loopback, load_or_create_token
from codeagent.server.backend import RepoBackend
from codeagent.server.fetching import DEFAULT_FETCH_EVERY
from codeagent.server.guard import make_policy
from codeagent.server.many import Many
from codeagent.server.pool import IndexPool
from codeagent.server.repolist import RepoEntry
from codeagent.server.repos import make_ids, serve_roots

log = logging.getLogger(__name__)


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8765
    repos: list[str] = field(default_factory=lambda: ["."])
    token_file: Path | None = None
    max_concurrent: int = 3
    max_queue: int = 6
    idle_timeout: float = 30.0
    cors_origins: list[str] = field(default_factory=list)
    allowed_hosts: list[str] = field(default_factory=list)
    allowed_origins: list[str] = field(default_factory=list)
    require_token: bool = False
    mcp: bool = True
    watch: bool = True  # file-system events start index updates (besides each question's check)
    repos_file: Path | None = None  # `--repos FILE`: paths and git URLs, one a line
    max_memory: int | None = None  # bytes of open indexes; past it the least recently used close
    fetch_every: float = DEFAULT_FETCH_EVERY  # seconds between fetches of the URL repositories
    exit_after_idle: float = 0.0  # seconds without a request after which it exits; 0: never

    @property
    def lazy(self) -> bool:
        """Indexes open at a repository's first question (and close past the budget), built
        one at a time in the background, not all at once at the start; no file watching."""
        return self.repos_file is not None or self.max_memory is not None


def make_backends(
    specs: list[str],
    settings: Settings,
    entries: list[RepoEntry] | None = None,
    pool: IndexPool | None = None,
) -> dict[str, RepoBackend]:
    """One backend per served repository (the ``--repo`` paths, then ``entries`` from a
    repositories file), sharing one chat model and, with many repositories, one pool."""
    from codeagent.llm import resolve_chat_model

    model, reason = resolve_chat_model(settings.llm, settings)
    if model is None and settings.llm.strip() not in ("none", "auto"):
        log.warning("answers without an LLM: %s", reason)
    given = [*(RepoEntry(root) for root in serve_roots(specs)), *(entries or [])]
    first: dict[Path, RepoEntry] = {}
    for entry in given:
        first.setdefault(entry.root, entry)  # a root given twice is served once
    entries = list(first.values())
    names = [e.name for e in entries]
    served = make_ids([e.root for e in entries], names, [e.url for e in entries])
    return {repo.id: RepoBackend(repo, settings, model, pool) for repo in served}


def advertised_settings(settings: Settings, backends: dict[str, RepoBackend]) -> dict[str, Any]:
    """What ``GET /v1/repos`` says of the settings, for a client to match its flags against:
    ``llm`` / ``embed`` / ``k`` as given, ``effective`` what ``llm`` and ``embed`` resolved to
    (``auto`` -> ``none``, ``local``, ``ollama:MODEL``), and ``llm_found`` (with auto, a client
    says when no model was found)."""
    from codeagent.embed.embedders import plan_embedder
    from codeagent.store.dense import named

    found = any(b.workspace.chat_model is not None for b in backends.values())
    llm = settings.llm.strip()
    if not found:
        effective_llm = "none"
    elif llm == "auto":
        effective_llm = f"ollama:{settings.ollama_chat_model}"
    else:
        effective_llm = llm
    embed = plan_embedder(settings.embed, settings).resolves_to or settings.embed.strip()
    return {
        "llm": settings.llm,
        "embed": settings.embed,
        "dense": named(settings.dense),
        "k": settings.k,
        "llm_found": found,
        "effective": {"llm": effective_llm, "embed": embed},
    }


def token_needed(options: ServeOptions) -> bool:
    """Whether the page's user needs the token: required everywhere, or the server listens
    beyond loopback (where a browser on another machine needs it)."""
    return options.require_token or not (options.host == "localhost" or is_loopback(options.host))


def page_url(address: ServerAddress, token: str | None) -> str:
    """The web page's address; with ``?token=`` for the page to keep and send (it removes it
    from the address bar), as Jupyter prints its own."""
    host = address.connect_host
    url = f"http://{f'[{host}]' if ':' in host else host}:{address.port}/"
    return f"{url}?token={quote(token, safe='')}" if token else url


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    return sock


def serve(options: ServeOptions, settings: Settings, announce: bool = True) -> None:
    """Serve until interrupted (SIGINT / SIGTERM); the address file lives exactly as long."""
    import click
    import uvicorn

    from codeagent.server.app import ServerConfig, create_app

    running = read_address(settings.home)
    if running is not None and running.pid != os.getpid():
        raise ConfigError(
            f"a server is already running (pid {running.pid}, {running.url}):"
            " `codeagent stop` first"
        )
    from codeagent.server.idle import Activity, hold_home_lock, stop_when_idle

    home_lock = hold_home_lock(settings.home)  # one server per home, held until exit
    origins = [*options.allowed_origins, *options.cors_origins]
    make_policy(options.host, options.allowed_hosts, origins)  # a bad value: one error line
    token_file = options.token_file or default_token_file(settings.home)
    settings.home.mkdir(parents=True, exist_ok=True)
    token = load_or_create_token(token_file)
    many = Many.make(options.repos_file, options.max_memory, options.fetch_every, settings)
    backends = make_backends(options.repos, settings, many.entries, many.pool)
    sock = bind(options.host, options.port)
    address = ServerAddress(
        os.getpid(), options.host, sock.getsockname()[1], str(token_file.resolve())
    )
    address.exit_after_idle = options.exit_after_idle or None
    stopping: list[Callable[[], None]] = []  # set once uvicorn's server exists

    from codeagent.index.follow import Watching

    watched = backends.values() if options.watch and not options.lazy else []
    watching = Watching([b.keeper for b in watched], ignore=settings.own_dirs)

    @asynccontextmanager
    async def published() -> AsyncIterator[None]:
        many.start(backends)
        if not options.lazy:
            for backend in backends.values():
                backend.start_background_index()
        watching.start()
        if announce:  # before the address file: whoever sees that finds this line written
            names = ", ".join(backends)
            url = page_url(address, token if token_needed(options) else None)
            click.echo(f"serving {names} on {url} (token file {token_file})", err=True)
        write_address(settings.home, address)
        idle = None
        if options.exit_after_idle > 0:
            idle = asyncio.create_task(
                stop_when_idle(activity, options.exit_after_idle, stopping[0])
            )
        try:
            yield
        finally:
            if idle is not None:
                idle.cancel()
            watching.stop()
            many.stop()
            remove_address(settings.home, address.pid)

    lifespans: list[Callable[[], AbstractAsyncContextManager[Any]]] = [published]
    config = ServerConfig(
        backends=backends,
        token=token,
        max_concurrent=options.max_concurrent,
        max_queue=options.max_queue,
        idle_timeout=options.idle_timeout,
        max_question_chars=settings.max_question_chars,
        cors_origins=options.cors_origins,
        allowed_hosts=options.allowed_hosts,
        allowed_origins=options.allowed_origins,
        require_token=options.require_token,
        settings=advertised_settings(settings, backends),
        mcp=options.mcp,
        host=options.host,
        describe=many.describe,
    )
    activity = Activity(create_app(config, lifespans=lifespans))
    uv_config = uvicorn.Config(
        activity,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=5,
        # A reverse proxy on this machine must say who the client is (X-Forwarded-For), or
        # every request through it would count as loopback and skip the token.
        proxy_headers=True,
        forwarded_allow_ips="127.0.0.1,::1",
    )
    server = uvicorn.Server(uv_config)
    stopping.append(lambda: setattr(server, "should_exit", True))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        remove_address(settings.home, address.pid)
        os.close(home_lock)
