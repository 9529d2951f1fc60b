"""A cached entry damaged behind codeagent's back, through the real command line: a bit flipped
in place with the size and modification time kept is found at the next open and rebuilt; a
flip the stat signature cannot see (the seal re-written over it) is found by ``--verify``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import GitRepoFactory
from faults.run import codeagent

FILES = {
    "pkg/core.py": "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n",
    "pkg/util.py": "def gamma(x):\n    return alpha() + x\n",
}


def flip_in_place(path: Path) -> None:
    before = path.stat()
    with path.open("r+b") as handle:
        handle.seek(before.st_size // 2)
        byte = handle.read(1)[0]
        handle.seek(before.st_size // 2)
        handle.write(bytes([byte ^ 0x20]))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def index(root: Path, *extra: str) -> dict[str, object]:
    done = codeagent("index", "--repo", str(root), "--embed", "hash:16", "--json", *extra)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    stats: dict[str, object] = json.loads(done.stdout)
    return stats


def test_a_flip_keeping_size_and_mtime_is_rebuilt_before_the_answer(
    git_repo: GitRepoFactory, env_setup: Path
) -> None:
    root = git_repo(FILES)
    entry = Path(str(index(root)["cache_path"]))
    assert index(root)["entry_check"] == "seal"
    good = (entry / "chunks.json").read_bytes()
    flip_in_place(entry / "chunks.json")
    ask = codeagent("ask", "where is beta defined", "--repo", str(root), "--llm", "none",
                    "--embed", "hash:16", "--json")  # fmt: skip
    assert ask.returncode == 0, ask.stderr
    assert "chunks.json is damaged; rebuilding it" in ask.stderr
    assert json.loads(ask.stdout)["sources"][0]["path"] == "pkg/core.py"
    assert (entry / "chunks.json").read_bytes() == good


def test_verify_finds_what_the_seal_cannot_see(git_repo: GitRepoFactory, env_setup: Path) -> None:
    root = git_repo(FILES)
    entry = Path(str(index(root)["cache_path"]))
    seal = entry / "seal.json"
    sealed = json.loads(seal.read_text(encoding="utf-8"))
    flip_in_place(entry / "dense.faiss")
    # As bit rot under the file system would leave it: the seal still matches every file.
    stat = (entry / "dense.faiss").stat()
    sealed["files"]["dense.faiss"] = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns,
                                      stat.st_ino]  # fmt: skip
    seal.write_text(json.dumps(sealed), encoding="utf-8")
    assert index(root)["entry_check"] == "seal"
    verified = index(root, "--verify")
    assert verified["cache_hit"] is False
    assert index(root, "--verify")["entry_check"] == "sha256"


def test_a_part_that_fails_to_load_is_one_line_then_rebuilt(
    git_repo: GitRepoFactory, env_setup: Path
) -> None:
    """Damage behind a valid seal that the BM25 loader trips on: that question gets one
    error line (no traceback; the background check may say the same as a notice), the entry
    is marked, and the next question rebuilds it."""
    root = git_repo(FILES)
    entry = Path(str(index(root)["cache_path"]))
    seal = entry / "seal.json"
    sealed = json.loads(seal.read_text(encoding="utf-8"))
    vocab = entry / "bm25" / "terms.json"
    vocab.write_text("{not json", encoding="utf-8")
    stat = vocab.stat()
    sealed["files"]["bm25/terms.json"] = [stat.st_size, stat.st_mtime_ns,
                                                stat.st_ctime_ns, stat.st_ino]  # fmt: skip
    seal.write_text(json.dumps(sealed), encoding="utf-8")
    question = ("ask", "which code adds x to the first value", "--repo", str(root),
                "--llm", "none", "--embed", "hash:16", "--json")  # fmt: skip
    failed = codeagent(*question)
    assert failed.returncode != 0
    assert "Traceback" not in failed.stderr
    errors = [line for line in failed.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, failed.stderr
    assert "unreadable bm25" in errors[0]
    assert errors[0].endswith("it is rebuilt at the next run")
    assert "damaged" in json.loads(seal.read_text(encoding="utf-8"))
    again = codeagent(*question)
    assert again.returncode == 0, again.stderr
    answer = json.loads(again.stdout)
    assert answer["route"]["tool"] == "rag"
    assert "pkg/util.py" in [s["path"] for s in answer["sources"]]
    assert json.loads(vocab.read_text(encoding="utf-8"))  # rebuilt
