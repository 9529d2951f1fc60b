"""eval/how_functions.py as a user runs it: a real repository cloned from its mirror at the
suite's commit, each question asked by a fresh ``codeagent ask``, the gold lines found among
the cited chunks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import GitRepoFactory, git
from eval_scripts import EVAL

# A Rust file whose unit test repeats the question's words: the code is cited first.
FILTER = (
    "/// A size bound.\n"  # 1
    "pub struct Limit(u64);\n"  # 2
    "\n"
    "impl Limit {\n"  # 4
    "    /// Whether a file passes: its size compared against the limit.\n"  # 5
    "    pub fn passes(&self, size: u64) -> bool {\n"  # 6
    "        size <= self.0\n"
    "    }\n"
    "}\n"
    "\n"
    "#[cfg(test)]\n"
    "mod tests {\n"
    "    #[test]\n"
    "    fn size_compared_against_limit() {\n"
    "        // a file's size compared against the limit\n"
    "        assert!(super::Limit(10).passes(1));\n"
    "    }\n"
    "}\n"
)


def run(tmp_path: Path, *args: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CODEAGENT_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    return subprocess.run(
        [sys.executable, str(EVAL / "how_functions.py"), *map(str, args)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip


def test_a_question_is_scored_at_the_rank_of_its_first_gold_chunk(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    work = git_repo({"src/lib.rs": FILTER, "Cargo.toml": '[package]\nname = "lim"\n'})
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    git(tmp_path, "clone", "-q", "--mirror", str(work), str(mirrors / "acme+lim"))
    commit = git(work, "rev-parse", "HEAD").strip()
    suite = tmp_path / "how.jsonl"
    lines = [
        {"repo": "acme/lim", "commit": commit, "question": q, "gold": gold}
        for q, gold in [
            ("how is a file's size compared against the limit?", ["src/lib.rs:6"]),
            ("how is a file's size compared against the limit?", ["src/lib.rs:99"]),
        ]
    ]
    suite.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "rows.json"
    done = run(tmp_path, suite, "--mirrors", mirrors, "--embed", "none", "--out", out)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [row["rank"] for row in rows] == [1, None]  # line 99 is in no chunk
    first = rows[0]["sources"][0]
    assert (first["path"], first["start_line"] <= 6 <= first["end_line"]) == ("src/lib.rs", True)
    assert "| acme/lim | 2 | 50.0 | 50.0 | 50.0 |" in done.stdout
    clone = tmp_path / "home" / "checkouts" / "how" / "acme+lim"
    assert git(clone, "rev-parse", "HEAD").strip() == commit


def test_a_missing_mirror_is_one_line(tmp_path: Path) -> None:
    suite = tmp_path / "how.jsonl"
    suite.write_text(json.dumps({"repo": "acme/none", "commit": "0" * 40, "question": "q",
                                 "gold": []}) + "\n")  # fmt: skip
    done = run(tmp_path, suite, "--mirrors", tmp_path / "mirrors")
    assert done.returncode == 2
    assert done.stderr.startswith("how_functions: ")
    assert done.stderr.count("\n") == 1
