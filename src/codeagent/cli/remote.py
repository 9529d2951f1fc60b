"""`codeagent ask` through a running server: the same output as in-process, nothing heavy loaded.

:func:`answer_if_served` runs first on every ``codeagent`` command line, before click or
anything else of the command is imported (:func:`codeagent.cli.main.main`). It reads the
command line itself, only its plain forms (``ask QUESTION`` or a bare question, with
``--repo``, ``--llm``, ``--embed``, ``--dense``, ``-k``, ``--json``, ``--yes``); anything
else (``--help``, ``-v``, ``--no-server``, a typo, a bad value) is left to click. When the
server recorded in CODEAGENT_HOME is alive, serves the repository asked about and runs with
the settings the flags ask for, it answers; otherwise the caller answers in-process.

This path imports the standard library (its cheap part: no ``typing``, ``pathlib``,
``dataclasses``, ``http.client``, ``logging``) and a few small modules of the project:
this one, :mod:`codeagent.server.client`, :mod:`~codeagent.server.address` and
:mod:`codeagent.wire` (the wire, which reads the server's events back as events),
:mod:`codeagent.cli.render`, :mod:`~codeagent.cli.terminal` and :mod:`codeagent.display`
(the same printer an in-process answer goes through). tests/cli/test_lean_client.py holds
it to that.
"""

from __future__ import annotations

import os
import sys

from codeagent import wire
from codeagent.errors import CodeAgentError

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

# The options read here, as `ask` and the bare command declare them (codeagent.cli.common).
VALUE_OPTIONS = {"--repo": "repo", "--llm": "llm", "--embed": "embed", "--dense": "dense"}
FLAG_OPTIONS = {"--json": "as_json", "-y": "yes", "--yes": "yes"}
K_MAX = 100  # as codeagent.cli.common.K_MAX (a test holds them equal)
# The questions a server was asked about and could not answer in this run (the command
# falls back to click, whose `ask` would otherwise ask the server the same again).
_declined: set[tuple[str, str, str]] = set()


def answer_if_served(args: list[str], commands: Iterable[str]) -> int | None:
    """Answer the command line ``args`` through the running server and return the exit
    status; None when this is not a plain question or no server can answer it here.
    ``commands``: the names of the subcommands (a bare question must name none)."""
    _declined.clear()
    asked = read_question(args, commands)
    if asked is None:
        return None
    question, options = asked
    from codeagent.display import safe_text

    flags = {name: options.get(name) for name in ("llm", "embed", "dense", "k")}
    try:
        done = ask_server(question, options["repo"], flags, as_json=bool(options.get("as_json")))
    except CodeAgentError as exc:
        sys.stderr.write(f"error: {safe_text(str(exc))}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    return 0 if done else None


def read_question(args: list[str], commands: Iterable[str]) -> tuple[str, dict[str, Any]] | None:
    """``(question, options)`` of a plain question on the command line, else None."""
    if not args:
        return None
    first, names = args[0], set(commands)
    option = first in VALUE_OPTIONS or first in FLAG_OPTIONS
    if first == "ask":
        bare, rest = False, args[1:]
    elif first in names or not (option or first[:1].isalnum()):
        return None
    elif not option and len(first) <= max(map(len, names), default=0) + 1:
        return None  # a short first word may be a mistyped command: click says which
    else:
        bare, rest = True, args
    read = _read_options(rest)
    if read is None:
        return None
    words, options = read
    question = " ".join(words)
    if not question.strip() or (not bare and len(words) != 1):
        return None
    if "repo" not in options:
        if bare and not options.get("yes") and not in_git_work_tree(os.getcwd()):
            return None  # the bare command asks first (codeagent.cli.common.confirm_folder)
        options["repo"] = "."
    return question, options


def _read_options(args: list[str]) -> tuple[list[str], dict[str, Any]] | None:
    """The words and the options (as click reads them) of ``args``; None for anything
    this module does not read (an option of click's alone, a value click would refuse)."""
    options: dict[str, Any] = {}
    words: list[str] = []
    pending = list(reversed(args))
    while pending:
        arg = pending.pop()
        name, sep, value = arg.partition("=")
        if arg == "-k" or (name in VALUE_OPTIONS and not sep):
            if not pending:
                return None
            name, value = arg, pending.pop()
        elif arg.startswith("-k"):
            name, value = "-k", arg[2:]
        if name == "-k":
            if not value.isdigit() or not 1 <= int(value) <= K_MAX:
                return None  # click says what is wrong
            options["k"] = int(value)
        elif name in VALUE_OPTIONS:
            options[VALUE_OPTIONS[name]] = value
        elif arg in FLAG_OPTIONS:
            options[FLAG_OPTIONS[arg]] = True
        elif arg.startswith("-"):
            return None  # an option read only by click (--help, --no-server, --wait, ...)
        else:
            words.append(arg)
    return words, options


def in_git_work_tree(folder: str) -> bool:
    """Whether ``folder`` or a folder above it holds ``.git`` (what ``git rev-parse`` finds,
    read without starting git)."""
    folder = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def _info(message: str, *args: Any) -> None:
    """An info log line (seen with -v; logging is imported only when there is one to say)."""
    if "logging" in sys.modules:
        import logging

        logging.getLogger(__name__).info(message, *args)


def ask_server(question: str, repo: str, flags: dict[str, Any], *, as_json: bool) -> bool:
    """Answer through the server and return True; False when no server can answer this."""
    from codeagent.paths import home_folder
    from codeagent.server.client import NoServer, connect, served_repo_id

    root = os.path.expanduser(repo)
    if not os.path.isdir(root):  # a URL, or a mistake the in-process path reports
        return False
    root = os.path.realpath(root)
    key = (str(home_folder()), root, repr(sorted(flags.items())))
    if key in _declined:
        return False
    try:
        client = connect(home_folder())
    except NoServer:
        _declined.add(key)
        return False
    _declined.add(key)  # taken back once the server answers
    try:
        listing = client.get("/v1/repos")
        repo_id = served_repo_id(client, root, flags, listing)
        if repo_id is None:
            _info(
                "the server at %s does not serve %s with these settings", client.address.url, root
            )
            return False
        settings = listing.get("settings", {})
        llm = bool(settings.get("llm_found"))
        asked = flags.get("llm") or settings.get("llm", "")  # an explicit --llm none: no word
        auto_without = str(asked).strip() == "auto" and not llm
        from codeagent.cli.render import NO_LLM_AUTO, AnswerPrinter

        printer = AnswerPrinter(llm=llm, quiet_notice=NO_LLM_AUTO if auto_without else None)
        printer.start(question)
        events = client.ask_events(repo_id, question, flags.get("k"))
        _declined.discard(key)
        print_events(events, printer, as_json=as_json)
        return True
    except NoServer as exc:
        _info("the server at %s did not answer (%s): answering here", client.address.url, exc)
        return False
    finally:
        client.close()


def print_json(data: Any) -> None:
    """As codeagent.cli.common.print_json, without click."""
    import json

    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False, default=str) + "\n")
    sys.stdout.flush()


def print_events(events: Any, printer: Any, *, as_json: bool) -> None:
    """Print a server's answer events through the printer an in-process answer uses (each
    event's JSON read back as the event by :func:`codeagent.wire.decode`: the same fields,
    so the same output)."""
    for data in events:
        try:
            event = wire.decode(data)
        except ValueError as exc:
            raise CodeAgentError(f"the server sent {exc}") from None
        if event.type == "error":
            raise CodeAgentError(event.message)
        if event.type == "result" and as_json:
            printer.flush_route()
            print_json(event.result.json)
            printer.finish_quietly()
            return
        if event.type == "token" and as_json:
            continue
        if printer.event(event) is not None:
            return
    raise CodeAgentError("the server closed the answer without a result")
