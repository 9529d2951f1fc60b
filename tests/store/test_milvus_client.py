"""Which Milvus the token goes to: a server named by URL gets ``CODEAGENT_MILVUS_TOKEN``; a
local Milvus Lite file gets none (Milvus Lite checks no token, so only a recorded client shows
where it went). The recorded client stands in for ``pymilvus.MilvusClient`` and keeps the
arguments it was made with."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from codeagent.store import milvus_client

TOKEN = "root:Milvus-secret"


class RecordedClient:
    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, **kwargs: Any) -> None:
        RecordedClient.made.append(kwargs)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    monkeypatch.chdir(tmp_path)  # a URL taken for a file would make folders here
    fake = types.ModuleType("pymilvus")
    fake.MilvusClient = RecordedClient  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pymilvus", fake)
    monkeypatch.setattr(milvus_client, "_clients", {})
    monkeypatch.setenv(milvus_client.TOKEN_ENV, TOKEN)
    RecordedClient.made = []
    return RecordedClient.made


@pytest.mark.parametrize("url", ["http://milvus.internal:19530", "https://milvus.example.com"])
def test_a_server_gets_the_token(recorded: list[dict[str, Any]], url: str) -> None:
    client = milvus_client.client_for(url)
    assert isinstance(client, RecordedClient)
    assert recorded == [{"uri": url, "token": TOKEN, "timeout": milvus_client.TIMEOUT}]
    assert milvus_client.client_for(url) is client  # one client per URI
    assert len(recorded) == 1


def test_a_local_file_gets_no_token(recorded: list[dict[str, Any]], tmp_path: Path) -> None:
    db = tmp_path / "sub" / "vectors.db"
    milvus_client.client_for(str(db))
    assert recorded == [{"uri": str(db), "token": "", "timeout": milvus_client.TIMEOUT}]
    assert db.parent.is_dir()  # Milvus Lite needs its folder to exist
