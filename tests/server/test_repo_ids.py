"""The ids of served repositories (``server.repos.make_ids``): one distinct id per root, so no
repository is silently dropped or answered for another."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codeagent.errors import RepoNotFoundError
from codeagent.server.repos import RequestError, make_ids, pick, serve_roots


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


def test_ids_keep_capitals_and_inner_letters(tmp_path: Path) -> None:
    roots = [tmp_path / "MyApp", tmp_path / "Xtra", tmp_path / "q"]
    served = make_ids(roots, [None, None, "-.X-ray.-"])
    assert [s.id for s in served] == ["MyApp", "Xtra", "X-ray"]


def test_a_missing_directory_is_named(tmp_path: Path) -> None:
    with pytest.raises(RepoNotFoundError) as caught:
        serve_roots([str(tmp_path / "missing")])
    assert str(caught.value) == f"no such directory: {tmp_path / 'missing'}"


def test_a_served_repository_as_json(tmp_path: Path) -> None:
    plain, cloned = make_ids([tmp_path / "a", tmp_path / "b"], urls=[None, "https://h/b.git"])
    assert plain.to_json() == {"id": "a", "name": "a", "root": str(tmp_path / "a")}
    assert cloned.to_json() == {
        "id": "b",
        "name": "b",
        "root": str(tmp_path / "b"),
        "url": "https://h/b.git",
    }


def test_pick_names_the_repository_or_says_why_not(tmp_path: Path) -> None:
    one = {s.id: s for s in make_ids([tmp_path / "a"])}
    two = {s.id: s for s in make_ids([tmp_path / "b", tmp_path / "a"])}
    assert pick(one, None) is one["a"]
    assert pick(one, "") is one["a"]
    assert pick(two, "b") is two["b"]
    for name in (None, ""):
        with pytest.raises(RequestError) as caught:
            pick(two, name)
        assert (str(caught.value), caught.value.status) == (
            "name a repository: `repo` is one of a, b",
            400,
        )
    bad = "`repo` must be the id of a served repository (see list_repositories or GET /v1/repos)"
    for name in (5, "../a", "a..b", "-a", "a/b", "a" * 65):
        with pytest.raises(RequestError) as caught:
            pick(two, name)
        assert (str(caught.value), caught.value.status) == (bad, 400), name
    with pytest.raises(RequestError) as caught:
        pick(two, "c")
    assert (str(caught.value), caught.value.status) == (
        "no served repository 'c' (see list_repositories or GET /v1/repos)",
        404,
    )
