"""Which Milvus the token goes to: a server named by URL gets ``CODEAGENT_MILVUS_TOKEN``; a
local Milvus Lite file gets none (Milvus Lite checks no token, so only a recorded client shows
where it went). The recorded client stands in for ``pymilvus.MilvusClient`` and keeps the
arguments it was made with."""

from __future__ import annotations

import inspect
import logging
import os
import sys
import tomllib
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from codeagent.errors import BackendUnavailableError, ConfigError
from codeagent.store import milvus_client

TOKEN = "root:Milvus-secret"
ROOT = Path(__file__).resolve().parents[2]
try:  # pymilvus' own default token (a server run without one)
    import pymilvus as _pymilvus

    DEFAULT_TOKEN = inspect.signature(_pymilvus.MilvusClient).parameters["token"].default
except ImportError:
    DEFAULT_TOKEN = ""


class RecordedClient:
    made: ClassVar[list[dict[str, Any]]] = []
    refusal: ClassVar[Exception | None] = None  # raised when made, as pymilvus does

    def __init__(self, **kwargs: Any) -> None:
        RecordedClient.made.append(kwargs)
        if RecordedClient.refusal is not None:
            raise RecordedClient.refusal


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    monkeypatch.chdir(tmp_path)  # a URL taken for a file would make folders here
    fake = types.ModuleType("pymilvus")
    fake.MilvusClient = RecordedClient  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pymilvus", fake)
    monkeypatch.setattr(milvus_client, "_clients", {})
    monkeypatch.setenv(milvus_client.TOKEN_ENV, TOKEN)
    RecordedClient.made = []
    RecordedClient.refusal = None
    return RecordedClient.made


@pytest.mark.parametrize("url", ["http://milvus.internal:19530", "https://milvus.example.com"])
def test_a_server_gets_the_token(recorded: list[dict[str, Any]], url: str) -> None:
    client = milvus_client.client_for(url)
    assert isinstance(client, RecordedClient)
    assert recorded == [{"uri": url, "token": TOKEN, "timeout": milvus_client.TIMEOUT}]
    assert milvus_client.client_for(url) is client  # one client per URI
    assert len(recorded) == 1


def test_a_local_file_gets_no_token(recorded: list[dict[str, Any]], tmp_path: Path) -> None:
    db = tmp_path / "sub" / "dir" / "vectors.db"
    milvus_client.client_for(str(db))
    assert recorded == [{"uri": str(db), "token": "", "timeout": milvus_client.TIMEOUT}]
    assert db.parent.is_dir()  # Milvus Lite needs its folder (and the ones above) to exist


def test_a_server_without_the_token_variable_gets_pymilvus_default(
    recorded: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(milvus_client.TOKEN_ENV)
    milvus_client.client_for("http://milvus.internal:19530")
    assert recorded[0]["token"] == DEFAULT_TOKEN == ""


def test_grpc_and_pymilvus_are_quietened_and_nothing_else(
    recorded: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """gRPC's C core reads GRPC_VERBOSITY (NONE: no log lines); the Python loggers of
    pymilvus, Milvus Lite and gRPC say only what is raised to codeagent anyway. The root
    logger (codeagent's own lines) is left as it was."""
    names = ("pymilvus", "milvus_lite", "grpc")
    saved = {name: logging.getLogger(name or None).level for name in (*names, "")}
    try:
        for name in saved:
            logging.getLogger(name or None).setLevel(logging.WARNING)
        monkeypatch.delenv("GRPC_VERBOSITY", raising=False)
        milvus_client.client_for("http://milvus.internal:19530")
        assert os.environ["GRPC_VERBOSITY"] == "NONE"
        assert [logging.getLogger(name).level for name in names] == [logging.CRITICAL] * 3
        assert logging.getLogger().level == logging.WARNING
        monkeypatch.setenv("GRPC_VERBOSITY", "DEBUG")  # the caller's own choice is kept
        milvus_client.client_for("http://other.internal:19530")
        assert os.environ["GRPC_VERBOSITY"] == "DEBUG"
    finally:
        for name, level in saved.items():
            logging.getLogger(name or None).setLevel(level)


def test_without_pymilvus_one_line_names_the_extra_to_install(
    recorded: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pymilvus", None)  # import pymilvus raises ImportError
    with pytest.raises(BackendUnavailableError) as raised:
        milvus_client.client_for("http://milvus.internal:19530")
    assert str(raised.value) == (
        "the milvus dense index needs pymilvus and milvus-lite: pip install 'codeagent[milvus]'"
    )
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = [r.split(">")[0] for r in extras["optional-dependencies"]["milvus"]]
    assert {"pymilvus", "milvus-lite"} <= set(named)  # the extra the line names holds both


def test_a_client_that_cannot_be_made_is_one_line(recorded: list[dict[str, Any]]) -> None:
    RecordedClient.refusal = ValueError("connection refused\n  at grpc line 2")
    with pytest.raises(BackendUnavailableError) as raised:
        milvus_client.client_for("http://milvus.internal:19530")
    assert str(raised.value) == (
        "Milvus at http://milvus.internal:19530 cannot be used: connection refused"
    )
    assert milvus_client._clients == {}  # not kept: the next call tries again


@pytest.mark.parametrize(
    ("arg", "uri"),
    [
        ("http://milvus.internal:19530/", "http://milvus.internal:19530"),
        ("  https://milvus.example.com:443  ", "https://milvus.example.com:443"),
        ("https://milvus.example.com", "https://milvus.example.com"),
        ("http://BOX/", "http://BOX"),  # only the slash goes, not letters of the host
    ],
)
def test_a_server_url_is_kept_without_its_trailing_slash(arg: str, uri: str) -> None:
    assert milvus_client.parse_uri(arg) == uri


def test_a_local_file_is_made_absolute(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert milvus_client.parse_uri("sub/vectors.db") == str(tmp_path / "sub" / "vectors.db")


@pytest.mark.parametrize(
    ("arg", "line"),
    [
        (
            "vectors.txt",
            "dense index milvus:vectors.txt: name a Milvus Lite file (PATH.db)"
            " or a server (http://HOST:19530)",
        ),
        ("http://host:19530/db", "milvus server 'http://host:19530/db': use http(s)://HOST:PORT"),
    ],
)
def test_a_uri_that_is_neither_is_one_line(arg: str, line: str) -> None:
    with pytest.raises(ConfigError) as raised:
        milvus_client.parse_uri(arg)
    assert str(raised.value) == line
