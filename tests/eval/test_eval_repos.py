"""Where a suite's repo is found: stdlib:, --repo-map, URLs, local paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.errors import EvalError, RepoNotFoundError
from codeagent.eval.repos import checkout, parse_repo_map, repo_key, stdlib_dir
from conftest import GitRepoFactory, git


class Recorder:
    def __init__(self, result: Path) -> None:
        self.result = result
        self.calls: list[tuple[str, str | None]] = []

    def __call__(self, spec: str, settings: Settings, *, commit: str | None = None) -> Path:
        self.calls.append((spec, commit))
        return self.result


def test_stdlib_roots() -> None:
    settings = Settings.load()
    assert stdlib_dir() == Path(json.__file__).resolve().parent.parent
    assert checkout("stdlib:", None, settings) == stdlib_dir()
    assert checkout("stdlib:json", None, settings) == stdlib_dir() / "json"
    with pytest.raises(RepoNotFoundError, match="stdlib:nosuchpkg"):
        checkout("stdlib:nosuchpkg", None, settings)
    with pytest.raises(EvalError, match="takes no commit"):
        checkout("stdlib:json", "abcdef1", settings)
    with pytest.raises(EvalError, match="cannot leave"):
        checkout("stdlib:../..", None, settings)


@pytest.mark.parametrize(
    ("spec", "key"),
    [
        ("https://github.com/psf/requests", "psf/requests"),
        ("https://github.com/Psf/Requests.git", "psf/requests"),
        ("git@github.com:psf/requests.git", "psf/requests"),
        ("psf/requests", "psf/requests"),
        ("/some/path/", "/some/path"),
    ],
)
def test_repo_key(spec: str, key: str) -> None:
    assert repo_key(spec) == key


def test_parse_repo_map(tmp_path: Path) -> None:
    got = parse_repo_map([f"https://github.com/psf/requests={tmp_path}"])
    assert got == {"psf/requests": tmp_path.resolve()}
    with pytest.raises(EvalError, match="NAME=PATH"):
        parse_repo_map(["psf/requests"])
    with pytest.raises(EvalError, match="does not exist"):
        parse_repo_map([f"psf/requests={tmp_path / 'nope'}"])


def test_mapped_mirror_is_cloned_at_the_full_commit(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    source = git_repo({"a.py": "x = 1\n"})
    full = git(source, "rev-parse", "HEAD").strip()
    mirror = tmp_path / "mirror.git"
    git(tmp_path, "clone", "-q", "--mirror", str(source), str(mirror))
    resolver = Recorder(tmp_path / "checkout")
    mapping = parse_repo_map([f"o/r={mirror}"])
    got = checkout(
        "https://github.com/o/r", full[:7], Settings.load(), repo_map=mapping, resolver=resolver
    )
    assert got == tmp_path / "checkout"
    assert resolver.calls == [(str(mirror.resolve()), full)]


def test_urls_owner_names_and_local_paths(tmp_path: Path) -> None:
    resolver = Recorder(tmp_path)
    settings = Settings.load()
    checkout("https://example.org/x.git", "abc1234", settings, resolver=resolver)
    checkout("o/r", "abc1234", settings, base_dir=tmp_path, resolver=resolver)
    (tmp_path / "local").mkdir()
    checkout("local", None, settings, base_dir=tmp_path, resolver=resolver)
    assert resolver.calls == [
        ("https://example.org/x.git", "abc1234"),
        ("https://github.com/o/r", "abc1234"),
        (str(tmp_path / "local"), None),
    ]
