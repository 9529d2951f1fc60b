"""A repository made by someone else (a cloned URL, an archive with its .git folder): odd file
names, unreadable files, link loops, FIFOs, huge files and a hostile git config. Each is a skip
counted by reason or a typed AST failure that falls back; nothing runs code from it."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from codeagent.cli.main import cli
from conftest import GitRepoFactory, git
from faults.run import codeagent, permissions_prefix

FILES = {
    "pkg/core.py": "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n",
    "pkg/locked.py": "def hidden():\n    return 3\n",
}


def run(*args: str, prefix: list[str] | None = None) -> tuple[int, str, str]:
    """The CLI in-process (fast), or in a subprocess when a ``prefix`` must wrap it."""
    if prefix:
        done = codeagent(*args, prefix=prefix)
        return done.returncode, done.stdout, done.stderr
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stdout, result.stderr


def index_json(root: Path, *, prefix: list[str] | None = None) -> dict:
    code, out, err = run("index", "--repo", str(root), "--embed", "none", "--json", prefix=prefix)
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out)


def ask_json(root: Path, question: str, *, prefix: list[str] | None = None) -> dict:
    code, out, err = run("ask", question, "--repo", str(root), "--llm", "none", "--embed",
                         "none", "--json", prefix=prefix)  # fmt: skip
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out)


def test_a_non_utf8_file_name_is_skipped_and_counted(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    bad = os.fsencode(root) + b"/pkg/bad\xff.py"
    with open(bad, "wb") as handle:
        handle.write(b"def strange():\n    return 4\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bad name")
    stats = index_json(root)
    assert stats["files_skipped"] == {"bad_name": 1}
    assert stats["files_indexed"] == 2
    answer = ask_json(root, "where is beta defined")
    assert next(s["path"] for s in answer["sources"]) == "pkg/core.py"


def test_an_unreadable_tracked_file_is_skipped_and_the_ast_tool_falls_back(
    git_repo: GitRepoFactory,
) -> None:
    prefix = permissions_prefix()
    if prefix is None:
        pytest.skip("cannot drop root's permission override here")
    root = git_repo(FILES)
    locked = root / "pkg" / "locked.py"
    locked.chmod(0)
    try:
        stats = index_json(root, prefix=prefix)
        assert stats["files_skipped"] == {"unreadable": 1}
        assert stats["files_indexed"] == 1
        answer = ask_json(root, "list the functions in pkg/locked.py", prefix=prefix)
    finally:
        locked.chmod(0o644)
    assert answer["route"]["tool"] == "ast"
    assert answer["fallback"]["from"] == "ast"
    assert "cannot be read" in answer["fallback"]["reason"]


def test_a_symlink_loop_is_neither_indexed_nor_a_crash(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    os.symlink("loop2.py", root / "loop1.py")
    os.symlink("loop1.py", root / "loop2.py")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "loop")
    assert index_json(root)["files_skipped"] == {"not_regular": 2}
    answer = ask_json(root, "list the functions in loop1.py")
    assert answer["route"]["tool"] == "rag"
    assert "loop1.py" not in {s["path"] for s in answer["sources"]}


def test_a_fifo_never_blocks(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    root = git_repo(FILES)
    os.mkfifo(root / "pkg" / "pipe.py")  # git does not list it; a folder walk does
    assert index_json(root)["files_indexed"] == 2
    answer = ask_json(root, "list the functions in pkg/pipe.py")
    assert "pipe.py" not in {s["path"] for s in answer["sources"]}
    assert "not a regular file" in (answer["fallback"] or answer["route"])["reason"]
    plain = tmp_path / "plain"
    (plain / "pkg").mkdir(parents=True)
    (plain / "pkg" / "core.py").write_text(FILES["pkg/core.py"], encoding="utf-8")
    os.mkfifo(plain / "pkg" / "pipe.py")
    assert index_json(plain)["files_skipped"] == {"not_regular": 1}
    assert stat.S_ISFIFO(os.lstat(plain / "pkg" / "pipe.py").st_mode)


def test_a_huge_python_file_is_not_parsed(git_repo: GitRepoFactory) -> None:
    from codeagent.tools.ast_tool.source import MAX_PARSE_BYTES

    root = git_repo(FILES)
    with open(root / "pkg" / "huge.py", "wb") as handle:  # sparse: no real disk used
        handle.truncate(MAX_PARSE_BYTES + 1)
    stats = index_json(root)
    assert stats["files_skipped"] == {"too_large": 1}
    answer = ask_json(root, "list the functions in pkg/huge.py")
    assert answer["fallback"]["from"] == "ast"
    assert "too large" in answer["fallback"]["reason"]


def test_odd_but_valid_names_are_indexed_under_their_own_name(git_repo: GitRepoFactory) -> None:
    names = ["-rf.py", "--output=x.py", "new\nline.py", " space .py", "quote'\".py"]
    root = git_repo({**FILES, **{f"odd/{n}": f"def f{i}():\n    return {i}\n"
                                 for i, n in enumerate(names)}})  # fmt: skip
    stats = index_json(root)
    assert stats["files_indexed"] == 2 + len(names)
    assert stats["files_skipped"] == {}


def test_the_repository_git_config_runs_nothing(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    """core.fsmonitor and a filter's clean command in .git/config: git runs them on plain
    `ls-files` / `diff` (checked here first); codeagent's git calls must not."""
    root = git_repo({**FILES, ".gitattributes": "*.py filter=evil\n"})
    witness = tmp_path / "ran"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\necho ran >> {witness}\ncat\n", encoding="utf-8")
    hook.chmod(0o755)
    git(root, "config", "core.fsmonitor", str(hook))
    git(root, "config", "filter.evil.clean", str(hook))
    (root / "pkg" / "core.py").write_text("def alpha():\n    return 10\n", encoding="utf-8")
    git(root, "diff", "HEAD", "--stat")
    assert witness.exists()  # the hostile config is live for a plain git command
    witness.unlink()

    stats = index_json(root)
    assert stats["files_indexed"] == 3
    ask_json(root, "list the functions in pkg/core.py")
    assert not witness.exists()


def test_a_symlinked_gitignore_is_not_read(tmp_path: Path) -> None:
    from codeagent.repo.listing import list_files

    secret = tmp_path / "secret_patterns"
    secret.write_text("*.py\n", encoding="utf-8")
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n", encoding="utf-8")
    (root / ".gitignore").symlink_to(secret)
    assert "a.py" in list_files(root).paths


def test_a_copied_tree_is_indexed_and_asked_without_writing_its_git_folder(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    """A tree copied with its .git (an archive, a volume): every index entry's stat data is
    stale, and git's own `diff` rewrites such an index (checked live first). Indexing it, asking
    about it and following an edit leave .git byte for byte as it was."""
    import shutil

    copied = tmp_path / "copied"
    shutil.copytree(git_repo(FILES), copied, symlinks=True)
    for path in copied.rglob("*.py"):  # the same bytes at another time than the index holds
        os.utime(path, (1_000_000_000, 1_000_000_000))
    probe = tmp_path / "probe"
    shutil.copytree(copied, probe, symlinks=True)
    index = probe / ".git" / "index"
    before = index.stat().st_mtime_ns
    git(probe, "--no-optional-locks", "diff", "HEAD", "--quiet")
    assert index.stat().st_mtime_ns != before  # live: git's diff rewrote the index

    def git_folder() -> dict[str, tuple[int, bytes]]:
        return {
            str(p.relative_to(copied)): (p.stat().st_mtime_ns, p.read_bytes())
            for p in (copied / ".git").rglob("*")
            if p.is_file()
        }

    seen = git_folder()
    assert index_json(copied)["files_indexed"] == 2
    ask_json(copied, "where is beta defined")
    (copied / "pkg" / "core.py").write_text("def alpha():\n    return 10\n", encoding="utf-8")
    answer = ask_json(copied, "list the functions in pkg/core.py")
    assert "beta" not in json.dumps(answer.get("tool_result"))  # the edit is seen
    assert git_folder() == seen
