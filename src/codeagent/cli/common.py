"""Things every command shares: output, notices, the progress bar, common options, JSON.

Light on purpose (click and the standard library): ``codeagent ask`` answered by a running
server imports this and nothing heavier. rich is imported only where it draws something
(the progress bar, ``codeagent doctor``'s report); notices are plain lines.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

import click

from codeagent.bounds import K_MAX, K_MIN
from codeagent.cli.terminal import notice
from codeagent.progress import duration as _duration

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])


@cache
def console(stderr: bool = False) -> Console:
    """The rich console on stdout (or stderr), made on first use."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def confirm(question: str) -> bool:
    """Ask a yes/no question on stderr, reading the answer from stdin; no means no.

    Raises ``click.Abort`` when stdin is at its end (nothing can answer), which the CLI
    reports as ``aborted``; Ctrl-C stays an interruption.
    """
    click.echo(f"{question} [y/N]: ", nl=False, err=True)
    line = sys.stdin.readline()
    if not line:
        click.echo("", err=True)
        raise click.Abort
    return line.strip().lower() in ("y", "yes")


def confirm_folder(folder: Path) -> None:
    """Go on when ``folder`` is in a git repository or the user agrees to index it."""
    from codeagent.display import safe_name
    from codeagent.errors import ConfigError
    from codeagent.repo.git import git_toplevel

    if git_toplevel(folder) is not None:
        return
    name = safe_name(str(folder))
    if not sys.stdin.isatty():
        raise ConfigError(
            f"{name} is not a git repository; pass --repo PATH, or --yes to index it anyway"
        )
    if not confirm(f"{name} is not a git repository. Index everything under it?"):
        raise click.Abort


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


def repo_argument(func: F) -> F:
    """``--repo PATH|URL`` (:func:`repo_option`), or the repository given as the command's one
    argument, as ``git`` and most tools take it (``codeagent index ~/src/project``); both at
    once must name the same one."""

    @wraps(func)
    def given(*args: Any, where: str | None = None, **kwargs: Any) -> Any:
        if where is not None:
            if kwargs.get("repo", ".") not in (".", where):
                raise click.UsageError(f"two repositories given ({where}, --repo {kwargs['repo']})")
            kwargs["repo"] = where
        return func(*args, **kwargs)

    argument = click.argument("where", required=False, metavar="[PATH|URL]")
    return cast(F, argument(repo_option(given)))


def embed_option(func: F) -> F:
    return click.option(
        "--embed",
        default=None,
        metavar="local|local:base|ollama:MODEL|none",
        help=(
            "Embedder (default: local when installed, else none; env CODEAGENT_EMBED). local is"
            " MiniLM tuned on questions about code; local:base the untuned model."
        ),
    )(func)


def dense_option(func: F) -> F:
    help_text = "Dense index backend (default: faiss; env CODEAGENT_DENSE)."
    return click.option("--dense", default=None, metavar="NAME[:ARG]", help=help_text)(func)


def llm_option(func: F) -> F:
    return click.option(
        "--llm",
        default=None,
        metavar="ollama:MODEL|llamacpp:PATH|none",
        help="Answer model (default: Ollama when it answers, else none; env CODEAGENT_LLM).",
    )(func)


def _validate_k(_ctx: click.Context, _param: click.Parameter, value: int | None) -> int | None:
    if value is not None and not K_MIN <= value <= K_MAX:
        from codeagent.errors import ConfigError

        raise ConfigError(f"-k must be between {K_MIN} and {K_MAX} (got {value})")
    return value


def k_option(func: F) -> F:
    return click.option(
        "-k", "k", type=int, default=None, callback=_validate_k, expose_value=True,
        metavar="N", help=f"Sources per answer ({K_MIN}-{K_MAX}).",
    )(func)  # fmt: skip


def number_option(
    *names: str, values: click.ParamType[Any], default: float | None, help: str
) -> Callable[[F], F]:
    """An option taking a number (``values``: a type such as ``click.IntRange(1, 64)``);
    a default other than None is shown in the help."""
    return click.option(
        *names, type=values, default=default, show_default=default is not None, help=help
    )


def path_option(
    *names: str, kind: Literal["file", "dir"], help: str, **attrs: Any
) -> Callable[[F], F]:
    """An option naming a file or a directory, given to the command as a ``Path``; a default
    other than None is shown in the help. ``attrs``: more of ``click.option``'s arguments."""
    if kind == "file":
        values = click.Path(dir_okay=False, path_type=Path)
    else:
        values = click.Path(file_okay=False, path_type=Path)
    attrs.setdefault("default", None)
    return click.option(
        *names, type=values, show_default=attrs["default"] is not None, help=help, **attrs
    )


UNITS = {"chunking": "files", "embedding": "chunks"}


class Progress:
    """Long work made visible: a rich bar on stderr when it is a terminal, else one line on
    stderr every ``interval`` seconds (done/total, rate, time left) and one at the end.
    Before the work starts it says what it will do and, for embedding, how long it will
    roughly take.

    Implements :class:`codeagent.progress.ProgressReporter`.
    """

    def __init__(
        self,
        enabled: bool | None = None,
        *,
        interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.interval = interval
        self.clock = clock
        self.echo = echo or notice
        self.before: Callable[[], None] | None = None  # called as a task starts

    def _announce(self, description: str, total: int | None, expect: float | None) -> None:
        """Before the slow phase (embedding): how much, roughly how long (the embedder's
        estimate, when it has one: embed/speed.py), and that it is done once. (Chunking is
        quick, and may end in an error that should stand alone.)"""
        from codeagent.display import plural

        if description == "embedding" and total:
            guess = f", roughly {_duration(expect)}" if expect is not None else ""
            self.echo(
                f"indexing: embedding {plural(total, 'chunk')}{guess}"
                " (once: later runs reuse the index)"
            )
        elif total is None and expect is not None:  # one step of known length, said before
            self.echo(f"{description}: ~{_duration(expect)}")

    @contextmanager
    def task(
        self, description: str, total: int | None, *, expect: float | None = None
    ) -> Iterator[Callable[[int], None]]:
        if self.before is not None:
            self.before()
        self._announce(description, total, expect)
        from codeagent.progress import checked  # the estimate corrected once, if wrong

        if not self.enabled:
            with self._lines(description, total) as advance:
                say = lambda text: self.echo(f"{description}: {text}")  # noqa: E731
                yield checked(advance, total, expect, self.clock, say)
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
            console=console(stderr=True),
            transient=True,
        ) as bar:
            task_id = bar.add_task(description, total=total)
            above = lambda text: bar.console.print(f"{description}: {text}", style="dim")  # noqa: E731
            yield checked(lambda n: bar.advance(task_id, n), total, expect, self.clock, above)

    @contextmanager
    def _lines(self, description: str, total: int | None) -> Iterator[Callable[[int], None]]:
        unit = UNITS.get(description, "items")
        started = last = self.clock()
        done = said = 0
        first: tuple[float, int] | None = None  # (when, done) at the first advance

        def line(now: float) -> str:
            text = f"{description}: {done:,}" + (f"/{total:,}" if total else "") + f" {unit}"
            # The rate is measured from the first step on, as rich's bar measures it: the
            # time before it (loading, or exporting, the model) says nothing of the rest.
            if first is not None and now > first[0] and done > first[1]:
                rate = (done - first[1]) / (now - first[0])
                text += f", {rate:,.1f}/s"
                if total and done < total:
                    text += f", about {_duration((total - done) / rate)} left"
            return text

        def advance(n: int) -> None:
            nonlocal done, last, said, first
            done += n
            now = self.clock()
            if first is None:
                first = (now, done)
            if now - last >= self.interval and not (total and done >= total):
                last, said = now, said + 1
                self.echo(line(now))  # (the last step is said by the line at the end)

        yield advance
        if said or self.clock() - started >= self.interval:
            took = _duration(self.clock() - started)
            if total is None and not done:  # one step, counted in nothing: its time only
                self.echo(f"{description}: done in {took}")
            else:
                self.echo(f"{description}: {done:,}/{total or done:,} {unit} in {took}")
