"""`codeagent cache list | prune | clear`."""

from __future__ import annotations

import json
import os
import time

from click.testing import CliRunner

from codeagent.cli.main import cli
from codeagent.config import Settings
from conftest import GitRepoFactory


def index(root: object, *extra: str) -> None:
    result = CliRunner().invoke(cli, ["index", "--repo", str(root), "--embed", "hash:16", *extra])
    assert result.exit_code == 0, result.output


def test_list_prune_clear(git_repo: GitRepoFactory) -> None:
    runner = CliRunner()
    assert "no cached indexes" in runner.invoke(cli, ["cache", "list"]).stdout
    root = git_repo({"a.py": "x = 1\n"})
    for i in range(3):
        (root / "a.py").write_text(f"x = {i}\n", encoding="utf-8")
        index(root)
    listed = json.loads(runner.invoke(cli, ["cache", "list", "--json"]).stdout)
    assert [(r["repo"], r["states"]) for r in listed["repos"]] == [(str(root), 3)]
    table = runner.invoke(cli, ["cache", "list"]).stdout
    assert table.splitlines()[1].split()[0] == "3"
    assert table.splitlines()[1].endswith(str(root))

    pruned = runner.invoke(cli, ["cache", "prune", "--keep", "1"])
    assert pruned.exit_code == 0
    assert "removed 2 index states" in pruned.stdout
    listed = json.loads(runner.invoke(cli, ["cache", "list", "--json"]).stdout)
    assert listed["repos"][0]["states"] == 1

    then = time.time() - 60  # an index a minute old: its refreshed copy is kept
    os.utime(root / ".git" / "index", (then, then))
    index(root)
    copies = Settings.load().git_index_dir
    assert [p for p in copies.iterdir() if p.name != ".gitignore"]
    (copies / "notes.txt").write_text("mine\n", encoding="utf-8")  # not codeagent's

    refused = runner.invoke(cli, ["cache", "clear"], input="n\n")
    assert refused.exit_code != 0
    assert json.loads(runner.invoke(cli, ["cache", "list", "--json"]).stdout)["repos"]
    cleared = runner.invoke(cli, ["cache", "clear", "--yes", "--embeddings"])
    assert cleared.exit_code == 0
    assert "removed the indexes of 1 repository and" in cleared.stdout
    assert json.loads(runner.invoke(cli, ["cache", "list", "--json"]).stdout)["repos"] == []
    assert sorted(p.name for p in copies.iterdir()) == [".gitignore", "notes.txt"]
