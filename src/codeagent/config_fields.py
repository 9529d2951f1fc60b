"""The settings' table: each setting's type, default and bounds, declared once (read by
:class:`codeagent.config.Settings` and by the pydantic model of :mod:`codeagent.config_check`),
and the check that takes a plainly valid value without pydantic."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeagent.bounds import K_MAX, K_MIN
from codeagent.paths import default_home

DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"


def expand_home(value: Any) -> Any:
    """The home as given: empty means unset (never "." , the current directory)."""
    if isinstance(value, str) and not value.strip():
        return default_home()
    return Path(value).expanduser().absolute() if isinstance(value, str | Path) else value


def expand_cache_home(value: Any) -> Any:
    if isinstance(value, str) and not value.strip():
        return None  # empty means unset: the home
    return Path(value).expanduser().absolute() if isinstance(value, str | Path) else value


@dataclass(frozen=True)
class Setting:
    """One setting: its type, its default (or the function that makes it), its bounds."""

    kind: type
    default: Any = None
    factory: Callable[[], Any] | None = None
    optional: bool = False
    gt: float | None = None
    ge: float | None = None
    le: float | None = None
    description: str | None = None
    before: Callable[[Any], Any] | None = None  # applied to a given value first

    def initial(self) -> Any:
        return self.factory() if self.factory is not None else self.default


def _ollama_host() -> str:
    return os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST


FIELDS: dict[str, Setting] = {
    "home": Setting(
        Path, factory=default_home, description="Root of cache and clones.", before=expand_home
    ),
    "cache_home": Setting(
        Path,
        optional=True,
        before=expand_cache_home,
        description=(
            "Where the index cache and the embedding cache live, if not in the home:"
            " a volume that server replicas share, each with a home of its own."
        ),
    ),
    "llm": Setting(str, "auto", description="auto | none | ollama:MODEL | llamacpp:PATH.gguf"),
    "embed": Setting(str, "auto", description="auto | local | local:base | none | ollama:MODEL"),
    "dense": Setting(
        str, "", description=("Dense index backend: NAME or NAME:ARG (empty: the default backend).")
    ),
    "ollama_host": Setting(
        str, factory=_ollama_host, description="Ollama server address (OLLAMA_HOST)."
    ),
    "ollama_chat_model": Setting(
        str, "qwen2.5-coder:7b", description="Chat model `--llm auto` tries on Ollama."
    ),
    "max_file_bytes": Setting(int, 1_000_000, gt=0, description="Skip larger files."),
    "k": Setting(int, 8, ge=K_MIN, le=K_MAX, description="Sources per answer."),
    "keep_states": Setting(int, 3, gt=0, description="Index states kept per repository."),
    "llm_timeout": Setting(float, 120.0, gt=0, description="Seconds per LLM call."),
    "router_timeout": Setting(float, 30.0, gt=0, description="Seconds for the LLM router."),
    "clone_timeout": Setting(
        float, 900.0, gt=0, description=("Seconds a clone (or fetch) of a URL may take in all.")
    ),
    "max_question_chars": Setting(int, 4000, gt=0),
    "history_turns": Setting(int, 4, ge=0, description="Past turns a follow-up sees."),
    "batch_size": Setting(int, 64, gt=0, description="Chunks per embedding batch."),
    "workers": Setting(
        int,
        0,
        ge=0,
        description=(
            "Processes that parse, chunk and tokenise files for an index; 0: one per"
            " CPU; 1: none (in the indexing process)."
        ),
    ),
    "pool_min_files": Setting(
        int,
        100,
        gt=0,
        description=(
            "Files to parse below which an index is built without a pool of processes"
            " (starting its workers costs a few tenths of a second)."
        ),
    ),
    "first_embed_seconds": Setting(
        float,
        2.0,
        ge=0,
        le=60,
        description=(
            "While the dense index is built in the background, seconds of embedding"
            " each question may spend on the chunks of its best BM25 files first, so it is"
            " answered with dense search over them (0: BM25 and the cached vectors only)."
        ),
    ),
    "background_after": Setting(
        float,
        5.0,
        ge=0,
        description=(
            "Seconds of embedding past which a first question is answered at once"
            " (BM25, symbols and the vectors already cached) while a detached `codeagent index`"
            " finishes the dense index; `--wait` waits instead."
        ),
    ),
    "auto_server": Setting(
        bool,
        True,
        description=(
            "After an answer computed in-process, leave a server running for the"
            " repository (it stops after server_idle seconds without a question)."
        ),
    ),
    "server_idle": Setting(
        float, 600.0, gt=0, description="Seconds a server `codeagent ask` left stays idle."
    ),
    "update_wait": Setting(
        float,
        0.5,
        ge=0,
        le=60,
        description=(
            "Seconds a server's question waits for the index of a changed repository"
            " before it is answered from the last state, with a notice."
        ),
    ),
}

_INT = re.compile(r"0|[1-9][0-9]{0,17}")
_FLOAT = re.compile(r"(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?")
_BOOLS = {"true": True, "false": False, "1": True, "0": False}
_UNSURE = object()


def _plain(spec: Setting, value: Any) -> Any:
    """``value`` as pydantic would take it when that is plain to see, else ``_UNSURE``."""
    if spec.before is not None:
        value = spec.before(value)
    if value is None:
        return None if spec.optional else _UNSURE
    kind = spec.kind
    if kind is bool:
        got = (
            value
            if isinstance(value, bool)
            else _BOOLS.get(value)
            if isinstance(value, str)
            else None
        )
        return _UNSURE if got is None else got
    if kind is str:
        return value if type(value) is str else _UNSURE
    if kind is Path:
        return value if isinstance(value, Path) else _UNSURE
    number: float
    if isinstance(value, str):
        if not (_INT if kind is int else _FLOAT).fullmatch(value):
            return _UNSURE
        number = kind(value)
    elif isinstance(value, int | float) and type(value) is kind:
        if kind is float and not math.isfinite(value):
            return _UNSURE
        number = value
    else:
        return _UNSURE
    return number if _within(spec, number) else _UNSURE


def _within(spec: Setting, value: float) -> bool:
    return (
        (spec.gt is None or value > spec.gt)
        and (spec.ge is None or value >= spec.ge)
        and (spec.le is None or value <= spec.le)
    )


def checked(values: Mapping[str, Any]) -> dict[str, Any] | None:
    """Every setting's value, the given ones plainly valid; None when pydantic must decide."""
    if not values.keys() <= FIELDS.keys():
        return None
    out: dict[str, Any] = {}
    for name, spec in FIELDS.items():
        if name not in values:
            out[name] = spec.initial()
            continue
        got = _plain(spec, values[name])
        if got is _UNSURE:
            return None
        out[name] = got
    return out
