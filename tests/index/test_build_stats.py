"""What load_or_build() reports, checked against the repository on disk and the entry it wrote:
the counts, skips and languages, the embedder, the timings, the manifest's own record of the
build, and on a cache hit how the entry was trusted and that it was marked as just used."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.embed import embedders
from codeagent.embed.embedders import NO_EMBEDDER_NOTICE, HashEmbedder
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.index.stats import PHASES
from codeagent.progress import Advance
from conftest import GitRepoFactory, git

PY = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n\n\n"
    "def discount(item, rate):\n    return price(item) * (1 - rate)\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
}
FILES: dict[str, str | bytes] = {
    **PY,
    "web/app.js": "function greet(name) {\n  return 'hi ' + name;\n}\n",
    "README.md": "# Shop\n\nA tiny shop.\n",
    "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",  # binary: skipped
    ".env": "TOKEN=abc\n",  # a likely secret: skipped
    "poetry.lock": "[[package]]\nname = 'x'\n",  # a lock file: skipped
}
INDEXED = ["README.md", "shop/cart.py", "shop/models.py", "web/app.js"]


def chunks_on_disk(root: Path, paths: list[str]) -> int:
    return sum(len(chunk_file(p, (root / p).read_text(encoding="utf-8"))) for p in paths)


def manifest(entry: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((Path(entry) / "manifest.json").read_text("utf-8"))
    return data


def test_a_build_reports_what_it_found_and_did(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    listed = git(root, "ls-files").split()
    assert sorted(listed) == sorted(FILES)  # git holds every file; the index skips three
    before = time.time()
    store, stats = load_or_build(root, Settings.load(embed="hash:32"))
    after = time.time()
    assert stats.repo == str(root.resolve())
    assert stats.files_indexed == len(INDEXED)
    assert stats.files_skipped == {"binary": 1, "lockfile": 1, "secret": 1}
    assert list(stats.files_skipped) == sorted(stats.files_skipped)  # in a stable order
    assert stats.languages == {
        "javascript": {"files": 1, "structure": "tree-sitter"},
        "markdown": {"files": 1, "structure": "none"},
        "python": {"files": 2, "structure": "python-ast"},
    }
    assert (stats.embedder, stats.dim) == ("hash:32", 32)
    assert stats.chunks == chunks_on_disk(root, INDEXED) == len(store.chunks)
    assert {c.path for c in store.chunks} == set(INDEXED)
    assert (stats.cache_hit, stats.entry_check, stats.files_reused) == (False, "", 0)
    assert stats.notices == []
    assert Path(stats.cache_path) == Settings.load().cache_dir / stats.repo_id / stats.state_hash

    # every phase timed, each within the call, and the total covers the others
    assert set(stats.seconds) == set(PHASES)
    assert all(stats.seconds[p] > 0.0 for p in PHASES)
    assert stats.seconds["total"] <= after - before
    parts = sum(v for k, v in stats.seconds.items() if k != "total")
    assert parts <= stats.seconds["total"] + 1e-3

    # the entry's manifest records this build
    written = manifest(stats.cache_path)
    assert written["repo"] == stats.repo
    assert written["state_hash"] == stats.state_hash
    assert written["embedder_dim"] == 32
    assert written["chunks"] == stats.chunks
    assert before <= float(written["created"]) <= after  # type: ignore[arg-type]


def test_a_cache_hit_says_how_the_entry_was_trusted(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="hash:32")
    _, built = load_or_build(root, settings)
    entry = Path(built.cache_path)
    old = time.time() - 3600
    os.utime(entry, (old, old))  # as if last used an hour ago
    started = time.time()
    store, hit = load_or_build(root, settings)
    assert (hit.cache_hit, hit.entry_check) == (True, "seal")
    assert hit.chunks == built.chunks == hit.chunks_reused
    assert hit.chunks_embedded == 0
    assert (hit.state_hash, hit.cache_path) == (built.state_hash, built.cache_path)
    assert entry.stat().st_mtime >= started - 1  # marked as just used (pruning keeps it)
    assert 0.0 < hit.seconds["total"] < 60.0
    assert store.search("add_to_cart", k=1)[0].path == "shop/cart.py"

    _, verified = load_or_build(root, settings, verify=True)
    assert (verified.cache_hit, verified.entry_check) == (True, "sha256")


def test_a_bm25_only_hit_reuses_no_vectors(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    settings = Settings.load(embed="none")
    _, built = load_or_build(root, settings)
    assert (built.embedder, built.dim) == ("none", None)
    assert manifest(built.cache_path)["embedder_dim"] is None
    _, hit = load_or_build(root, settings)
    assert hit.cache_hit
    assert (hit.chunks, hit.chunks_reused) == (built.chunks, 0)


def test_the_most_recently_used_states_are_kept(git_repo: GitRepoFactory) -> None:
    """A hit marks its entry as used: pruning after the next build keeps it over a newer one
    that was not used since."""
    root = git_repo(PY)
    settings = Settings.load(embed="none", keep_states=2)
    _, first = load_or_build(root, settings)
    (root / "shop/cart.py").write_text("def add():\n    return 2\n", encoding="utf-8")
    _, second = load_or_build(root, settings)
    git(root, "checkout", "--", "shop/cart.py")
    time.sleep(0.05)
    _, again = load_or_build(root, settings)  # the first state, used again
    assert (again.cache_hit, again.state_hash) == (True, first.state_hash)
    (root / "shop/cart.py").write_text("def add():\n    return 3\n", encoding="utf-8")
    time.sleep(0.05)
    _, third = load_or_build(root, settings)
    kept = {p.name for p in Path(third.cache_path).parent.iterdir() if p.is_dir()}
    assert kept == {first.state_hash, third.state_hash}
    assert second.state_hash not in kept


def test_auto_without_the_local_extra_says_bm25_only(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedders, "local_available", lambda: False)  # the extra not installed
    root = git_repo(PY)
    store, stats = load_or_build(root, Settings.load(embed="auto"))
    assert stats.notices == [NO_EMBEDDER_NOTICE]
    assert (stats.embedder, store.embedder) == ("none", None)
    _, named = load_or_build(root, Settings.load(embed="none"))  # asked for: nothing to say
    assert named.notices == []


def test_an_embedder_handed_in_is_used_as_given(git_repo: GitRepoFactory) -> None:
    root = git_repo(PY)
    store, stats = load_or_build(root, Settings.load(embed="none"), embedder=HashEmbedder(8))
    assert (stats.embedder, stats.dim, stats.chunks_embedded) == ("hash:8", 8, stats.chunks)
    assert store.dense is not None
    _, none = load_or_build(root, Settings.load(embed="hash:8"), embedder=None)
    assert (none.embedder, none.chunks_embedded) == ("none", 0)
    assert none.state_hash != stats.state_hash


class Recorder:
    """A progress reporter that keeps what it was told: (task, total, steps advanced)."""

    def __init__(self) -> None:
        self.tasks: list[list[object]] = []

    @contextmanager
    def task(
        self, description: str, total: int | None, *, expect: float | None = None
    ) -> Iterator[Advance]:
        record: list[object] = [description, total, 0]
        self.tasks.append(record)

        def advance(n: int) -> None:
            record[2] = int(record[2]) + n  # type: ignore[call-overload]

        yield advance


def test_a_build_reports_its_progress(git_repo: GitRepoFactory) -> None:
    root = git_repo(FILES)
    progress = Recorder()
    load_or_build(root, Settings.load(embed="hash:32"), progress=progress)
    n = chunks_on_disk(root, INDEXED)
    assert progress.tasks == [["chunking", len(INDEXED), len(INDEXED)], ["embedding", n, n]]
    quiet = Recorder()
    _, hit = load_or_build(root, Settings.load(embed="hash:32"), progress=quiet)
    assert hit.cache_hit
    assert quiet.tasks == []  # a hit does no work to report


def test_files_over_the_size_setting_are_skipped(git_repo: GitRepoFactory) -> None:
    root = git_repo(PY)
    sizes = {p: (root / p).stat().st_size for p in PY}
    cap = min(sizes.values())  # the smaller file fits exactly, the larger does not
    _, stats = load_or_build(root, Settings.load(embed="none", max_file_bytes=cap))
    assert stats.files_skipped == {"too_large": 1}
    assert stats.files_indexed == 1


def test_an_ollama_embedder_named_in_the_settings(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ollama_stub import OllamaStub

    root = git_repo(PY)
    with OllamaStub(models=["nomic-embed-text"]) as stub:
        monkeypatch.setenv("OLLAMA_HOST", stub.url)
        store, stats = load_or_build(root, Settings.load(embed="ollama:nomic-embed-text"))
        sent = [t for r in stub.requests if r.path == "/api/embed" for t in r.body["input"]]
    assert (stats.embedder, stats.dim) == ("ollama:nomic-embed-text", stub.embed_dim)
    assert {c.embed_text for c in store.chunks} <= set(sent)  # every chunk went to the server
    assert stats.chunks_embedded == len(store.chunks)
