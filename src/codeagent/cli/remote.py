"""`codeagent ask` through a running server: the same output as in-process, nothing heavy loaded.

Used when the server recorded in CODEAGENT_HOME is alive, serves the repository asked about,
and runs with the settings the flags ask for; otherwise the caller answers in-process.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from codeagent.cli.common import print_json
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
        llm = bool(settings.get("llm_found"))
        asked = flags.get("llm") or settings.get("llm", "")  # an explicit --llm none: no word
        auto_without = str(asked).strip() == "auto" and not llm
        from codeagent.cli.render import NO_LLM_AUTO, AnswerPrinter

        printer = AnswerPrinter(llm=llm, quiet_notice=NO_LLM_AUTO if auto_without else None)
        printer.start(question)
        events = client.ask_events(repo_id, question, flags.get("k"))
        print_events(events, printer, as_json=as_json)
        return True
    except NoServer as exc:
        _info("the server at %s did not answer (%s): answering here", client.address.url, exc)
        return False
    finally:
        client.close()


def print_events(events: Any, printer: Any, *, as_json: bool) -> None:
    """Print a server's answer events through the printer an in-process answer uses (the
    events' JSON read as the events themselves: the same fields, so the same output)."""
    for data in events:
        kind = data.get("type")
        if kind == "error":
            raise CodeAgentError(data["message"])
        if kind == "result" and as_json:
            printer.flush_route()
            print_json(data["result"])
            printer.finish_quietly()
            return
        if kind == "token" and as_json:
            continue
        if printer.event(_event(data)) is not None:
            return
    raise CodeAgentError("the server closed the answer without a result")


def _event(data: dict[str, Any]) -> SimpleNamespace:
    """An event's JSON with attribute access (a result's sources too), as the printer reads."""
    event = SimpleNamespace(**{"line": None, "text": "", "terms": [], **data})
    if "result" in data:
        sources = [SimpleNamespace(**s) for s in data["result"].get("sources", [])]
        event.result = SimpleNamespace(**{**data["result"], "sources": sources})
    return event
