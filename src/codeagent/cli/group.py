"""The ``codeagent`` command group: subcommands imported on demand, and a default command.

A subcommand is named by ``"module:attribute"`` and imported only when it runs (or when the
group's ``--help`` lists them), as click's documentation suggests for large command sets: so
``codeagent ask`` loads the ``ask`` module and none of the others.
"""

from __future__ import annotations

import importlib
from typing import Any

import click


class LazyGroup(click.Group):
    """A group whose subcommands are imported when first asked for (``lazy_commands``:
    name -> ``"package.module:attribute"``)."""

    def __init__(self, *args: Any, lazy_commands: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in self.lazy_commands:
            return command
        module, _, attribute = self.lazy_commands[cmd_name].partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[cmd_name]} is not a click command")
        _accept_verbose(command)
        self.add_command(command, cmd_name)
        return command


def _more_logging(ctx: click.Context, _param: click.Parameter, value: int) -> None:
    """``-v`` given after the command (``codeagent index -vv``) counts as given before it."""
    if not value:
        return
    root = ctx.find_root()
    if not isinstance(root.obj, dict):
        root.obj = {}
    root.obj["verbose"] = root.obj.get("verbose", 0) + value
    from codeagent.cli.logs import setup_logging

    setup_logging(root.obj["verbose"])


def _accept_verbose(command: click.Command) -> None:
    """Give a subcommand the group's ``-v`` (once; a command with its own is left alone)."""
    if any("-v" in p.opts for p in command.params):
        return
    command.params.append(
        click.Option(
            ["-v", "--verbose"], count=True, expose_value=False, callback=_more_logging,
            help="More logging on stderr (-v info, -vv debug, -vvv also git's commands).",
        )
    )  # fmt: skip


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one insertion, deletion, substitution or swap of two
    neighbouring letters."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0] if len(diff) == 2 else -1
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


class DefaultGroup(LazyGroup):
    """A group that hands anything that is not one of its commands to ``default``.

    The group's own options (``-v``, ``--version``, ``--help``) are parsed first; an
    unknown option (``--repo``) or a first word that names no command starts the default
    command with every argument, as ``llm "prompt"`` does.
    """

    default_name = "default"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            args = [self.default_name]
        return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self.commands and args[0] not in self.lazy_commands:
            typo = self._mistyped(args)
            if typo is not None:
                from codeagent.errors import ConfigError

                raise ConfigError(f"no such command: {args[0]} (did you mean {typo}?)")
            args = [self.default_name, *args]
        return super().resolve_command(ctx, args)

    def _mistyped(self, args: list[str]) -> str | None:
        """The command ``args[0]`` misspells (one letter added, dropped, changed, or two
        swapped) when a question follows it (``codeagent aks "how ..."``), else None."""
        question = len(args) > 1 and not args[1].startswith("-")
        question = question or any(" " in a.strip() or a.endswith("?") for a in args[1:])
        if not question or args[0].startswith("-"):
            return None
        word = args[0].lower()
        names = [n for n in self.lazy_commands if n != self.default_name]
        close = [n for n in sorted(names) if n != word and _one_edit(word, n)]
        return close[0] if close else None

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[OPTIONS] [QUESTION] | COMMAND [ARGS]...")
