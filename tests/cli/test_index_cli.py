"""`codeagent index`: stats, cache reuse, remote URLs, and one clear line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from codeagent.cli.main import cli
from codeagent.embed import embedders
from conftest import GitRepoFactory

FILES = {
    "app/core.py": '"""Core."""\nimport os\n\n\ndef run(path):\n    return os.path.exists(path)\n',
    "app/util.py": "def helper_function():\n    return 42\n",
    "README.md": "# App\n",
}
STAT_KEYS = {
    "files_indexed",
    "files_skipped",
    "chunks",
    "chunks_embedded",
    "chunks_reused",
    "embedder",
    "state_hash",
    "cache_path",
    "cache_hit",
    "seconds",
}


def codeagent(*args: str, script: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real entry point in a subprocess (the way a user sees errors)."""
    command = (
        [sys.executable, "-c", script, *args]
        if script
        else [sys.executable, "-m", "codeagent", *args]
    )
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env=os.environ.copy()
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def test_json_stats_then_cache_hit(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    runner = CliRunner()
    first = runner.invoke(cli, ["index", "--repo", str(root), "--embed", "hash:32", "--json"])
    assert first.exit_code == 0, first.output
    stats = json.loads(first.stdout)
    assert set(stats) >= STAT_KEYS
    assert (stats["files_indexed"], stats["chunks"], stats["chunks_embedded"]) == (3, 4, 4)
    assert stats["chunks_reused"] == 0
    assert set(stats["seconds"]) == {"discover", "chunk", "embed", "bm25", "dense", "save", "total"}
    assert Path(stats["cache_path"]).is_dir()
    second = runner.invoke(cli, ["index", "--repo", str(root), "--embed", "hash:32", "--json"])
    again = json.loads(second.stdout)
    assert (again["cache_hit"], again["chunks_embedded"], again["chunks_reused"]) == (True, 0, 4)
    assert again["state_hash"] == stats["state_hash"]


def test_the_repository_as_the_commands_argument(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    runner = CliRunner()
    by_option = runner.invoke(cli, ["index", "--repo", str(root), "--embed", "none", "--json"])
    given = runner.invoke(cli, ["index", str(root), "--embed", "none", "--json"])
    assert given.exit_code == 0, given.output
    first, again = json.loads(by_option.stdout), json.loads(given.stdout)
    assert (again["state_hash"], again["cache_hit"]) == (first["state_hash"], True)
    same = runner.invoke(cli, ["index", str(root), "--repo", str(root), "--embed", "none"])
    assert same.exit_code == 0, same.output
    mapped = runner.invoke(cli, ["map", str(root), "--embed", "none", "--json"])
    assert mapped.exit_code == 0, mapped.output
    assert {"app/core.py", "app/util.py"} <= {f["path"] for f in json.loads(mapped.stdout)["files"]}


def test_two_repositories_given_is_one_line(git_repo: GitRepoFactory) -> None:
    one, other = git_repo(FILES), git_repo({"b.py": "x = 1\n"})
    result = codeagent("index", str(one), "--repo", str(other), "--embed", "none")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"two repositories given ({one}, --repo {other})" in result.stderr


def test_human_summary_and_force(git_repo: GitRepoFactory) -> None:
    root = git_repo({**FILES, "logo.png": b"\x89PNG\x00\x00"})
    result = CliRunner().invoke(cli, ["index", "--repo", str(root), "--embed", "none", "--force"])
    assert result.exit_code == 0, result.output
    assert "3 files (skipped 1 binary; -vv lists them), 4 chunks" in result.stdout
    assert "embedder: none (BM25 only)" in result.stdout
    assert "index built in" in result.stdout


def test_max_file_bytes_flag(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    args = ["index", "--repo", str(root), "--embed", "none", "--json", "--max-file-bytes", "20"]
    stats = json.loads(CliRunner().invoke(cli, args).stdout)
    assert stats["files_skipped"]["too_large"] == 2


def test_notice_when_no_local_embedder(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedders, "local_available", lambda: False)
    root = git_repo(FILES)
    result = CliRunner().invoke(cli, ["index", "--repo", str(root), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["embedder"] == "none"
    assert "embedder: none (BM25 only)" in result.stderr
    assert "local" in result.stderr


def test_file_url_is_cloned_and_indexed(git_repo: GitRepoFactory, env_setup: Path) -> None:
    root = git_repo(FILES)
    result = CliRunner().invoke(
        cli, ["index", "--repo", root.as_uri(), "--embed", "none", "--json"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert Path(stats["repo"]).is_relative_to(env_setup / "repos")
    assert (stats["files_indexed"], stats["chunks"]) == (3, 4)


# -- bad input: one line on stderr, a non-zero exit, no traceback -------------------------


def test_missing_path(tmp_path: Path) -> None:
    result = codeagent("index", "--repo", str(tmp_path / "nope"), "--embed", "none")
    assert_one_line_error(result, "error:", "nope")


def test_path_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file.py"
    target.write_text("x = 1\n", encoding="utf-8")
    assert_one_line_error(codeagent("index", "--repo", str(target)), "error:", "file.py")


def test_empty_repository(git_repo: GitRepoFactory) -> None:
    root = git_repo({}, commit=False)
    result = codeagent("index", "--repo", str(root), "--embed", "none")
    assert_one_line_error(result, "error: no indexable files in")


def test_only_binaries(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.bin": b"\x00\x01", "b.bin": b"\x00\x02", "c.pyc": b"\x00\x03"})
    result = codeagent("index", "--repo", str(root), "--embed", "none")
    assert_one_line_error(result, "no indexable files", "3 binary")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_by_mode(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    (root / "app/util.py").chmod(0)
    result = codeagent("index", "--repo", str(root), "--embed", "none", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["files_skipped"] == {"unreadable": 1}


UNREADABLE = """
import sys
from codeagent.repo.discover import RepoFile
from codeagent.cli.main import main
original = RepoFile.read_text
def read_text(self):
    if self.path != "README.md":
        raise PermissionError(13, "Permission denied", str(self.abs_path))
    return original(self)
RepoFile.read_text = read_text
sys.argv = ["codeagent", *sys.argv[1:]]
main()
"""


def test_unreadable_files(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    args = ["index", "--repo", str(root), "--embed", "none", "--json"]
    result = codeagent(*args, script=UNREADABLE)
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert (stats["files_indexed"], stats["files_skipped"]) == (1, {"unreadable": 2})
    (root / "README.md").unlink()
    assert_one_line_error(codeagent(*args, script=UNREADABLE), "2 unreadable")


def test_ollama_not_answering(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)  # conftest points OLLAMA_HOST at 127.0.0.1:9, a closed port
    result = codeagent("index", "--repo", str(root), "--embed", "ollama:nomic-embed-text")
    assert_one_line_error(result, "error:", "OLLAMA_HOST", "127.0.0.1:9")


def test_bad_embed_spec(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    result = codeagent("index", "--repo", str(root), "--embed", "bert")
    assert_one_line_error(result, "error: unknown embedder")
    assert result.returncode == 2


CTRL_C = """
import os, signal, sys
from codeagent.index import build
from codeagent.embed.embedders import HashEmbedder
from codeagent.cli.main import main

class CtrlC(HashEmbedder):
    batches = 0
    def embed_documents(self, texts):
        if CtrlC.batches == 2:
            os.kill(os.getpid(), signal.SIGINT)  # the user presses Ctrl-C
        CtrlC.batches += 1
        return super().embed_documents(texts)

build.make_embedder = lambda spec, settings: CtrlC(32)
sys.argv = ["codeagent", *sys.argv[1:]]
main()
"""


def test_ctrl_c_mid_index_then_resume(git_repo: GitRepoFactory, env_setup: Path) -> None:
    root = git_repo({f"pkg/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(10)})
    os.environ["CODEAGENT_BATCH_SIZE"] = "3"
    try:
        args = ["index", "--repo", str(root), "--embed", "hash:32", "--json"]
        interrupted = codeagent(*args, script=CTRL_C)
        assert interrupted.returncode == 130
        assert interrupted.stdout == ""
        assert "Traceback" not in interrupted.stderr
        lines = [line for line in interrupted.stderr.splitlines() if line.strip()]
        assert lines[0].startswith("indexing: embedding 10 chunks")  # said first
        assert lines[1:] == ["interrupted"]
        repo_dirs = list((env_setup / "cache").iterdir())
        names = sorted(p.name for p in repo_dirs[0].iterdir())
        assert names == [".codeagent-index", ".gitignore", ".lock"]  # no half-written entry
        resumed = codeagent(*args)
        assert resumed.returncode == 0, resumed.stderr
        stats = json.loads(resumed.stdout)
        assert (stats["chunks"], stats["chunks_embedded"], stats["chunks_reused"]) == (10, 4, 6)
    finally:
        del os.environ["CODEAGENT_BATCH_SIZE"]


@pytest.mark.parametrize("order", ["after", "before"])
def test_the_summarys_hint_is_true(git_repo: GitRepoFactory, order: str) -> None:
    # "-vv lists them": `codeagent index -vv` (as the hint reads) or `codeagent -vv index`
    # lists the skipped file, without the debug lines of the libraries below it.
    repo = git_repo({**FILES, "data/blob.bin": b"\x00\x01" * 500})
    summary = codeagent("index", "--repo", str(repo), "--embed", "none")
    assert "skipped 1 binary; -vv lists them" in summary.stdout + summary.stderr
    args = ["index", "-vv"] if order == "after" else ["-vv", "index"]
    listed = codeagent(*args, "--force", "--repo", str(repo), "--embed", "none")
    assert listed.returncode == 0, listed.stderr
    assert "skipped data/blob.bin: binary" in listed.stderr
    assert "Popen" not in listed.stderr
    assert "DEBUG git." not in listed.stderr
    louder = codeagent(*args, "-v", "--force", "--repo", str(repo), "--embed", "none")
    assert louder.returncode == 0, louder.stderr  # -vvv: every library's debug lines too
    assert "skipped data/blob.bin: binary" in louder.stderr
    assert "filelock" not in listed.stderr  # a lock's lines: the library's, -vvv only
    assert "filelock" in louder.stderr
