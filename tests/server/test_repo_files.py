"""The file a client may read from a served repository (``server.repos.safe_file`` and
``read_lines``): relative, no ``..``, no symlink anywhere on the way, indexed; the lines asked
for, inclusive, at most ``MAX_LINES``. Truth: the files and links the test makes, and
``Path.resolve().is_relative_to`` for what lies outside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from codeagent.server.repos import MAX_LINES, RequestError, ServedRepo, read_lines, safe_file
from conftest import write_files
from properties import fast


@pytest.fixture
def repo(tmp_path: Path) -> ServedRepo:
    write_files(tmp_path / "outside", {"secret.txt": "KEY=1\n", "dir/key.py": "K = 1\n"})
    root = tmp_path / "repo"
    lines = "".join(f"line {n}\n" for n in range(1, MAX_LINES + 11))
    write_files(root, {"src/x.py": "a\nb\nc\nd\n", "big.txt": lines, "src/sub/y.py": "y\n"})
    (root / "linked").symlink_to(tmp_path / "outside" / "dir")
    (root / "src" / "inner").symlink_to(root / "src" / "sub")
    return ServedRepo("repo", root)


def test_a_plain_file_is_found(repo: ServedRepo) -> None:
    assert safe_file(repo, "src/x.py") == repo.root / "src" / "x.py"


@pytest.mark.parametrize("rel", ["linked/key.py", "src/inner/y.py"])
def test_a_symlinked_folder_on_the_way_is_refused(repo: ServedRepo, rel: str) -> None:
    with pytest.raises(RequestError) as caught:
        safe_file(repo, rel)
    assert caught.value.status == 403


@pytest.mark.parametrize(
    "rel", ["src/../../outside/secret.txt", "../outside/secret.txt", "src/./../big.txt"]
)
def test_dot_dot_anywhere_is_refused(repo: ServedRepo, rel: str) -> None:
    if (repo.root / rel).exists():  # the danger is real: the path reaches a file
        assert (repo.root / rel).resolve().is_file()
    with pytest.raises(RequestError) as caught:
        safe_file(repo, rel)
    assert caught.value.status == 400


def test_the_lines_asked_for_and_no_more(repo: ServedRepo) -> None:
    got = read_lines(repo, "src/x.py", 2, 3, {"src/x.py"})
    assert got == {"repo": "repo", "path": "src/x.py", "start_line": 2, "lines": ["b", "c"]}
    assert read_lines(repo, "src/x.py", 1, 1, {"src/x.py"})["lines"] == ["a"]
    assert read_lines(repo, "src/x.py", 4, 99, {"src/x.py"})["lines"] == ["d"]


def test_at_most_max_lines(repo: ServedRepo) -> None:
    got = read_lines(repo, "big.txt", 5, MAX_LINES + 10, {"big.txt"})
    assert len(got["lines"]) == MAX_LINES
    assert got["lines"][0] == "line 5"
    assert got["lines"][-1] == f"line {MAX_LINES + 4}"


def test_a_file_the_index_does_not_hold_is_not_shown(repo: ServedRepo) -> None:
    with pytest.raises(RequestError) as caught:
        read_lines(repo, "src/x.py", 1, 2, {"big.txt"})
    assert caught.value.status == 404
    with pytest.raises(RequestError):
        read_lines(repo, "src/x.py", 3, 2, {"src/x.py"})


parts = st.sampled_from(["src", "x.py", "sub", "y.py", "..", ".", "linked", "inner", "key.py"])


@fast(60)
@given(st.lists(parts, min_size=1, max_size=5))
@example(["src", "x.py"])
@example(["src", "sub", "y.py"])
@example(["src", "inner", "y.py"])
@example(["linked", "key.py"])
@example(["src", "..", "src", "x.py"])
@example(["src", ".", "x.py"])
def test_whatever_is_asked_a_file_found_is_inside_and_reached_without_links(
    tmp_path_factory: pytest.TempPathFactory, names: list[str]
) -> None:
    served = _repo_once(tmp_path_factory)
    rel = "/".join(names)
    try:
        found = safe_file(served, rel)
    except RequestError:
        return
    assert found.resolve().is_relative_to(served.root.resolve())
    assert found.is_file()
    walked = served.root
    for part in found.relative_to(served.root).parts:
        walked = walked / part
        assert not walked.is_symlink(), rel


_made: dict[str, ServedRepo] = {}


def _repo_once(factory: pytest.TempPathFactory) -> ServedRepo:
    """One repository (with links in and out) for every example of the property."""
    if "repo" not in _made:
        base = factory.mktemp("containment")
        write_files(base / "outside", {"secret.txt": "KEY=1\n", "dir/key.py": "K = 1\n"})
        root = base / "repo"
        write_files(root, {"src/x.py": "x\n", "src/sub/y.py": "y\n"})
        (root / "linked").symlink_to(base / "outside" / "dir")
        (root / "src" / "inner").symlink_to(root / "src" / "sub")
        _made["repo"] = ServedRepo("repo", root)
    return _made["repo"]


BAD_PATH = "`path` must be a file path relative to the repository"
NOT_RELATIVE = "`path` must be relative and must not contain `..`"


@pytest.mark.parametrize(
    ("rel", "message"),
    [
        (5, BAD_PATH),  # not a string
        ("", BAD_PATH),
        ("src/x\x00.py", BAD_PATH),
        ("src\\x.py", BAD_PATH),  # a Windows separator alone
        ("file:///etc/passwd", BAD_PATH),
        ("/etc/passwd", NOT_RELATIVE),
        ("src/../src/x.py", NOT_RELATIVE),
    ],
)
def test_each_bad_path_alone_is_refused_with_its_reason(
    repo: ServedRepo, rel: object, message: str
) -> None:
    """Each rule broken alone (one bad character or form per path) is a 400 with the rule's
    own message (the API's words), never another error."""
    with pytest.raises(RequestError) as caught:
        safe_file(repo, rel)
    assert (str(caught.value), caught.value.status) == (message, 400)


def test_a_link_and_a_missing_file_are_named(repo: ServedRepo) -> None:
    with pytest.raises(RequestError) as caught:
        safe_file(repo, "linked/key.py")
    assert (str(caught.value), caught.value.status) == (
        "linked/key.py is a symbolic link; it is not shown",
        403,
    )
    with pytest.raises(RequestError) as caught:
        safe_file(repo, "src/none.py")
    assert (str(caught.value), caught.value.status) == ("no file src/none.py in repo", 404)


def test_read_lines_refusals_say_why(repo: ServedRepo) -> None:
    with pytest.raises(RequestError) as caught:
        read_lines(repo, "src/x.py", 1, 2, {"big.txt"})
    assert (str(caught.value), caught.value.status) == (
        "src/x.py is not an indexed file of repo",
        404,
    )
    for start, end in [(0, 2), (3, 2)]:
        with pytest.raises(RequestError) as caught:
            read_lines(repo, "src/x.py", start, end, {"src/x.py"})
        assert (str(caught.value), caught.value.status) == ("need 1 <= start <= end", 400)


def test_lines_keep_their_own_text(repo: ServedRepo) -> None:
    """Only the line end is taken off (trailing spaces and letters stay); bytes that are not
    UTF-8 read as U+FFFD, as ``bytes.decode(errors="replace")`` gives them."""
    raw = b"keep  \nendsXX\n\xff\xfeok\n"
    (repo.root / "odd.txt").write_bytes(raw)
    got = read_lines(repo, "odd.txt", 1, 3, {"odd.txt"})["lines"]
    assert got == raw.decode("utf-8", errors="replace").splitlines()
    assert got == ["keep  ", "endsXX", "\ufffd\ufffdok"]


def test_a_file_that_cannot_be_read_is_a_404_that_says_why(
    repo: ServedRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read fails after the checks (a permission changed between them and the read)."""
    import errno
    import pathlib

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(pathlib.Path, "open", refuse)
    with pytest.raises(RequestError) as caught:
        read_lines(repo, "src/x.py", 1, 2, {"src/x.py"})
    assert (str(caught.value), caught.value.status) == (
        f"cannot read src/x.py: {os.strerror(errno.EACCES)}",
        404,
    )
