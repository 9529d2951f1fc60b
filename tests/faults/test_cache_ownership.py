"""`cache clear` deletes only what codeagent made: marked repository folders under the cache."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from codeagent.cli.main import cli
from codeagent.store.cache import OWNER_MARK
from conftest import GitRepoFactory


def test_clear_leaves_unmarked_folders_and_links_alone(
    git_repo: GitRepoFactory, env_setup: Path, tmp_path: Path
) -> None:
    root = git_repo({"a.py": "def f():\n    return 1\n"})
    runner = CliRunner()
    assert runner.invoke(cli, ["index", "--repo", str(root), "--embed", "none"]).exit_code == 0
    cache = env_setup / "cache"
    [ours] = [p for p in cache.iterdir()]
    assert (ours / OWNER_MARK).is_file()
    # A user's folder that happens to sit there, and a link to a folder elsewhere.
    (cache / "fixtures").mkdir()
    (cache / "fixtures" / "data.txt").write_text("precious\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep\n", encoding="utf-8")
    (outside / OWNER_MARK).write_text("", encoding="utf-8")  # even marked, a link is not ours
    (cache / "linked").symlink_to(outside, target_is_directory=True)

    result = runner.invoke(cli, ["cache", "clear", "--yes"])
    assert result.exit_code == 0, result.output
    assert "removed the indexes of 1 repository" in result.stdout
    assert "left alone 2 entries" in result.stderr
    assert "fixtures" in result.stderr
    assert not ours.exists()
    assert (cache / "fixtures" / "data.txt").read_text(encoding="utf-8") == "precious\n"
    assert (outside / "keep.txt").is_file()
    listed = runner.invoke(cli, ["cache", "list", "--json"])
    assert '"repos": []' in listed.stdout


def test_prune_skips_unmarked_folders(env_setup: Path) -> None:
    stranger = env_setup / "cache" / "stranger"
    for name in ("a", "b", "c", "d"):
        (stranger / name).mkdir(parents=True)
    result = CliRunner().invoke(cli, ["cache", "prune", "--keep", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in stranger.iterdir()) == ["a", "b", "c", "d"]
