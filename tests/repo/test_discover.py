"""discover(): candidates from git or a .gitignore-aware walk, skips counted by reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codeagent.errors import RepoNotFoundError
from codeagent.repo import discover as discover_mod
from codeagent.repo.discover import discover
from conftest import GitRepoFactory, git, write_files


def paths(root: Path, **kwargs: int) -> list[str]:
    return [f.path for f in discover(root, **kwargs).files]


# --- git repositories ---------------------------------------------------------------------


def test_git_tracked_and_untracked_but_not_ignored(git_repo: GitRepoFactory) -> None:
    root = git_repo({".gitignore": "*.log\nbuild/\n", "src/a.py": "a = 1\n", "README.md": "hi\n"})
    write_files(root, {"new.py": "n = 1\n", "debug.log": "x\n", "build/out.py": "o = 1\n"})
    found = discover(root)
    assert found.is_git
    assert found.root == root.resolve()
    assert [f.path for f in found.files] == [".gitignore", "README.md", "new.py", "src/a.py"]
    assert not found.skipped


def test_git_deleted_tracked_file_is_left_out_silently(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.py": "a = 1\n", "b.py": "b = 2\n"})
    (root / "b.py").unlink()
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py"]
    assert not found.skipped


def test_git_untracked_junk_dirs_skipped_but_tracked_kept(git_repo: GitRepoFactory) -> None:
    root = git_repo({"node_modules/kept/index.js": "module.exports = 1;\n", "a.py": "a = 1\n"})
    write_files(
        root,
        {
            "node_modules/other/index.js": "x\n",
            ".venv/lib/site.py": "x = 1\n",
            "pkg/__pycache__/m.py": "x = 1\n",
        },
    )
    assert paths(root) == ["a.py", "node_modules/kept/index.js"]


def test_git_subdirectory_root_lists_paths_relative_to_it(git_repo: GitRepoFactory) -> None:
    root = git_repo({"top.py": "t = 1\n", "pkg/mod.py": "m = 1\n", "pkg/sub/x.py": "x = 1\n"})
    found = discover(root / "pkg")
    assert found.is_git
    assert [f.path for f in found.files] == ["mod.py", "sub/x.py"]


def test_git_repo_without_files_is_empty_not_an_error(git_repo: GitRepoFactory) -> None:
    found = discover(git_repo())
    assert found.is_git
    assert found.files == []
    assert not found.skipped


def test_git_repo_of_only_binaries(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.bin": b"\x00\x01\x02", "img.png": b"\x89PNG\r\n\x1a\n\x00\x00"})
    found = discover(root)
    assert found.files == []
    assert found.skipped == {"binary": 2}


def test_git_tracked_secret_and_lockfile_are_skipped(git_repo: GitRepoFactory) -> None:
    root = git_repo({".env": "TOKEN=1\n", "poetry.lock": "x\n", "app.py": "a = 1\n"})
    found = discover(root)
    assert [f.path for f in found.files] == ["app.py"]
    assert found.skipped == {"secret": 1, "lockfile": 1}


def test_git_nested_untracked_repository_counts_as_not_regular(git_repo: GitRepoFactory) -> None:
    root = git_repo({"a.py": "a = 1\n"})
    nested = root / "vendor"
    nested.mkdir()
    git(nested, "init", "-q")
    (nested / "v.py").write_text("v = 1\n")
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"not_regular": 1}


# --- outside git --------------------------------------------------------------------------


def test_walk_honours_root_and_nested_gitignore(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            ".gitignore": "*.log\n/dist/\n",
            "a.py": "a = 1\n",
            "x.log": "x\n",
            "dist/d.py": "d = 1\n",
            "pkg/.gitignore": "generated_*.py\n!generated_keep.py\n",
            "pkg/generated_1.py": "g = 1\n",
            "pkg/generated_keep.py": "k = 1\n",
            "pkg/real.py": "r = 1\n",
            "pkg/dist/inner.py": "i = 1\n",  # "/dist/" is anchored to the root
            "other/generated_2.py": "o = 1\n",  # pkg's rule does not reach here
        },
    )
    found = discover(tmp_path)
    assert not found.is_git
    assert [f.path for f in found.files] == [
        ".gitignore",
        "a.py",
        "other/generated_2.py",
        "pkg/.gitignore",
        "pkg/dist/inner.py",
        "pkg/generated_keep.py",
        "pkg/real.py",
    ]


def test_walk_skips_git_dir_and_junk_dirs(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "a.py": "a = 1\n",
            ".git/config": "[core]\n",
            "__pycache__/a.py": "x\n",
            ".venv/lib.py": "x\n",
            "node_modules/m/index.js": "x\n",
            "src/__pycache__/b.py": "x\n",
        },
    )
    assert paths(tmp_path) == ["a.py"]


def test_walk_ignored_directory_is_not_entered(tmp_path: Path) -> None:
    write_files(
        tmp_path, {".gitignore": "out/\n!out/keep.py\n", "out/keep.py": "k\n", "b.py": "b\n"}
    )
    # As in git, a file cannot be re-included when its directory is excluded.
    assert paths(tmp_path) == [".gitignore", "b.py"]


# --- skip reasons -------------------------------------------------------------------------


def test_skip_reasons_are_counted(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "ok.py": "print('ok')\n",
            "data.bin": b"abc\x00def",
            "big.txt": "y" * 3000 + "\n",
            "package-lock.json": "{}\n",
            "Cargo.lock": "x\n",
            "deps.lock": "x\n",
            "app.min.js": "var a=1;\n",
            "bundle.js": "var a=1;" * 300,  # 2,400 bytes on one line
            ".env": "SECRET=1\n",
            ".env.local": "SECRET=1\n",
            ".env.example": "SECRET=\n",
            "server.pem": "-----BEGIN-----\n",
            "keys/id_rsa": "-----BEGIN-----\n",
            "keys/id_rsa.pub": "ssh-rsa AAAA\n",
            "empty.py": "",
            "blank.txt": "\n  \n",
        },
    )
    found = discover(tmp_path, max_bytes=2500)
    assert [f.path for f in found.files] == [".env.example", "keys/id_rsa.pub", "ok.py"]
    assert found.skipped == {
        "binary": 1,
        "too_large": 1,
        "lockfile": 3,
        "minified": 2,
        "secret": 4,
        "empty": 2,
    }


JAVADOC_PAGE = """\
<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html lang="en">
<head>
<!-- Generated by javadoc (version 1.7.0_10) on Sun Jul 14 20:03:28 PDT 2013 -->
<title>Parser (Tokens API)</title>
</head>
<body><h2>Class Parser</h2><pre>public class Parser</pre></body>
</html>
"""


def test_rendered_api_docs_are_skipped_and_written_pages_kept(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "src/Parser.java": "public class Parser {}\n",
            "docs/javadoc/1.0/Parser.html": JAVADOC_PAGE,
            "docs/doxygen/parser_8h.html": '<html><head>\n<meta name="generator" '
            'content="Doxygen 1.9.1"/>\n</head><body>parser.h</body></html>\n',
            "doc/api/parser/index.html": '<html><head><meta name="generator" content="rustdoc">'
            "<title>parser</title></head></html>\n",
            "docs/guide.html": "<html><head><title>Guide</title></head>\n"
            "<body>Generated by javadoc is a phrase in the text, not a mark</body></html>\n",
            "notes.txt": "<!-- Generated by javadoc -->, said the notes\n",
        },
    )
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["docs/guide.html", "notes.txt", "src/Parser.java"]
    assert found.skipped == {"generated_docs": 3}


def test_default_size_cap_is_one_megabyte(tmp_path: Path) -> None:
    write_files(tmp_path, {"huge.txt": "x = 1\n" * 200_000, "small.txt": "x\n"})  # 1.2 MB
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["small.txt"]
    assert found.skipped == {"too_large": 1}


def test_symlinks_out_of_the_root_are_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_files(outside, {"secret.py": "s = 1\n", "dir/inner.py": "i = 1\n"})
    root = tmp_path / "root"
    write_files(root, {"a.py": "a = 1\n", "sub/b.py": "b = 1\n"})
    (root / "file_link.py").symlink_to(outside / "secret.py")
    (root / "dir_link").symlink_to(outside / "dir")
    (root / "rel_link.py").symlink_to(Path("..") / "outside" / "secret.py")
    (root / "inside_link.py").symlink_to(root / "sub" / "b.py")
    (root / "inside_dir_link").symlink_to(root / "sub")
    (root / "dangling.py").symlink_to(root / "nowhere.py")
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py", "inside_link.py", "sub/b.py"]
    assert found.skipped == {"symlink_outside": 3, "not_regular": 2}
    for f in found.files:
        assert f.abs_path.resolve().is_relative_to(root.resolve())


def test_a_link_into_a_sibling_sharing_the_roots_name_is_outside(tmp_path: Path) -> None:
    """``repo-private`` starts with the characters of ``repo`` but is not inside it: a link
    from ``repo`` into it is skipped (truth: ``Path.resolve().is_relative_to``)."""
    write_files(tmp_path / "repo-private", {"key.py": "KEY = 'secret'\n", "d/k2.py": "K = 2\n"})
    root = tmp_path / "repo"
    write_files(root, {"a.py": "a = 1\n"})
    (root / "k.py").symlink_to(Path("..") / "repo-private" / "key.py")
    (root / "abs_k.py").symlink_to(tmp_path / "repo-private" / "key.py")
    (root / "d").symlink_to(tmp_path / "repo-private" / "d")
    links = [root / "k.py", root / "abs_k.py", root / "d" / "k2.py"]
    assert not any(link.resolve().is_relative_to(root.resolve()) for link in links)
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"symlink_outside": 3}


def test_symlink_out_of_a_git_repo_is_not_followed(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    (tmp_path / "elsewhere.py").write_text("e = 1\n")
    root = git_repo({"a.py": "a = 1\n"})
    (root / "link.py").symlink_to(tmp_path / "elsewhere.py")
    (root / "linkdir").symlink_to(tmp_path)
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"symlink_outside": 2}


def test_fifo_is_not_regular(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.py": "a = 1\n"})
    os.mkfifo(tmp_path / "pipe")
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"not_regular": 1}


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_chmod(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.py": "a = 1\n", "locked.py": "l = 1\n"})
    (tmp_path / "locked.py").chmod(0)
    try:
        found = discover(tmp_path)
    finally:
        (tmp_path / "locked.py").chmod(0o644)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"unreadable": 1}


def test_unreadable_file_simulated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_files(tmp_path, {"a.py": "a = 1\n", "locked.py": "l = 1\n"})
    real_open = open

    def fake_open(file: str, *args: object, **kwargs: object) -> object:
        if str(file).endswith("locked.py"):
            raise PermissionError(13, "Permission denied", file)
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(discover_mod, "open", fake_open, raising=False)
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"unreadable": 1}


def test_non_utf8_file_is_kept_and_decoded_with_replacement(tmp_path: Path) -> None:
    write_files(tmp_path, {"latin.py": "name = 'caf\xe9'\n".encode("latin-1")})
    (only,) = discover(tmp_path).files
    assert only.size == len("name = 'caf\xe9'\n")
    assert only.read_text() == "name = 'caf\ufffd'\n"


def test_read_text_drops_a_bom(tmp_path: Path) -> None:
    write_files(tmp_path, {"bom.py": b"\xef\xbb\xbfx = 1\n"})
    (only,) = discover(tmp_path).files
    assert only.read_text() == "x = 1\n"


# --- bad roots ----------------------------------------------------------------------------


def test_missing_root(tmp_path: Path) -> None:
    with pytest.raises(RepoNotFoundError, match="no such directory") as info:
        discover(tmp_path / "nope")
    assert "\n" not in str(info.value)


def test_file_as_root(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text("x = 1\n")
    with pytest.raises(RepoNotFoundError, match="not a directory") as info:
        discover(tmp_path / "f.py")
    assert "\n" not in str(info.value)


def test_root_is_resolved_and_paths_stay_inside(tmp_path: Path) -> None:
    write_files(tmp_path, {"repo/a.py": "a = 1\n", "repo/sub/b.py": "b = 1\n"})
    found = discover(tmp_path / "repo" / "sub" / "..")
    assert found.root == (tmp_path / "repo").resolve()
    assert [f.path for f in found.files] == ["a.py", "sub/b.py"]
    for f in found.files:
        assert ".." not in f.path.split("/")
        assert f.abs_path.resolve().is_relative_to(found.root)


def test_tracked_directory_replaced_by_outside_symlink(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo({"pkg/mod.py": "m = 1\n", "a.py": "a = 1\n"})
    outside = tmp_path / "elsewhere"
    write_files(outside, {"mod.py": "stolen = 1\n"})
    for child in (root / "pkg").iterdir():
        child.unlink()
    (root / "pkg").rmdir()
    (root / "pkg").symlink_to(outside)
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py"]
    # Both the tracked pkg/mod.py (reached through the link) and the untracked link itself.
    assert found.skipped == {"symlink_outside": 2}


def test_git_directory_ignored_by_an_outer_repository_is_walked(
    git_repo: GitRepoFactory,
) -> None:
    outer = git_repo({".gitignore": "scratch/\n", "o.py": "o = 1\n"})
    write_files(outer, {"scratch/s.py": "s = 1\n", "scratch/t.log": "t\n"})
    found = discover(outer / "scratch")
    assert not found.is_git
    assert [f.path for f in found.files] == ["s.py", "t.log"]


def test_the_name_globs_agree_with_fnmatch() -> None:
    """The secret and lock-file globs, matched as one pattern each, say what fnmatchcase says
    of each glob on its own: for names around every glob (its literal part, prefixed,
    suffixed, another case, with a newline)."""
    import fnmatch

    from codeagent.repo import discover as module

    for globs, name_matches in (
        (module.SECRET_GLOBS, module._SECRET_GLOB.match),
        (module.LOCKFILE_GLOBS, module._LOCKFILE_GLOB.match),
    ):
        literals = [g.replace("*", "") for g in globs]
        names = {"", "a", ".", "*", "x.py", "README"}
        for lit in literals:
            names |= {lit, "a" + lit, lit + "a", lit.upper(), lit + "\n", "\n" + lit, lit + ".py"}
        hits = 0
        for name in sorted(names):
            expected = any(fnmatch.fnmatchcase(name, g) for g in globs)
            assert bool(name_matches(name)) == expected, (globs, name)
            hits += expected
        assert 0 < hits < len(names)
