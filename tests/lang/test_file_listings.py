"""Listings of one file of another language than Python, asked as a user asks them
(``codeagent ask`` in its own process, a real git repository): the methods of a Java file,
the functions of a Rust file that has none. universal-ctags' reading of the same sources is
the truth."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GitRepoFactory

pytestmark = pytest.mark.usefixtures("needs_ctags")

CLIENT_JAVA = """\
package com.example;

public class Client {
    private int count;

    public Client(int count) { this.count = count; }

    public int get() { return count; }

    public void set(int value) { count = value; }

    static class Inner {
        void run() {}
    }
}
"""


def ask(repo: Path, question: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codeagent", "ask", question, "--repo", str(repo), "--llm",
         "none", "--embed", "none", "--no-server", *flags],
        capture_output=True, text=True, env=os.environ.copy(), timeout=120, check=False,
    )  # fmt: skip


def ctags(path: Path) -> list[dict[str, str]]:
    """universal-ctags' tags of one file: name, kind, line and scope fields."""
    out = subprocess.run(
        ["ctags", "--fields=+Kn", "-o", "-", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    tags = []
    for line in out.splitlines():
        name, _file, rest = line.split("\t", 2)
        fields = dict(f.split(":", 1) for f in rest.split(';"\t', 1)[1].split("\t") if ":" in f)
        tags.append({"name": name, "kind": rest.split(';"\t', 1)[1].split("\t")[0], **fields})
    return tags


@pytest.mark.parametrize(
    "question",
    [
        "list the methods in src/main/java/com/example/Client.java",
        "what methods does src/main/java/com/example/Client.java define?",
        "list the methods in Client.java",
    ],
)
def test_the_methods_of_a_java_file(git_repo: GitRepoFactory, question: str) -> None:
    path = "src/main/java/com/example/Client.java"
    repo = git_repo({path: CLIENT_JAVA})
    proc = ask(repo, question)
    assert proc.returncode == 0, proc.stderr
    assert "thefile" not in proc.stdout + proc.stderr
    assert "searching the repository instead" not in proc.stderr
    members = [t for t in ctags(repo / path) if t["kind"] in ("method", "constructor")]
    assert len(members) == 4, members
    for tag in members:  # every method ctags finds, at its line
        assert f"{path}:{tag['line']}  " in proc.stdout, (tag, proc.stdout)
        assert tag["name"] in proc.stdout
