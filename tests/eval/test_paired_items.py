"""eval/paired_items.py: a bench report and the pseudo-issue its own fix makes, from a real git
history with a pull request merged beside other work."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from conftest import GitRepoFactory, git
from eval_scripts import load_with_siblings

MOD = "def parse(text):\n    return text.split()\n\n\ndef other():\n    return 1\n"
FIXED = "def parse(text):\n    if not text:\n        return []\n    return text.split()\n\n\n"
FIXED += "def other():\n    return 1\n"
TEST = "def test_parse_empty():\n    assert parse('') == []\n"
MESSAGE = "Return an empty list when pkg/mod.py parses an empty text\n\nFixes #12"


@pytest.fixture(scope="module")
def paired_items() -> ModuleType:
    return load_with_siblings("paired_items")


def commit(root: Path, message: str, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def history(git_repo: GitRepoFactory, tmp_path: Path) -> dict[str, str]:
    """base; a pull request branched from it (the fix, then its test); other work on the main
    line; the pull request merged. The history is mirrored bare as ``acme+mod/repo``."""
    root = git_repo({"pkg/mod.py": MOD, "tests/test_mod.py": "def test_old():\n    pass\n"})
    git(root, "branch", "-M", "main")
    base = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "-b", "fix")
    fix = commit(root, MESSAGE, {"pkg/mod.py": FIXED})
    test = commit(
        root, "Add a test", {"tests/test_mod.py": f"def test_old():\n    pass\n\n\n{TEST}"}
    )
    git(root, "checkout", "-q", "main")
    other = commit(root, "Other work on the main line", {"pkg/util.py": "x = 1\n"})
    git(root, "merge", "-q", "--no-ff", "-m", "Merge the fix", "fix")
    mirror = tmp_path / "mirrors" / "acme+mod" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(root), str(mirror)], check=True)
    return {"base": base, "fix": fix, "test": test, "other": other, "mirror": str(mirror)}


def row(base: str, statement: str = "parse('') gives [''] instead of []") -> dict[str, object]:
    return {
        "instance_id": f"acme__mod-{base[:6]}",
        "repo": "acme/mod",
        "base_commit": base,
        "problem_statement": statement,
        "gold_files": ["pkg/mod.py"],
        "expected_spans": {"pkg/mod.py": ["parse"]},
    }


def test_the_fix_is_the_child_of_base_and_its_pull_request_follows(
    paired_items: ModuleType, history: dict[str, str]
) -> None:
    mirror = Path(history["mirror"])
    chain = paired_items.fix_commits(mirror, history["base"], ["pkg/mod.py"])
    assert chain == [history["fix"], history["test"]]  # not the merge, not the other work
    # from the main line's other commit the only way to the fix is the merge: no fix of its own
    assert paired_items.fix_commits(mirror, history["other"], ["pkg/mod.py"]) == []


def test_both_items_are_asked_at_base_and_judged_on_the_bench_gold(
    paired_items: ModuleType, history: dict[str, str], tmp_path: Path
) -> None:
    rows = [row(history["base"]), row(history["other"])]
    real, pseudo, left = paired_items.paired(rows, tmp_path / "mirrors", "report")
    assert left == {"acme/mod": 1}  # the instance whose fix came in by the merge
    assert [r["question"] for r in real] == ["parse('') gives [''] instead of []"]
    (item,) = pseudo
    ident = rows[0]["instance_id"]
    assert (real[0]["id"], item["id"]) == (f"{ident}~real", f"{ident}~report")
    assert item["commit"] == real[0]["commit"] == history["base"]
    assert item["expected_files"] == ["pkg/mod.py"]
    assert item["expected_spans"] == {"pkg/mod.py": ["parse"]}
    question = item["question"]
    assert question.startswith("Return an empty list when parses an empty text")  # no path
    assert "pkg/mod.py" not in question
    assert TEST.strip() in question  # the test came from the pull request's second commit
    assert history["fix"] in item["source"]


def test_variants_take_the_message_or_the_test_alone(
    paired_items: ModuleType, history: dict[str, str], tmp_path: Path
) -> None:
    mirrors = tmp_path / "mirrors"
    _, (message,), _ = paired_items.paired([row(history["base"])], mirrors, "message")
    assert message["question"] == "Return an empty list when parses an empty text\n\nFixes #12"
    _, (test,), _ = paired_items.paired([row(history["base"])], mirrors, "test")
    assert test["question"].strip() == TEST.strip()
