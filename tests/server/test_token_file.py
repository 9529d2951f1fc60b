"""The token file: created once with mode 0600, read back only when no one else can read it."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from codeagent.errors import ConfigError
from codeagent.server.auth import (
    MIN_TOKEN_CHARS,
    default_token_file,
    load_or_create_token,
    read_token,
)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that masks nothing, so the file's mode is what the code asked for."""
    old = os.umask(0)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_token_file_is_private_and_holds_the_token(tmp_path: Path, open_umask: None) -> None:
    path = tmp_path / "server.token"
    token = load_or_create_token(path)
    assert mode(path) == 0o600
    assert path.read_bytes() == token.encode() + b"\n"
    assert len(token) == 43  # 32 random bytes, URL-safe base64 without padding
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert load_or_create_token(path) == token  # the second call reads it back
    assert load_or_create_token(tmp_path / "other.token") != token


def test_a_token_file_that_cannot_be_created_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "server.token"
    with pytest.raises(ConfigError, match=f"cannot create token file {path}: No such file"):
        load_or_create_token(path)


def test_a_token_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "server.token"
    path.write_text("t" * 32 + "\n", encoding="utf-8")
    for loose in (0o640, 0o604, 0o620, 0o602):
        path.chmod(loose)
        with pytest.raises(ConfigError, match="readable by others: run `chmod 600"):
            read_token(path)
    path.chmod(0o600)
    assert read_token(path) == "t" * 32


def test_a_short_token_is_refused_at_the_minimum_accepted(tmp_path: Path) -> None:
    assert MIN_TOKEN_CHARS == 16
    path = tmp_path / "server.token"
    path.write_text(" " + "t" * 15 + " \n", encoding="utf-8")  # the spaces do not count
    path.chmod(0o600)
    with pytest.raises(ConfigError, match="shorter than 16 characters"):
        read_token(path)
    path.write_text("t" * 16 + "\n", encoding="utf-8")
    assert read_token(path) == "t" * 16


def test_a_missing_token_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "none.token"
    with pytest.raises(ConfigError, match=f"cannot read token file {path}: No such file"):
        read_token(path)


def test_the_token_file_lives_in_the_home(tmp_path: Path) -> None:
    assert default_token_file(tmp_path) == tmp_path / "server.token"
