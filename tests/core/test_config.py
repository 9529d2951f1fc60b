"""Settings precedence: flag > environment > config file > default."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.errors import ConfigError


def write_config(home: Path, text: str) -> None:
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_defaults_use_codeagent_home(env_setup: Path) -> None:
    settings = Settings.load()
    assert settings.home == env_setup
    assert settings.cache_dir == env_setup / "cache"
    assert settings.llm == "auto"


def test_a_cache_home_holds_both_caches_apart_from_the_home(
    env_setup: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Settings.load().embed_cache_dir == env_setup / "embeddings"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CODEAGENT_CACHE_HOME", "volume")  # relative: to the start directory
    settings = Settings.load()
    assert settings.home == env_setup
    assert settings.cache_dir == tmp_path / "volume" / "cache"
    assert settings.embed_cache_dir == tmp_path / "volume" / "embeddings"
    monkeypatch.setenv("CODEAGENT_CACHE_HOME", "  ")  # blank: unset, the home
    assert Settings.load().cache_dir == env_setup / "cache"


def test_config_file_applies(env_setup: Path) -> None:
    write_config(env_setup, 'llm = "none"\nk = 5\n')
    settings = Settings.load()
    assert (settings.llm, settings.k) == ("none", 5)


def test_env_beats_file_and_flag_beats_env(
    env_setup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(env_setup, 'llm = "none"\nollama_host = "http://from-file:1"\n')
    monkeypatch.setenv("CODEAGENT_LLM", "ollama:from-env")
    monkeypatch.setenv("OLLAMA_HOST", "http://from-env:2")
    settings = Settings.load()
    assert settings.llm == "ollama:from-env"
    assert settings.ollama_host == "http://from-env:2"
    assert Settings.load(llm="ollama:from-flag").llm == "ollama:from-flag"


def test_bad_config_file_is_one_clear_error(env_setup: Path) -> None:
    write_config(env_setup, "llm = [unclosed\n")
    with pytest.raises(ConfigError, match=r"config\.toml"):
        Settings.load()


def test_unknown_key_is_rejected(env_setup: Path) -> None:
    write_config(env_setup, 'colour = "blue"\n')
    with pytest.raises(ConfigError, match="colour"):
        Settings.load()


def test_invalid_value_names_the_setting() -> None:
    with pytest.raises(ConfigError, match="k"):
        Settings.load(k=0)
