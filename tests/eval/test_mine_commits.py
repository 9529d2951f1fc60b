"""eval/mine_commits.py: which commits of a real git history become question -> files examples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import GitRepoFactory
from eval_scripts import EVAL, load_script

LONG = "Make the retry loop honour the backoff factor when the server sends Retry-After"


@pytest.fixture(scope="module")
def mine_commits() -> ModuleType:
    return load_script("mine_commits")


def commit(root: Path, message: str, files: dict[str, str], author: str = "Dev") -> str:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    who = f"--author={author} <dev@example.invalid>"
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", who, "-m", message], check=True)
    out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True)
    return out.stdout.decode().strip()


def test_only_informative_commits_of_source_files_are_examples(
    git_repo: GitRepoFactory, mine_commits: ModuleType
) -> None:
    root = git_repo({"pkg/retry.py": "x = 1\n", "pkg/util.py": "y = 1\n", "README.md": "hi\n"})
    base = commit(root, "start", {"pkg/a.py": "a = 0\n"})
    good = commit(
        root,
        f"{LONG}\n\nThe factor was read once.\n\nSigned-off-by: Dev <dev@example.invalid>",
        {"pkg/retry.py": "x = 2\n", "tests/test_retry.py": "def test(): pass\n"},
    )
    commit(root, "Fix typo in the retry loop docstring so that it reads well for every user", {
        "pkg/retry.py": "x = 3\n"})  # fmt: skip
    commit(root, "Bump version to 2.0.1 for the release of the retry changes and more", {
        "pkg/util.py": "y = 2\n"})  # fmt: skip
    commit(root, f"{LONG} (new module)", {"pkg/new.py": "z = 1\n"})  # added: not at the parent
    commit(root, f"{LONG} and more", {f"pkg/m{i}.py": "m = 1\n" for i in range(4)})  # 4 new
    commit(root, "Too short a message", {"pkg/util.py": "y = 3\n"})
    commit(root, f"{LONG} in the tests only", {"tests/test_retry.py": "def test(): 1\n"})
    commit(root, f"{LONG}, by a bot", {"pkg/util.py": "y = 4\n"}, author="renovate[bot]")
    found = mine_commits.mine(root / ".git", "acme/retry", per_repo=10, seed=0)
    assert [e["id"] for e in found] == [f"acme/retry@{good[:12]}"]
    example = found[0]
    assert example["commit"] == base  # asked at the parent
    assert example["expected_files"] == ["pkg/retry.py"]  # the test file is not a source file
    assert example["question"] == f"{LONG}\n\nThe factor was read once."  # no trailer


def test_clean_message(mine_commits: ModuleType) -> None:
    text = "Fix the parser (#1234) [skip ci]\n\n\n\nCo-authored-by: A <a@b.c>\nReviewed-by: B"
    assert mine_commits.clean_message(text) == "Fix the parser"


def test_language_sets_which_files_are_source(
    git_repo: GitRepoFactory, mine_commits: ModuleType
) -> None:
    root = git_repo({"mux.go": "package mux\n", "route.go": "package mux\n", "app.py": "x = 1\n"})
    go = commit(root, LONG, {"route.go": "package mux // 2\n", "route_test.go": "package mux\n"})
    commit(root, f"{LONG} in the tests", {"route_test.go": "package mux // 2\n"})
    py = commit(root, f"{LONG} in python", {"app.py": "x = 2\n"})
    tooling = commit(root, f"Run gofmt over the router: {LONG}", {"mux.go": "package mux //\n"})
    found = mine_commits.mine(root / ".git", "acme/mux", per_repo=10, seed=0, language="go")
    assert {e["id"]: e["expected_files"] for e in found} == {f"acme/mux@{go[:12]}": ["route.go"]}
    python = mine_commits.mine(root / ".git", "acme/mux", per_repo=10, seed=0)
    assert [e["id"] for e in python] == [f"acme/mux@{py[:12]}"]
    # A formatter of another language is tooling for that language only: Python's list of
    # boring subjects is the one the Python corpus was mined with.
    subject = f"Run gofmt over the router: {LONG}"
    changes = [("M", "mux.go")]
    assert not mine_commits.is_example(subject, subject, "Dev", changes, "go")
    assert mine_commits.is_example(subject, subject, "Dev", [("M", "a.py")], "python")
    assert tooling not in {str(e["id"]).rpartition("@")[2] for e in found}


def test_typescript_tests_and_typings_are_not_expected_files(
    git_repo: GitRepoFactory, mine_commits: ModuleType
) -> None:
    root = git_repo({"src/hono.ts": "1\n", "src/hono.test.ts": "1\n", "types/index.d.ts": "1\n"})
    good = commit(
        root,
        LONG,
        {"src/hono.ts": "2\n", "src/hono.test.ts": "2\n", "types/index.d.ts": "2\n"},
    )
    commit(root, f"{LONG} typings", {"types/index.d.ts": "3\n"})
    found = mine_commits.mine(root / ".git", "acme/hono", per_repo=10, seed=0, language="js")
    assert [(e["id"], e["expected_files"]) for e in found] == [
        (f"acme/hono@{good[:12]}", ["src/hono.ts"])
    ]


def test_repositories_of_the_langs_split(mine_commits: ModuleType) -> None:
    corpus = {
        "fit": ["a/py"],
        "langs": {"about": "text", "go": ["g/mux"], "js": ["h/hono", "k/ky"]},
        "bench": {"fit": ["s/sympy"]},
    }
    assert mine_commits.repositories(corpus, "fit, langs") == [
        ("a/py", "python"),
        ("g/mux", "go"),
        ("h/hono", "js"),
        ("k/ky", "js"),
    ]
    with pytest.raises(mine_commits.EvalError, match="no split 'bench'"):
        mine_commits.repositories(corpus, "bench")
    with pytest.raises(mine_commits.EvalError, match=r"unknown language families.*cobol"):
        mine_commits.repositories({"langs": {"cobol": ["x/y"]}}, "langs")


def test_command_line_errors_are_one_line(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "eval" / "mine_commits.py"
    for extra in (["--splits", "nosuch"], ["--language", "cobol"]):
        done = subprocess.run(
            [sys.executable, str(script), "--mirrors", str(tmp_path), *extra],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 2
        assert "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines()[-1].startswith("mine_commits")


def test_a_commits_record_of_other_repositories_is_kept(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    """Run where some recorded repositories have no mirror, ``--commits`` would lose their
    rows: the record stays as it was, one line says why, exit 2; ``--force`` overwrites."""
    root = git_repo({"pkg/retry.py": "x = 1\n"})
    commit(root, f"{LONG} for good", {"pkg/retry.py": "x = 2\n"})
    mirrors = tmp_path / "mirrors"
    (mirrors / "psf+black").mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(root), str(mirrors / "psf+black" / "repo")],
                   check=True)  # fmt: skip
    corpus = tmp_path / "corpus.json"
    corpus.write_text('{"fit": ["psf/black", "pallets/click"]}')
    record = tmp_path / "commits.tsv"
    kept = "repo\tcommit\tparent\npallets/click\tabc\tdef\n"
    record.write_text(kept)
    args = [sys.executable, str(EVAL / "mine_commits.py"), "--mirrors", str(mirrors), "--repos",
            str(corpus), "--splits", "fit", "--out", str(tmp_path / "out.jsonl"),
            "--commits", str(record)]  # fmt: skip
    env = {"PYTHONPATH": str(EVAL.parent / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"mine_commits: {record} records commits of 1 repository this run has none of"
        " (pallets/click): not overwritten (--force overwrites it)"
    )
    assert record.read_text() == kept
    assert not (tmp_path / "out.jsonl").exists()
    done = subprocess.run([*args, "--force"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert record.read_text().splitlines()[1].startswith("psf/black\t")
