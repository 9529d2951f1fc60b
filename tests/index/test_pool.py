"""A build whose files are parsed in a pool of processes is the serial build, byte for byte;
a worker that dies on a file costs that file its structure, not the build."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.reuse import STAMPS
from codeagent.index.stats import IndexStats
from codeagent.records import Chunk
from conftest import GitRepoFactory, write_files
from multilang_repo import FILES as MULTILANG

# Files an entry holds whose bytes depend on when and where it was written, not on the
# repository: the manifest's "created" time (compared without it) and the seal (sizes,
# modification and change times and inodes of the entry's own files).
SEAL = "seal.json"
MANIFEST = "manifest.json"


def module(i: int) -> str:
    """A Python module unlike its neighbours: classes, methods, calls, imports."""
    methods = "\n".join(
        f"    def step_{j}(self, value):\n        return helper_{i}(value) + {j}\n"
        for j in range(i % 7 + 1)
    )
    return (
        f'"""Module {i}: stage {i} of the pipeline."""\n\nimport os\n'
        f"from pkg.m{(i + 1) % 40} import Stage{(i + 1) % 40}\n\n\n"
        f"def helper_{i}(value):\n    return os.path.join(str(value), 'x{i}')\n\n\n"
        f"class Stage{i}(Stage{(i + 1) % 40}):\n    '''Stage {i}.'''\n\n{methods}"
    )


def repository() -> dict[str, str]:
    files: dict[str, str] = {f"pkg/m{i}.py": module(i) for i in range(40)}
    files["pkg/__init__.py"] = ""
    files["pkg/broken.py"] = "def broken(:\n    return 1\n"  # does not parse: windows
    files["pkg/crlf.py"] = "def crlf():\r\n    return 'a'\r\n"
    steps = "".join(f"Step {i} runs stage {i}.\n" for i in range(80))
    files["docs/guide.md"] = "# Guide\n\n" + steps
    files.update(MULTILANG)  # TypeScript (one broken file), Go, Rust, ...
    return files


def build(root: Path, home: Path, workers: int) -> IndexStats:
    """Index ``root`` into ``home`` with ``workers`` processes, the pool used for any size."""
    os.environ["CODEAGENT_HOME"] = str(home)
    settings = Settings.load(embed="hash:32", workers=workers, pool_min_files=1)
    _, stats = load_or_build(root, settings)
    return stats


def entry_bytes(stats: IndexStats) -> dict[str, bytes]:
    """Every file of the entry but the seal and the files' stamps (what the file system said
    of them, not what was indexed); the manifest without its creation time and the stamps."""
    entry = Path(stats.cache_path)
    out: dict[str, bytes] = {}
    for path in sorted(entry.rglob("*")):
        name = path.relative_to(entry).as_posix()
        if path.is_file() and name not in (SEAL, STAMPS):
            out[name] = path.read_bytes()
    manifest = json.loads(out[MANIFEST])
    assert isinstance(manifest.pop("created"), float)
    assert isinstance(manifest["files"].pop(STAMPS), str)
    out[MANIFEST] = json.dumps(manifest, sort_keys=True).encode()
    return out


def test_pool_entry_is_the_serial_entry(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "unused"))
    root = git_repo(repository())
    serial = build(root, tmp_path / "serial", workers=1)
    pooled = build(root, tmp_path / "pooled", workers=2)
    assert (serial.workers, pooled.workers) == (1, 2)
    assert serial.chunks == pooled.chunks > 100
    assert pooled.parse_errors == serial.parse_errors == {"python": 1, "typescript": 1}
    files = entry_bytes(serial)
    assert {"chunks.json", "symbols.json", "files.json", "bm25/terms.json", "dense.faiss"} <= set(
        files
    )
    assert entry_bytes(pooled) == files
    chunks = json.loads(files["chunks.json"])
    assert len(chunks) == serial.chunks

    # An edit: unchanged files come from the earlier entry, BM25 is derived from its index
    # (the pool's terms for the changed files), and the entries still agree.
    write_files(root, {"pkg/m3.py": module(3) + "\n\ndef added():\n    return 3\n"})
    (root / "pkg" / "m7.py").unlink()
    write_files(root, {"pkg/new.py": module(77), "pkg/broken.py": "def fixed():\n    pass\n"})
    serial = build(root, tmp_path / "serial", workers=1)
    pooled = build(root, tmp_path / "pooled", workers=2)
    assert serial.files_reused == pooled.files_reused == serial.files_indexed - 3
    assert pooled.workers == 2
    assert entry_bytes(pooled) == entry_bytes(serial)


def test_small_repository_stays_serial(git_repo: GitRepoFactory) -> None:
    root = git_repo({f"m{i}.py": module(i) for i in range(5)})
    _, stats = load_or_build(root, Settings.load(embed="none", workers=2))
    assert stats.workers == 1  # under pool_min_files (100 by default): no pool to start
    _, again = load_or_build(root, Settings.load(embed="none", workers=2), force=True)
    assert again.workers == 1


def codeagent(script: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``codeagent ARGS`` run by ``script`` in a new session (its own process group)."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
        start_new_session=True,
    )


MAIN = """
import sys
from codeagent.cli.main import main
sys.argv = ["codeagent", *sys.argv[1:]]
main()
"""

# Worker processes spawned by this one get a 512 kB C stack, too small for the parser to
# read 5,900 nested `not`: the worker parsing that file dies of a segmentation fault, every
# time. (With the usual 8 MB the parser reads it and building its tree fails with a
# RecursionError: the file is cut into windows, as when it does not parse.)
SMALL_STACK = """
import resource, sys
_, hard = resource.getrlimit(resource.RLIMIT_STACK)
resource.setrlimit(resource.RLIMIT_STACK, (512 * 1024, hard))
from codeagent.cli.main import main
sys.argv = ["codeagent", *sys.argv[1:]]
main()
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a segmentation fault as Linux gives it")
def test_a_worker_that_dies_costs_one_file_its_structure(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    files = {f"pkg/m{i}.py": module(i) for i in range(40)}
    files["pkg/deep.py"] = "x = " + "not \\\n" * 5900 + "y\n"  # one `not` a line
    root = git_repo(files)
    args = ["index", "--repo", str(root), "--embed", "hash:32", "--json"]
    serial = codeagent(MAIN, *args, CODEAGENT_HOME=str(tmp_path / "serial"), CODEAGENT_WORKERS="1")
    assert serial.returncode == 0, serial.stderr
    pooled = codeagent(
        SMALL_STACK,
        *args,
        CODEAGENT_HOME=str(tmp_path / "pooled"),
        CODEAGENT_WORKERS="2",
        CODEAGENT_POOL_MIN_FILES="1",
    )
    assert pooled.returncode == 0, pooled.stderr
    assert "Traceback" not in pooled.stderr
    died = [line for line in pooled.stderr.splitlines() if "died" in line]
    assert died == ["a worker process died parsing pkg/deep.py: line windows"], pooled.stderr
    before, after = json.loads(serial.stdout), json.loads(pooled.stdout)
    assert (before["workers"], after["workers"]) == (1, 2)
    # the serial build's parse failed without a crash, the worker's with one: counted alike
    assert before["parse_errors"] == after["parse_errors"] == {"python": 1}
    assert after["files_indexed"] == before["files_indexed"] == 41
    entries = [IndexStats(cache_path=s["cache_path"]) for s in (before, after)]
    assert entry_bytes(entries[1]) == entry_bytes(entries[0])  # windows, as serially


NO_WORKERS = """
import os, sys
os.environ["PYTHONHOME"] = "/nonexistent"  # every Python started from now on fails to start
from codeagent.cli.main import main
sys.argv = ["codeagent", *sys.argv[1:]]
main()
"""


def test_workers_that_cannot_start_leave_the_work_here(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo({f"pkg/m{i}.py": module(i) for i in range(40)})
    args = ["index", "--repo", str(root), "--embed", "hash:32", "--json"]
    serial = codeagent(MAIN, *args, CODEAGENT_HOME=str(tmp_path / "serial"), CODEAGENT_WORKERS="1")
    assert serial.returncode == 0, serial.stderr
    env = {"CODEAGENT_WORKERS": "2", "CODEAGENT_POOL_MIN_FILES": "1"}
    here = codeagent(NO_WORKERS, *args, CODEAGENT_HOME=str(tmp_path / "here"), **env)
    assert here.returncode == 0, here.stderr
    assert "Traceback" not in here.stderr  # (the workers' own start-up errors are theirs)
    assert "worker processes do not start (exit code 1): parsing in this process" in here.stderr
    before, after = json.loads(serial.stdout), json.loads(here.stdout)
    assert before["workers"] == after["workers"] == 1
    entries = [IndexStats(cache_path=s["cache_path"]) for s in (before, after)]
    assert entry_bytes(entries[1]) == entry_bytes(entries[0])


CTRL_C = """
import json, multiprocessing, os, signal, sys, time
from pathlib import Path
from codeagent.index import pool
from codeagent.cli.main import main

marks = Path(sys.argv.pop(1))
replay = pool._replay

def after_a_batch(records):  # the user presses Ctrl-C once the first batch is back
    replay(records)
    if not marks.exists():
        pids = [p.pid for p in multiprocessing.active_children()]
        marks.write_text(json.dumps({"pids": pids, "at": time.time()}))
        os.killpg(os.getpgrp(), signal.SIGINT)  # as a terminal does: the whole group

pool._replay = after_a_batch
sys.argv = ["codeagent", *sys.argv[1:]]
main()
"""


def gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status  # ended, not yet reaped by its new parent


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_ctrl_c_stops_the_pool_at_once(
    git_repo: GitRepoFactory, tmp_path: Path, env_setup: Path
) -> None:
    root = git_repo({f"pkg/m{i}.py": module(i) * 20 for i in range(300)})
    marks = tmp_path / "marks.json"
    args = ["index", "--repo", str(root), "--embed", "hash:32", "--json"]
    env = {"CODEAGENT_WORKERS": "2", "CODEAGENT_POOL_MIN_FILES": "1"}
    result = codeagent(CTRL_C, str(marks), *args, **env)
    ended = time.time()
    assert result.returncode == 130, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == "interrupted"
    seen = json.loads(marks.read_text())
    assert len(seen["pids"]) == 2
    assert ended - seen["at"] < 1.0  # from the key press to the end of the process
    assert all(gone(pid) for pid in seen["pids"])  # no worker left behind
    (repo_dir,) = (env_setup / "cache").iterdir()
    names = sorted(p.name for p in repo_dir.iterdir())
    assert names == [".codeagent-index", ".gitignore", ".lock"]  # no half-written entry
    resumed = codeagent(MAIN, *args, **env)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["workers"] == 2


def test_a_root_that_is_a_package_names_modules_alike_in_the_pool(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The root's own ``__init__.py`` makes the root folder a package: a worker names each
    module from the root as the building process does."""
    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "unused"))
    files = {f"pkg/m{i}.py": module(i) for i in range(12)}
    files["__init__.py"] = "from .pkg import m0\n"
    root = git_repo(files)
    serial = build(root, tmp_path / "serial", workers=1)
    pooled = build(root, tmp_path / "pooled", workers=2)
    assert pooled.workers == 2
    symbols = json.loads(entry_bytes(serial)["symbols.json"])
    assert symbols["files"]["__init__.py"]["m"] == root.name
    assert entry_bytes(pooled) == entry_bytes(serial)


def test_a_workers_log_lines_reach_the_builder(
    git_repo: GitRepoFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What parsing logs in a worker (a file that does not parse, at debug level) is logged
    by the building process, word for word as a serial build logs it."""
    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "unused"))
    files = {f"pkg/m{i}.py": module(i) for i in range(12)}
    files["pkg/broken.py"] = "def broken(:\n    return 1\n"
    root = git_repo(files)
    caplog.set_level(logging.DEBUG, logger="codeagent")

    def parse_lines(workers: int) -> list[tuple[str, int, str]]:
        caplog.clear()
        build(root, tmp_path / f"home{workers}", workers=workers)
        return [
            (r.name, r.levelno, r.getMessage())
            for r in caplog.records
            if "does not parse" in r.getMessage()
        ]

    serial = parse_lines(1)
    assert serial
    assert serial[0][2].startswith("pkg/broken.py does not parse, chunking by lines: ")
    assert parse_lines(2) == serial


def test_the_building_process_parses_nothing_the_workers_parsed(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers name each module as the building process would (packages included), so no
    symbol record comes back to be extracted again here, and they make the chunks' BM25
    terms: no file is parsed and no chunk tokenised in this process."""
    import codeagent.index.chunked as chunked
    import codeagent.store.bm25_build as bm25_build

    monkeypatch.setenv("CODEAGENT_HOME", str(tmp_path / "unused"))
    root = git_repo(repository())
    parsed_here: list[str] = []
    real = chunked.parse_python

    def counting(path: str, text: str) -> object:
        parsed_here.append(path)
        return real(path, text)

    tokenised_here: list[str] = []
    real_tokens = bm25_build.bm25_tokens

    def counting_tokens(chunk: Chunk) -> list[str]:
        tokenised_here.append(chunk.path)
        return real_tokens(chunk)

    monkeypatch.setattr(chunked, "parse_python", counting)
    monkeypatch.setattr(bm25_build, "bm25_tokens", counting_tokens)
    stats = build(root, tmp_path / "pooled", workers=2)
    assert stats.workers == 2
    assert parsed_here == []
    assert tokenised_here == []
    build(root, tmp_path / "serial", workers=1)
    assert len(tokenised_here) == stats.chunks  # (the count works: a serial build tokenises here)
