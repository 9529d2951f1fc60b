"""Settings: defaults < config file (``$CODEAGENT_HOME/config.toml``) < environment < flags.

Environment variables use the ``CODEAGENT_`` prefix (``CODEAGENT_LLM``, ``CODEAGENT_EMBED``,
``CODEAGENT_HOME``, ...); the Ollama server address is read from ``OLLAMA_HOST`` as Ollama's
own tools do. Flags are passed to :meth:`Settings.load` by the CLI.

An empty variable counts as unset (as the XDG base-directory convention has it): an empty
``CODEAGENT_HOME`` means ``~/.codeagent``, never the current directory. A relative home is
made absolute against the directory codeagent was started in.

The settings are declared once, in :data:`codeagent.config_fields.FIELDS`. Their rules are
pydantic's: the model in :mod:`codeagent.config_check` is built from the same table and
decides every value that is not plainly valid (a wrong type, a bound crossed, an unknown
name, a number or a boolean spelled unusually) and words its errors. A plainly valid value
(what the defaults, the CLI and the usual variables give) is taken without importing
pydantic: a `codeagent index` after an edit never needs it (its import and the model cost
about 0.14 s of each run).
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from codeagent.config_fields import FIELDS, Setting, checked
from codeagent.errors import ConfigError
from codeagent.paths import default_home

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


class Settings:
    """Everything a run can be configured with: the values given, else the environment
    (``CODEAGENT_<NAME>``), else the defaults. An invalid value raises pydantic's
    ``ValidationError``, as a pydantic model of these fields would."""

    model_fields: ClassVar[dict[str, Setting]] = FIELDS

    home: Path
    cache_home: Path | None
    llm: str
    embed: str
    dense: str
    ollama_host: str
    ollama_chat_model: str
    max_file_bytes: int
    k: int
    keep_states: int
    llm_timeout: float
    router_timeout: float
    clone_timeout: float
    max_question_chars: int
    history_turns: int
    batch_size: int
    workers: int
    pool_min_files: int
    first_embed_seconds: float
    background_after: float
    auto_server: bool
    server_idle: float
    update_wait: float

    def __init__(self, **values: Any) -> None:
        given = {**environment(FIELDS), **values}
        plain = checked(given)
        if plain is None:
            from codeagent.config_check import validated

            plain = validated(given)
        self.__dict__.update(plain)

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Settings:
        """A copy with ``update`` applied, unchecked (as pydantic's ``model_copy``)."""
        new = copy.deepcopy(self) if deep else copy.copy(self)
        new.__dict__.update(update or {})
        return new

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Settings({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

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
    def git_index_dir(self) -> Path:
        """Refreshed copies of the repositories' git indexes (:mod:`codeagent.repo.index_copy`)."""
        return self.home / "git-index"

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
        env_keys = set(environment(FIELDS))
        if os.environ.get("OLLAMA_HOST"):
            env_keys.add("ollama_host")
        values = {k: v for k, v in file_values.items() if k not in env_keys}
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except Exception as exc:
            from pydantic import ValidationError

            if not isinstance(exc, ValidationError):
                raise
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "settings"
            raise ConfigError(f"invalid setting {where}: {first['msg']}") from exc
