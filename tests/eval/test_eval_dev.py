"""The dev run over a real bare mirror: export, index (BM25 only), both rankers, skips."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from codeagent.cli.main import cli
from codeagent.config import Settings
from codeagent.errors import EvalError
from codeagent.eval.dev import DevRun, parse_rankers, run_dev
from codeagent.eval.suite import SuiteItem
from conftest import GitRepoFactory, bare_mirror

FILES = {
    "pkg/cookies.py": "def merge_cookies(jar, cookies):\n    '''Merge cookies into jar.'''\n"
    "    return jar\n",
    "pkg/sessions.py": "class Session:\n    def send(self, request):\n        return request\n",
    "tests/test_cookies.py": "def test_merge_cookies():\n    assert merge_cookies(1, 2) == 1\n",
    "README.md": "# tool\n\nmerge_cookies merges cookies.\n",
}


@pytest.fixture
def mirrors(git_repo: GitRepoFactory, tmp_path: Path) -> tuple[Path, str]:
    """``mirrors/psf+requests/repo``: a bare mirror of a small repository; (dir, commit)."""
    return bare_mirror(git_repo, tmp_path, FILES, "psf+requests")


def item(
    ident: str, commit: str | None, repo: str = "https://github.com/psf/requests"
) -> SuiteItem:
    return SuiteItem(
        id=ident,
        question="merge_cookies returns the jar unchanged",
        repo=repo,
        commit=commit,
        expected_route="rag",
        expected_files=["pkg/cookies.py"],
        source="test",
        suite="swebench-dev",
    )


def test_parse_rankers() -> None:
    assert parse_rankers("product,baseline") == ("product", "baseline")
    assert parse_rankers(" baseline ") == ("baseline",)
    with pytest.raises(EvalError, match="choose from"):
        parse_rankers("product,bm42")
    with pytest.raises(EvalError):
        parse_rankers(",")


def test_both_rankers_and_skips(mirrors: tuple[Path, str], tmp_path: Path) -> None:
    root, commit = mirrors
    items = [
        item("a", commit[:8]),
        item("b", "deadbeef"),
        item("c", commit, repo="https://github.com/acme/absent"),
    ]
    run = DevRun(Settings.load(embed="none", k=10), root, tmp_path / "checkouts")
    records = run_dev(items, run)
    assert [(r["id"], r["ranker"]) for r in records] == [("a", "product"), ("a", "baseline")]
    product, baseline = records
    assert "pkg/cookies.py" in product["ranked_files"]
    # The baseline sees source .py files only: cookies.py holds every word, sessions.py none.
    assert baseline["ranked_files"] == ["pkg/cookies.py"]
    assert baseline["scores"]["hit@1"] == 1.0
    # checkouts go by repository, each one's commits oldest first
    assert [(s["repo"], s["reason"]) for s in run.skipped] == [
        ("acme/absent", "no mirror"),
        ("psf/requests", "commit not in mirror"),
    ]
    assert run.groups[0]["commit"] == commit
    assert run.groups[0]["chunks"] >= 4
    clone = tmp_path / "checkouts" / "clones" / "psf+requests"
    assert (clone / "pkg" / "cookies.py").is_file()
    head = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True)
    assert head.stdout.decode().strip() == commit


def test_a_failed_index_fails_its_questions_only(mirrors: tuple[Path, str], tmp_path: Path) -> None:
    root, commit = mirrors

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("disk full")

    run = DevRun(Settings.load(embed="none"), root, tmp_path / "co", index_builder=broken)
    records = run_dev([item("a", commit)], run)
    assert [r["error"] for r in records] == ["RuntimeError: disk full"] * 2
    assert run.groups[0]["error"] == "RuntimeError: disk full"


def test_cli_writes_tables(mirrors: tuple[Path, str], tmp_path: Path) -> None:
    root, commit = mirrors
    suite = tmp_path / "swebench-dev.jsonl"
    line = item("a", commit).model_dump(exclude={"suite", "base_dir"})
    suite.write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    args = ["eval-dev", str(suite), "--mirrors", str(root), "--embed", "none", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "#### Fit: SWE-bench file Acc@k (%, product / baseline)" in result.output
    assert "| psf/requests | 1 |" in result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["tables"]["fit"]["swebench"]["rows"]["psf/requests"]["baseline"]["n"] == 1
    assert (out / "tables.md").is_file()
    # The sealed split holds no question of this suite: one clear error.
    result = CliRunner().invoke(cli, [*args, "--split", "sealed"])
    assert isinstance(result.exception, EvalError)
    assert "split 'sealed'" in str(result.exception)
    result = CliRunner().invoke(cli, [*args, "--ranker", "nope"])
    assert isinstance(result.exception, EvalError)


def test_the_first_ranker_is_the_product_without_its_model(
    mirrors: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, commit = mirrors
    settings = Settings.load(embed="none", k=10)
    run = DevRun(settings, root, tmp_path / "co", rankers=parse_rankers("first,product"))
    records = {r["ranker"]: r for r in run_dev([item("a", commit)], run)}
    assert set(records) == {"first", "product"}
    from codeagent.eval.dev import product_ranking
    from codeagent.index.build import load_or_build
    from codeagent.rank import ranking

    assert ranking.USE_MODEL is True  # the run put the switch back as it found it

    store, _ = load_or_build(tmp_path / "co" / "clones" / "psf+requests", settings)
    question = item("a", commit).question
    assert records["product"]["ranked_files"] == product_ranking(store, question, 10)
    monkeypatch.setattr(ranking, "USE_MODEL", False)
    assert records["first"]["ranked_files"] == product_ranking(store, question, 10)
