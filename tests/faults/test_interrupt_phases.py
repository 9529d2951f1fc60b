"""Ctrl-C in every phase of an index: tokenising, embedding, BM25, the symbol graph, Milvus
writes, a clone, and the int8 conversion of the model.

Each case runs the real ``codeagent index`` in its own process group (as a shell's foreground
job) and sends SIGINT to the whole group, as a terminal does, from inside the phase: a seam
of that phase (the tokenizer, an ONNX run, the BM25 build, a file's symbol record, the Milvus
save, a ``git fetch`` of the clone) sends it on its first call and then goes on with the real
work, so the signal lands while the phase runs. The int8 conversion runs in a child process
of its own; that case waits for the child to appear and signals the group from the test.

The command must end with exit 130 and the one line ``interrupted`` (no traceback), leave no
half-written entry, clone or model behind, and the same command run again must build the
index as if nothing had happened. A hang guard bounds each wait; how fast it stops is a
benchmark's (bench/bench_interrupt.py), not a test's.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from codeagent.embed.embedders import local_available
from codeagent.embed.onnx_export import model_name
from faults.test_interrupt import running_with

GUARD = 120  # seconds: a hang guard, not a timing

FILES = {
    "pkg/__init__.py": '"""Shapes."""\n',
    "pkg/shapes.py": "def area(side):\n    return side * side\n\n\nclass Square:\n    pass\n",
    "pkg/util.py": "from pkg.shapes import area\n\n\ndef twice(x):\n    return 2 * area(x)\n",
    "pkg/more.py": "def third(y):\n    return y / 3\n",
    "README.md": "# shapes\n\nAreas of squares.\n",
}

# Python run in the command's process before codeagent: ``interrupt_on(module, attribute)``
# wraps a function (or a method, ``Class.name``) so that its first call sends SIGINT to the
# process group, then does the real work.
PRELUDE = """
import functools, importlib, os, signal

def interrupt_on(module, attribute, when=lambda *a, **k: True):
    owner = importlib.import_module(module)
    *path, name = attribute.split(".")
    for part in path:
        owner = getattr(owner, part)
    real = getattr(owner, name)
    sent = []

    @functools.wraps(real)
    def wrapper(*args, **kwargs):
        if not sent and when(*args, **kwargs):
            sent.append(True)
            os.killpg(os.getpgid(0), signal.SIGINT)
        return real(*args, **kwargs)

    setattr(owner, name, wrapper)
"""


def children_with(parent: int, fragment: str) -> list[int]:
    """The processes ``parent`` started whose command line holds ``fragment``."""
    found = []
    for pid in running_with(fragment):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:  # the field after the state
            found.append(pid)
    return found


def start(args: list[str], patch: str = "") -> subprocess.Popen[str]:
    """``codeagent ARGS`` as a terminal's foreground job (its own process group, SIGINT's
    default action), with ``patch`` run first."""
    script = f"import sys\n{PRELUDE}\n{patch}\nfrom codeagent.cli.main import main\n"
    script += "sys.argv = ['codeagent', *sys.argv[1:]]\nmain()\n"
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def finish(proc: subprocess.Popen[str]) -> str:
    """Wait (within the hang guard) for an interrupted command; its stderr. Fails unless it
    exited 130 with the one line ``interrupted`` and no traceback."""
    try:
        _, err = proc.communicate(timeout=GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"still running {GUARD} s after Ctrl-C")
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1:] == ["interrupted"], err
    return err


def no_half_written(home: Path) -> None:
    """No temporary build folder, no index entry and no clone in progress was left."""
    cache = home / "cache"
    entries = [p for p in cache.glob("*/*") if p.is_dir()] if cache.is_dir() else []
    assert entries == [], entries  # an interrupted build writes no entry, whole or not
    repos = home / "repos"
    names = [p.name for p in repos.iterdir()] if repos.is_dir() else []
    # a clone half made (``.tmp-SLUG-…``) or one in place; the locks folder may stay
    assert [n for n in names if n.startswith(".tmp-") or not n.startswith(".")] == [], names


def index_again(args: list[str]) -> dict[str, Any]:
    """The same command, uninterrupted: it builds the index."""
    done = subprocess.run(
        [sys.executable, "-m", "codeagent", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=GUARD * 3,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    stats: dict[str, Any] = json.loads(done.stdout)
    assert not stats["cache_hit"]
    assert stats["files_indexed"] == len(FILES)
    return stats


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An exported model (float and int8), made once for the module's cases: once for the
    whole run when the suite's conftest gave it a folder (the xdist workers share it; each
    export costs a worker about ten seconds of CPU), else once per process."""
    if not local_available():
        pytest.skip("the local embedder is not installed")
    run_home = os.environ.get("_CODEAGENT_TEST_RUN_HOME")
    if run_home is None:
        return _export(tmp_path_factory.mktemp("models"))
    shared = Path(run_home) / "shared" / "interrupt_models"
    shared.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(f"{shared}.lock"):  # the first worker exports, the others wait for it
        if not (shared / "done").is_file():
            shutil.rmtree(shared, ignore_errors=True)
            _export(shared)
            (shared / "done").write_text("", encoding="utf-8")
    return shared / "home" / "models"


def _export(folder: Path) -> Path:
    home, root = folder / "home", folder / "repo"
    root.mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n", encoding="utf-8")
    env = {**os.environ, "CODEAGENT_HOME": str(home), "CODEAGENT_AUTO_SERVER": "false"}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run(
        [sys.executable, "-m", "codeagent", "index", "--embed", "local:base", "--repo", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=GUARD * 5,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return home / "models"


LOCAL_PHASES = {
    "tokenising": "interrupt_on('codeagent.embed.onnx_encoder', 'OnnxEncoder.tokenizer')",
    "embedding": "interrupt_on('codeagent.embed.onnx_encoder', 'OnnxEncoder._run')",
    "bm25": "interrupt_on('codeagent.store.bm25_build', 'build')",
    "symbol graph": "interrupt_on('codeagent.index.per_file', 'extract_record')",
}


@pytest.mark.parametrize("phase", sorted(LOCAL_PHASES))
def test_ctrl_c_while_indexing(phase: str, models: Path, git_repo: Any, env_setup: Path) -> None:
    root = git_repo(FILES)
    shutil.copytree(models, env_setup / "models")
    args = ["index", "--embed", "local:base", "--repo", str(root)]
    finish(start(args, LOCAL_PHASES[phase]))
    no_half_written(env_setup)
    stats = index_again(args)
    assert stats["chunks_embedded"] + stats["chunks_reused"] == stats["chunks"]


def test_ctrl_c_while_milvus_writes(models: Path, git_repo: Any, env_setup: Path) -> None:
    pytest.importorskip("pymilvus")
    root = git_repo(FILES)
    shutil.copytree(models, env_setup / "models")
    args = ["index", "--embed", "local:base", "--dense", "milvus", "--repo", str(root)]
    finish(start(args, "interrupt_on('codeagent.store.milvus_index', 'MilvusIndex.save')"))
    no_half_written(env_setup)
    index_again(args)


def test_ctrl_c_while_cloning(git_repo: Any, env_setup: Path) -> None:
    source = git_repo(FILES)
    args = ["index", "--embed", "none", "--repo", f"file://{source}"]
    patch = (
        "interrupt_on('codeagent.repo.remote', '_git',"
        " lambda clone, limit, *args: args[:1] == ('fetch',))"
    )
    finish(start(args, patch))
    no_half_written(env_setup)
    index_again(args)


def test_ctrl_c_while_converting_to_int8(models: Path, git_repo: Any, env_setup: Path) -> None:
    root = git_repo(FILES)
    (env_setup / "models").mkdir()
    float_model = model_name(quantized=False)
    shutil.copy2(models / float_model, env_setup / "models" / float_model)
    proc = start(["index", "--embed", "local:base", "--repo", str(root)])
    deadline = time.monotonic() + GUARD
    # this command's own conversion child (other tests may convert at the same time)
    while not (children := children_with(proc.pid, "--quantize")):
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "no int8 conversion started"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    finish(proc)
    # the conversion did not go on without it
    assert [pid for pid in children if pid in running_with("--quantize")] == []
    left = sorted(p.name for p in (env_setup / "models").iterdir() if p.suffix == ".onnx")
    assert left == [float_model]  # no half-written int8 model
    no_half_written(env_setup)


def test_ctrl_c_as_the_int8_conversion_starts(models: Path, git_repo: Any, env_setup: Path) -> None:
    """The signal lands inside ``subprocess.Popen``, after the conversion child is forked and
    before the command holds it: the child must still be ended, not left running alone."""
    root = git_repo(FILES)
    (env_setup / "models").mkdir()
    float_model = model_name(quantized=False)
    shutil.copy2(models / float_model, env_setup / "models" / float_model)
    patch = (
        "import subprocess\n"
        "_fork = subprocess._fork_exec\n"
        "def _fork_then_interrupt(args, *rest):\n"
        "    pid = _fork(args, *rest)\n"
        "    if '--quantize' in [os.fsdecode(a) for a in args]:\n"
        "        os.killpg(os.getpgid(0), signal.SIGINT)\n"
        "    return pid\n"
        "subprocess._fork_exec = _fork_then_interrupt\n"
    )
    finish(start(["index", "--embed", "local:base", "--repo", str(root)], patch))
    # no conversion of this home's model goes on after the command ended
    mine = sorted(set(running_with("--quantize")) & set(running_with(str(env_setup))))
    for pid in mine:  # not left to run on past the test
        os.kill(pid, signal.SIGKILL)
    assert mine == []
    left = sorted(p.name for p in (env_setup / "models").iterdir() if p.suffix == ".onnx")
    assert left == [float_model]  # no half-written int8 model
    no_half_written(env_setup)
