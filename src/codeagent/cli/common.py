"""Things every command shares: consoles, the progress bar, common options, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


_out = {"mid_line": False}


def write_out(text: str) -> None:
    """Write streamed answer text to stdout, remembering whether a line is left open."""
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()
        _out["mid_line"] = not text.endswith("\n")


def end_line() -> None:
    """End a line of streamed answer left open (no blank line when it is already ended)."""
    if _out["mid_line"]:
        write_out("\n")


def notice(message: str) -> None:
    """A one-line notice on stderr (never mixed into --json output on stdout).

    On a terminal a line of streamed answer left open is ended first, so the notice starts
    on a line of its own.
    """
    if sys.stdout.isatty():
        end_line()
    err_console.print(f"[dim]{message}[/dim]", soft_wrap=True)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=False, default=str))


def repo_option(func: F) -> F:
    return click.option(
        "--repo",
        "repo",
        default=".",
        show_default=True,
        metavar="PATH|URL",
        help="Repository: a local path or a git URL (https://, git@, file://).",
    )(func)


def embed_option(func: F) -> F:
    return click.option(
        "--embed",
        default=None,
        metavar="local|ollama:MODEL|none",
        help="Embedder (default: local when installed, else none; env CODEAGENT_EMBED).",
    )(func)


def llm_option(func: F) -> F:
    return click.option(
        "--llm",
        default=None,
        metavar="ollama:MODEL|llamacpp:PATH|none",
        help="Answer model (default: Ollama when it answers, else none; env CODEAGENT_LLM).",
    )(func)


class Progress:
    """A rich progress bar on stderr when it is a terminal; silent otherwise.

    Implements :class:`codeagent.progress.ProgressReporter`.
    """

    def __init__(self, enabled: bool | None = None) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled

    @contextmanager
    def task(self, description: str, total: int | None) -> Iterator[Callable[[int], None]]:
        if not self.enabled:
            yield lambda _n: None
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        with RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err_console,
            transient=True,
        ) as bar:
            task_id = bar.add_task(description, total=total)
            yield lambda n: bar.advance(task_id, n)
