"""The dense backend is a setting (CODEAGENT_DENSE / --dense): a toy backend in plain numpy,
added with one registration line here, is built, saved under its own file name, named in
the fingerprint, reopened and searched; an unknown name is one clear line."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cli.clirun import run
from codeagent.config import Settings
from codeagent.errors import ConfigError
from codeagent.index.build import load_or_build
from codeagent.store.dense import DEFAULT_BACKEND, backend_class, register_backend
from conftest import GitRepoFactory

FILES = {
    "a.py": "def parse_header(value):\n    return value.split('=')\n",
    "b.py": "def send_request(url):\n    return url\n",
}


class BruteIndex:
    """Exact search by a matrix product; ``brute:TAG`` names a configured variant."""

    backend = "brute"
    file_name = "dense.brute.npy"
    loads = 0

    def __init__(self, dim: int, rows: np.ndarray | None = None) -> None:
        self.dim = dim
        self.rows = rows if rows is not None else np.zeros((0, dim), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, vectors: np.ndarray) -> None:
        self.rows = np.vstack([self.rows, vectors]).astype(np.float32)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        scores = queries @ self.rows.T
        ids = np.argsort(-scores, axis=1)[:, :k]
        return np.take_along_axis(scores, ids, axis=1), ids

    def save(self, path: Path) -> None:
        with path.open("wb") as handle:
            np.save(handle, self.rows)

    @classmethod
    def load(cls, path: Path) -> BruteIndex:
        BruteIndex.loads += 1
        rows = np.load(path)
        return cls(rows.shape[1], rows)

    @classmethod
    def configured(cls, tag: str) -> type[BruteIndex]:
        return type("TaggedBruteIndex", (cls,), {"backend": f"brute-{tag}"})


@pytest.fixture
def brute() -> Iterator[None]:
    unregister = register_backend("brute", BruteIndex)  # the one registration line
    yield
    unregister()


def test_the_setting_chooses_the_backend(git_repo: GitRepoFactory, brute: None) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:32", dense="brute")
    store, stats = load_or_build(root, settings)
    entry = Path(stats.cache_path)
    assert store.manifest["dense_backend"] == "brute"
    assert (entry / "dense.brute.npy").is_file()
    assert not (entry / backend_class(DEFAULT_BACKEND).file_name).exists()
    rows = np.load(entry / "dense.brute.npy")
    assert rows.shape == (2, 32)  # one row per chunk of the two files written above
    BruteIndex.loads = 0
    again, hit = load_or_build(root, settings)
    assert hit.cache_hit
    assert again.search("send_request url", k=1)[0].path == "b.py"
    assert BruteIndex.loads == 1
    # Another backend is another fingerprint: another entry, never this one reopened.
    _other, faiss_stats = load_or_build(root, Settings.load(embed="hash:32"))
    assert not faiss_stats.cache_hit
    assert faiss_stats.state_hash != stats.state_hash


def test_the_environment_names_the_backend(
    git_repo: GitRepoFactory, brute: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEAGENT_DENSE", "brute:x")
    assert Settings.load().dense == "brute:x"
    store, _stats = load_or_build(git_repo(FILES), Settings.load(embed="hash:32"))
    assert store.manifest["dense_backend"] == "brute-x"  # the configured variant


def test_cli_dense_flag(git_repo: GitRepoFactory, brute: None) -> None:
    root = git_repo(FILES)
    flags = ("--repo", str(root), "--embed", "hash:32")
    built = run("index", *flags, "--dense", "brute", "--json")
    assert built.code == 0, built.err
    entry = Path(json.loads(built.out)["cache_path"])
    assert json.loads((entry / "manifest.json").read_text())["dense_backend"] == "brute"
    bad = run("index", *flags, "--dense", "nope")
    assert bad.code != 0
    assert bad.err.strip().splitlines() == [
        "error: unknown dense index backend 'nope': use brute, faiss, milvus"
    ]


def test_a_backend_without_arguments_refuses_one() -> None:
    with pytest.raises(ConfigError, match="takes no argument"):
        backend_class(f"{DEFAULT_BACKEND}:somewhere")


def test_eval_runs_on_the_backend_the_flag_names(
    git_repo: GitRepoFactory, brute: None, tmp_path: Path
) -> None:
    root = git_repo(FILES)
    item = {
        "id": "d1",
        "question": "how is a request sent to a url?",
        "repo": str(root),
        "expected_route": "rag",
        "expected_files": ["b.py"],
        "source": "written for this test",
    }
    suite = tmp_path / "dense.jsonl"
    suite.write_text(json.dumps(item) + "\n")
    out = tmp_path / "out"
    flags = ("--llm", "none", "--embed", "hash:32", "--out", str(out))
    done = run("eval", str(suite), *flags, "--dense", "brute")
    assert done.code == 0, done.err
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["dense"] == "brute"
    entries = list((Path(os.environ["CODEAGENT_HOME"]) / "cache").rglob("manifest.json"))
    assert [json.loads(m.read_text())["dense_backend"] for m in entries] == ["brute"]
    bad = run("eval", str(suite), *flags, "--dense", "nope")
    assert bad.code != 0
    assert bad.err.strip().splitlines()[-1].startswith("error: unknown dense index backend 'nope'")
