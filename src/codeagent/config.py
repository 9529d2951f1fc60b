"""Settings: defaults < config file (``$CODEAGENT_HOME/config.toml``) < environment < flags.

Environment variables use the ``CODEAGENT_`` prefix (``CODEAGENT_LLM``, ``CODEAGENT_EMBED``,
``CODEAGENT_HOME``, ...); the Ollama server address is read from ``OLLAMA_HOST`` as Ollama's
own tools do. Flags are passed to :meth:`Settings.load` by the CLI.

An empty variable counts as unset (as the XDG base-directory convention has it): an empty
``CODEAGENT_HOME`` means ``~/.codeagent``, never the current directory. A relative home is
made absolute against the directory codeagent was started in.

Settings is a plain pydantic model that reads its variables itself (names in any case, as
pydantic-settings read them): pydantic-settings cost every in-process answer about 0.1 s of
imports for what :func:`environment` does.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from codeagent.bounds import K_MAX, K_MIN
from codeagent.errors import ConfigError
from codeagent.paths import default_home

DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"
ENV_PREFIX = "CODEAGENT_"


def environment(names: Iterable[str]) -> dict[str, str]:
    """The settings ``names`` set by ``CODEAGENT_<NAME>`` variables (the name in any case; an
    empty value counts as unset)."""
    wanted = set(names)
    values: dict[str, str] = {}
    for key, value in os.environ.items():
        name = key[len(ENV_PREFIX) :].lower()
        if key[: len(ENV_PREFIX)].upper() == ENV_PREFIX and name in wanted and value:
            values[name] = value
    return values


class Settings(BaseModel):
    """Everything a run can be configured with: the values given, else the environment
    (``CODEAGENT_<NAME>``), else the defaults."""

    model_config = ConfigDict(extra="forbid")

    home: Path = Field(default_factory=default_home, description="Root of cache and clones.")
    cache_home: Path | None = Field(
        default=None,
        description="Where the index cache and the embedding cache live, if not in the home:"
        " a volume that server replicas share, each with a home of its own.",
    )
    llm: str = Field(
        default="auto",
        description="auto | none | ollama:MODEL | llamacpp:PATH.gguf",
    )
    embed: str = Field(
        default="auto", description="auto | local | local:base | none | ollama:MODEL"
    )
    dense: str = Field(
        default="",
        description="Dense index backend: NAME or NAME:ARG (empty: the default backend).",
    )
    ollama_host: str = Field(
        default_factory=lambda: os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST,
        description="Ollama server address (OLLAMA_HOST).",
    )
    ollama_chat_model: str = Field(
        default="qwen2.5-coder:7b", description="Chat model `--llm auto` tries on Ollama."
    )
    max_file_bytes: int = Field(default=1_000_000, gt=0, description="Skip larger files.")
    k: int = Field(default=8, ge=K_MIN, le=K_MAX, description="Sources per answer.")
    keep_states: int = Field(default=3, gt=0, description="Index states kept per repository.")
    llm_timeout: float = Field(default=120.0, gt=0, description="Seconds per LLM call.")
    router_timeout: float = Field(default=30.0, gt=0, description="Seconds for the LLM router.")
    clone_timeout: float = Field(
        default=900.0, gt=0, description="Seconds a clone (or fetch) of a URL may take in all."
    )
    max_question_chars: int = Field(default=4000, gt=0)
    history_turns: int = Field(default=4, ge=0, description="Past turns a follow-up sees.")
    batch_size: int = Field(default=64, gt=0, description="Chunks per embedding batch.")
    workers: int = Field(
        default=0,
        ge=0,
        description="Processes that parse, chunk and tokenise files for an index; 0: one per"
        " CPU; 1: none (in the indexing process).",
    )
    pool_min_files: int = Field(
        default=100,
        gt=0,
        description="Files to parse below which an index is built without a pool of processes"
        " (starting its workers costs a few tenths of a second).",
    )
    first_embed_seconds: float = Field(
        default=2.0,
        ge=0,
        le=60,
        description="While the dense index is built in the background, seconds of embedding"
        " each question may spend on the chunks of its best BM25 files first, so it is"
        " answered with dense search over them (0: BM25 and the cached vectors only).",
    )
    background_after: float = Field(
        default=5.0,
        ge=0,
        description="Seconds of embedding past which a first question is answered at once"
        " (BM25, symbols and the vectors already cached) while a detached `codeagent index`"
        " finishes the dense index; `--wait` waits instead.",
    )
    auto_server: bool = Field(
        default=True,
        description="After an answer computed in-process, leave a server running for the"
        " repository (it stops after server_idle seconds without a question).",
    )
    server_idle: float = Field(
        default=600.0, gt=0, description="Seconds a server `codeagent ask` left stays idle."
    )
    update_wait: float = Field(
        default=0.5,
        ge=0,
        le=60,
        description="Seconds a server's question waits for the index of a changed repository"
        " before it is answered from the last state, with a notice.",
    )

    @model_validator(mode="before")
    @classmethod
    def _from_environment(cls, values: Any) -> Any:
        if not isinstance(values, dict):
            return values
        return {**environment(cls.model_fields), **values}

    @field_validator("home", mode="before")
    @classmethod
    def _expand(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            return default_home()  # empty means unset: never "." (the current directory)
        return Path(value).expanduser().absolute() if isinstance(value, str | Path) else value

    @field_validator("cache_home", mode="before")
    @classmethod
    def _expand_cache_home(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            return None  # empty means unset: the home
        return Path(value).expanduser().absolute() if isinstance(value, str | Path) else value

    @property
    def cache_dir(self) -> Path:
        return (self.cache_home or self.home) / "cache"

    @property
    def own_dirs(self) -> list[Path]:
        """The folders codeagent writes (the home, and the cache home when set apart): a
        watch of a repository that holds one ignores it."""
        return [self.home, *([self.cache_home] if self.cache_home else [])]

    @property
    def repos_dir(self) -> Path:
        return self.home / "repos"

    @property
    def embed_cache_dir(self) -> Path:
        return (self.cache_home or self.home) / "embeddings"

    @classmethod
    def load(cls, **overrides: Any) -> Settings:
        """Read the config file, then the environment, then apply non-None ``overrides``."""
        home = default_home()
        file_values: dict[str, Any] = {}
        config_file = home / "config.toml"
        if config_file.is_file():
            try:
                file_values = tomllib.loads(config_file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"cannot read config file {config_file}: {exc}") from exc
        env_keys = set(environment(cls.model_fields))
        if os.environ.get("OLLAMA_HOST"):
            env_keys.add("ollama_host")
        values = {k: v for k, v in file_values.items() if k not in env_keys}
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "settings"
            raise ConfigError(f"invalid setting {where}: {first['msg']}") from exc
