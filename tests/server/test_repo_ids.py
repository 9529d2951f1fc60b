"""The ids of served repositories (``server.repos.make_ids``): one distinct id per root, so no
repository is silently dropped or answered for another."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codeagent.errors import RepoNotFoundError
from codeagent.server.repos import make_ids, serve_roots


def test_three_folders_of_one_name_get_three_ids(tmp_path: Path) -> None:
    roots = [tmp_path / place / "app" for place in ("one", "two", "three")]
    served = make_ids(roots)
    assert [s.id for s in served] == ["app", "app-2", "app-3"]
    assert [s.root for s in served] == roots


def test_a_name_that_clashes_with_a_numbered_one_counts_on(tmp_path: Path) -> None:
    roots = [tmp_path / "a" / "app", tmp_path / "app-2", tmp_path / "b" / "app"]
    assert [s.id for s in make_ids(roots)] == ["app", "app-2", "app-3"]


def test_given_names_are_made_safe_and_urls_kept(tmp_path: Path) -> None:
    roots = [tmp_path / "x", tmp_path / "y", tmp_path / "z"]
    served = make_ids(roots, ["my repo!", None, "..."], [None, "https://example.com/y.git", None])
    assert [s.id for s in served] == ["my-repo", "y", "repo"]
    assert [s.url for s in served] == [None, "https://example.com/y.git", None]


def test_one_folder_named_twice_is_served_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same folder by its path, through a symlink and relative to the working folder is
    one repository (truth: ``os.path.samefile``)."""
    app = tmp_path / "work" / "app"
    app.mkdir(parents=True)
    (tmp_path / "link").symlink_to(app)
    monkeypatch.chdir(tmp_path / "work")
    specs = [str(app), str(tmp_path / "link"), "app", "./app/"]
    assert all(os.path.samefile(spec, app) for spec in specs)
    assert serve_roots(specs) == [app.resolve()]
    with pytest.raises(RepoNotFoundError):
        serve_roots([str(tmp_path / "missing")])
