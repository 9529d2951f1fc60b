"""Options the evaluation commands (``eval``, ``eval-dev``) share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

suites_argument = click.argument(
    "suites", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path)
)


def out_option(default: Path, written: str) -> Callable[[Any], Any]:
    """``--out DIR`` (into ``out_dir``): where the command writes ``written``."""
    return click.option(
        "--out",
        "out_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=default,
        show_default=True,
        help=f"Where {written} are written.",
    )
