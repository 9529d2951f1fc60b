"""A class listing a person can read (`codeagent ask` in a real terminal): one line per class
with its methods counted, every line within the terminal's width; the methods with their
signatures on request (--long). The truth is pyclbr's reading of the same file (argparse from
the standard library: 27 classes, signatures up to 280 characters)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

from conftest import GitRepoFactory

from .clirun import run, run_in_terminal

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


# pyclbr follows imports through the import system, which pytest's import hooks disturb:
# it runs in a process of its own.
PYCLBR = """
import json, pyclbr, sys
tree = pyclbr.readmodule_ex(sys.argv[2], path=[sys.argv[1]])
print(json.dumps({n: len(c.methods) for n, c in tree.items()
                  if isinstance(c, pyclbr.Class) and c.module == sys.argv[2]}))
"""


def pyclbr_methods(folder: Path, module: str) -> dict[str, int]:
    """pyclbr's classes of ``module`` in ``folder``, each with its number of methods."""
    out = subprocess.run(
        [sys.executable, "-c", PYCLBR, str(folder), module],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return dict(json.loads(out))


def test_a_class_listing_fits_the_terminal(git_repo: GitRepoFactory) -> None:
    source = (Path(sysconfig.get_paths()["stdlib"]) / "argparse.py").read_text(encoding="utf-8")
    repo = git_repo({"lib/argparse.py": source})
    truth = pyclbr_methods(repo / "lib", "argparse")
    assert len(truth) > 20
    question = "list the classes in lib/argparse.py"
    code, out = run_in_terminal(  # a terminal 100 columns wide (clirun sets COLUMNS)
        "ask", question, "--repo", str(repo), "--llm", "none", "--embed", "none", "--no-server"
    )
    assert code == 0, out
    lines = [ESCAPES.sub("", line) for line in out.replace("\r", "").split("\n")]
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    classes = [line for line in lines if line.startswith("lib/argparse.py:")]
    assert len(classes) == len(truth), classes  # one line per class, no method lines
    for name, methods in truth.items():
        (line,) = [c for c in classes if re.search(rf"  class {name}\b", c)]
        counted = re.search(r"\((\d+) methods?\b", line)
        assert (int(counted[1]) if counted else 0) == methods, line

    long = run("ask", question, "--repo", str(repo), "--llm", "none", "--embed", "none",
               "--no-server", "--long")  # fmt: skip
    assert long.code == 0, long.err
    # every method of a top-level class, with its signature (nested classes' are deeper)
    method_lines = re.findall(r"^    lib/argparse\.py:\S+  .*\bdef \w+\(.*$", long.out, re.M)
    assert len(method_lines) == sum(truth.values()), method_lines
    assert max(len(line) for line in long.out.splitlines()) > 200  # uncut


def test_the_methods_of_a_python_file_are_listed(git_repo: GitRepoFactory) -> None:
    # "list the methods in FILE" is answered by the file's class listing: with every method
    # (a count would not answer it), as pyclbr reads them.
    source = (Path(sysconfig.get_paths()["stdlib"]) / "argparse.py").read_text(encoding="utf-8")
    repo = git_repo({"lib/argparse.py": source})
    truth = pyclbr_methods(repo / "lib", "argparse")
    asked = run("ask", "list the methods in lib/argparse.py", "--repo", str(repo), "--llm",
                "none", "--embed", "none", "--no-server")  # fmt: skip
    assert asked.code == 0, asked.err
    method_lines = re.findall(r"^    lib/argparse\.py:\S+  .*\bdef \w+\(.*$", asked.out, re.M)
    assert len(method_lines) == sum(truth.values()), asked.out


def test_the_functions_of_a_python_file_without_any(git_repo: GitRepoFactory) -> None:
    # numbers.py defines classes only: the answer says so, then lists its classes.
    source = (Path(sysconfig.get_paths()["stdlib"]) / "numbers.py").read_text(encoding="utf-8")
    repo = git_repo({"lib/numbers.py": source})
    truth = pyclbr_methods(repo / "lib", "numbers")
    asked = run("ask", "list the functions in lib/numbers.py", "--repo", str(repo), "--llm",
                "none", "--embed", "none", "--no-server")  # fmt: skip
    assert asked.code == 0, asked.err
    first, *lines = asked.out.splitlines()
    assert first == "No top-level functions in lib/numbers.py."
    classes = [line for line in lines if line.startswith("lib/numbers.py:")]
    assert len(classes) == len(truth), asked.out
    for name in truth:
        assert any(re.search(rf"  class {name}\b", line) for line in classes), name
