"""Settings taken without pydantic give what pydantic gives: every value below, set as a
flag and as a variable, is compared with the settings model as it was written with pydantic
(copied here, the truth), values and error messages alike; and `codeagent index` on a real
repository never imports pydantic."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from codeagent.config import Settings, environment
from codeagent.errors import ConfigError
from codeagent.paths import default_home


class Reference(BaseModel):
    """The settings model before it was split (pydantic's rules, written by hand)."""

    model_config = ConfigDict(extra="forbid")

    home: Path = Field(default_factory=default_home)
    cache_home: Path | None = None
    llm: str = "auto"
    embed: str = "auto"
    dense: str = ""
    ollama_host: str = Field(
        default_factory=lambda: os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
    )
    ollama_chat_model: str = "qwen2.5-coder:7b"
    max_file_bytes: int = Field(default=1_000_000, gt=0)
    k: int = Field(default=8, ge=1, le=100)
    keep_states: int = Field(default=3, gt=0)
    llm_timeout: float = Field(default=120.0, gt=0)
    router_timeout: float = Field(default=30.0, gt=0)
    clone_timeout: float = Field(default=900.0, gt=0)
    max_question_chars: int = Field(default=4000, gt=0)
    history_turns: int = Field(default=4, ge=0)
    batch_size: int = Field(default=64, gt=0)
    workers: int = Field(default=0, ge=0)
    pool_min_files: int = Field(default=100, gt=0)
    first_embed_seconds: float = Field(default=2.0, ge=0, le=60)
    background_after: float = Field(default=5.0, ge=0)
    auto_server: bool = True
    server_idle: float = Field(default=600.0, gt=0)
    update_wait: float = Field(default=0.5, ge=0, le=60)

    @field_validator("home", "cache_home", mode="before")
    @classmethod
    def _expand(cls, value: Any, info: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            return default_home() if info.field_name == "home" else None
        return Path(value).expanduser().absolute() if isinstance(value, str | Path) else value


NUMBERS = [
    "0",
    "1",
    "8",
    "100",
    "101",
    "-1",
    "+3",
    " 8",
    "8 ",
    "08",
    "1_000",
    "1.0",
    "1.5",
    "0.0",
    "60",
    "60.5",
    "1e3",
    "inf",
    "nan",
    "",
    "x",
    0,
    1,
    8,
    -1,
    101,
    1.0,
    1.5,
    0.0,
    60.0,
    60.5,
    10**30,
    float("inf"),
    float("nan"),
    True,
    False,
    None,
    "9" * 30,
]
BOOLS = [
    "true",
    "false",
    "True",
    "FALSE",
    "1",
    "0",
    "yes",
    "no",
    "on",
    "off",
    "t",
    "f",
    "",
    "2",
    1,
    0,
    2,
    1.0,
    True,
    False,
    None,
]
TEXTS = ["local", "", " none ", "ollama:qwen", 5, None, b"local", True]
PATHS = ["/tmp/h", "", "  ", "~/h", "rel/h", Path("/tmp/p"), 5, None]
VALUES = {
    **{
        name: NUMBERS
        for name in [
            "max_file_bytes",
            "k",
            "keep_states",
            "llm_timeout",
            "router_timeout",
            "clone_timeout",
            "max_question_chars",
            "history_turns",
            "batch_size",
            "workers",
            "pool_min_files",
            "first_embed_seconds",
            "background_after",
            "server_idle",
            "update_wait",
        ]
    },
    "auto_server": BOOLS,
    **{name: TEXTS for name in ["llm", "embed", "dense", "ollama_host", "ollama_chat_model"]},
    "home": PATHS,
    "cache_home": PATHS,
}
CASES = [(name, value) for name, values in VALUES.items() for value in values]


def outcome(make: Any, values: dict[str, Any]) -> Any:
    try:
        made = make(**values)
    except ValidationError as exc:
        return [(e["loc"], e["msg"]) for e in exc.errors()]
    return {name: getattr(made, name) for name in Reference.model_fields}


def same(one: Any, other: Any) -> bool:
    """Equal, a NaN equal to a NaN, a float to an int only when their types agree."""
    if isinstance(one, dict) and isinstance(other, dict):
        return one.keys() == other.keys() and all(same(one[k], other[k]) for k in one)
    if isinstance(one, float) and isinstance(other, float) and one != one:
        return other != other
    return type(one) is type(other) and one == other


def test_every_field_is_in_the_reference() -> None:
    assert set(Settings.model_fields) == set(Reference.model_fields)
    assert set(VALUES) == set(Reference.model_fields)


@pytest.mark.parametrize(("name", "value"), CASES, ids=[f"{n}={v!r}" for n, v in CASES])
def test_a_value_given_is_taken_as_pydantic_takes_it(
    env_setup: Path, name: str, value: Any
) -> None:
    given = {**environment(Reference.model_fields), name: value}
    assert same(outcome(Settings, {name: value}), outcome(Reference, given))


@pytest.mark.parametrize(("name", "value"), [c for c in CASES if isinstance(c[1], str) and c[1]])
def test_a_variable_is_taken_as_pydantic_takes_it(
    env_setup: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(f"CODEAGENT_{name.upper()}", value)
    given = environment(Reference.model_fields)
    assert given[name] == value
    assert same(outcome(Settings, {}), outcome(Reference, given))


def test_an_unknown_name_and_a_bad_value_keep_their_messages(env_setup: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"^invalid setting colour: Extra inputs are not permitted$"
    ):
        Settings.load(colour="blue")
    with pytest.raises(
        ConfigError, match=r"^invalid setting k: Input should be less than or equal to 100$"
    ):
        Settings.load(k=101)


def test_a_copy_is_updated_and_equal_settings_compare_equal(env_setup: Path) -> None:
    settings = Settings(k=4)
    copied = settings.model_copy(update={"k": 5})
    assert (settings.k, copied.k) == (4, 5)
    assert copied.model_copy(update={"k": 4}) == settings != copied


def test_an_index_never_imports_pydantic(git_repo: Any, env_setup: Path) -> None:
    repo = git_repo({"a.py": "def f():\n    return 1\n"})
    script = (
        "import sys\nfrom codeagent.cli.main import main\n"
        "try:\n    main(['index', '--repo', sys.argv[1], '--embed', 'none', '--json'])\n"
        "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n"
    )
    env = {**os.environ, "CODEAGENT_AUTO_SERVER": "false"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(repo)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
