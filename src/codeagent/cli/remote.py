"""`codeagent ask` through a running server: the same output as in-process, nothing heavy loaded.

Used when the server recorded in CODEAGENT_HOME is alive, serves the repository asked about,
and runs with the settings the flags ask for; otherwise the caller answers in-process.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import click

from codeagent.cli.common import end_line, notice, print_json, write_out
from codeagent.errors import CodeAgentError

log = logging.getLogger(__name__)


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
            log.info(
                "the server at %s does not serve %s with these settings", client.address.url, root
            )
            return False
        _print_events(client.ask_events(repo_id, question), as_json=as_json)
        return True
    except NoServer as exc:
        log.info("server at %s not answering (%s): answering here", client.address.url, exc)
        return False
    finally:
        client.close()


def _print_events(events: Any, *, as_json: bool) -> None:
    from codeagent.cli.ask import format_source_dicts

    for event in events:
        kind = event.get("type")
        if kind == "token" and not as_json:
            write_out(event["text"])
        elif kind == "notice":
            notice(event["text"])
        elif kind == "error":
            raise CodeAgentError(event["message"])
        elif kind == "result":
            result = event["result"]
            if as_json:
                print_json(result)
            else:
                end_line()
                for line in format_source_dicts(result.get("sources", [])):
                    click.echo(line)
            return
    raise CodeAgentError("the server closed the answer without a result")
