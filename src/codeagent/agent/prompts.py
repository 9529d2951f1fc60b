"""Prompt templates: ``prompts/*.md`` with ``$name`` placeholders (``string.Template``).

The templates ship inside the wheel as ``codeagent/prompts``; in a source checkout they are
the repository's top-level ``prompts/`` folder.
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CANDIDATES = (_HERE.parent / "prompts", _HERE.parents[2] / "prompts")


def prompts_dir() -> Path:
    for candidate in _CANDIDATES:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("prompt templates not found (looked for codeagent/prompts)")


def prompt_names() -> list[str]:
    return sorted(p.stem for p in prompts_dir().glob("*.md"))


@cache
def load_prompt(name: str) -> string.Template:
    return string.Template((prompts_dir() / f"{name}.md").read_text(encoding="utf-8"))


def render_prompt(name: str, **values: str) -> str:
    """Fill every ``$name`` placeholder; a missing value raises ``KeyError``."""
    return load_prompt(name).substitute(**values)
