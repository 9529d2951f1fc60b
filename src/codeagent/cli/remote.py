"""`codeagent ask` through a running server: the same output as in-process, nothing heavy loaded.

Used when the server recorded in CODEAGENT_HOME is alive, serves the repository asked about,
and runs with the settings the flags ask for; otherwise the caller answers in-process.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

from codeagent.cli.common import end_line, notice, print_json, write_out
from codeagent.errors import CodeAgentError


def _info(message: str, *args: Any) -> None:
    """An info log line (seen with -v; logging is imported only when there is one to say)."""
    import logging

    logging.getLogger(__name__).info(message, *args)


def ask_server(question: str, repo: str, flags: dict[str, Any], *, as_json: bool) -> bool:
    """Answer through the server and return True; False when no server can answer this."""
    from codeagent.paths import default_home
    from codeagent.server.client import NoServer, connect, served_repo_id

    root = Path(repo).expanduser()
    if not root.is_dir():  # a URL, or a mistake the in-process path reports
        return False
    root = root.resolve()
    try:
        client = connect(default_home())
    except NoServer:
        return False
    try:
        repo_id = served_repo_id(client, root, flags)
        if repo_id is None:
            _info(
                "the server at %s does not serve %s with these settings", client.address.url, root
            )
            return False
        settings = client.get("/v1/repos").get("settings", {})
        no_llm = str(settings.get("llm", "")).strip() == "auto" and not settings.get("llm_found")
        _print_events(client.ask_events(repo_id, question, flags.get("k")), as_json=as_json)
        if no_llm:
            from codeagent.cli.render import NO_LLM_AUTO

            notice(NO_LLM_AUTO)  # after the answer, once, as an answer in-process says it
        return True
    except NoServer as exc:
        _info("the server at %s did not answer (%s): answering here", client.address.url, exc)
        return False
    finally:
        client.close()


def _print_events(events: Any, *, as_json: bool) -> None:
    """Print a server's answer events as an in-process answer prints (through the same
    :mod:`codeagent.cli.render` functions, so repository text is made safe the same way)."""
    from codeagent.cli.render import route_line, safe_text, source_lines

    route_said: str | None = None  # said when the answer goes on; an error stands alone
    for event in events:
        kind = event.get("type")
        if kind == "route":
            route = event.get("route") or {}
            route_said = route_line(SimpleNamespace(**route), event.get("fallback"))
            continue
        if route_said and kind != "error":
            notice(route_said)
        route_said = None
        if kind == "token" and not as_json:
            write_out(safe_text(event["text"]))
        elif kind == "notice":
            notice(safe_text(event["text"]))
        elif kind == "error":
            raise CodeAgentError(event["message"])
        elif kind == "result":
            result = event["result"]
            if as_json:
                print_json(result)
            else:
                end_line()
                answer = result.get("answer", "")
                sources = [SimpleNamespace(**s) for s in result.get("sources", [])]
                # Without an LLM the answer lists its sources itself: only a list the answer
                # did not already give is printed under it.
                listed = all(f"{s.path}:{s.start_line}" in answer for s in sources)
                for line in source_lines(SimpleNamespace(sources=sources), llm=not listed):
                    click.echo(line)
            return
    raise CodeAgentError("the server closed the answer without a result")
