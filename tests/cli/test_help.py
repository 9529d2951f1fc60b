"""`codeagent --help` lists every subcommand with its help, though subcommands are imported
only when they run; each subcommand's own help still works."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# Checked by hand against each command's docstring (click cuts a summary to fit 80 columns).
GOLDEN_COMMANDS = """\
Commands:
  ask       Answer QUESTION about a repository, citing `path:line` sources.
  cache     Inspect and trim the index cache ($CODEAGENT_HOME/cache).
  doctor    Report the Python, the cache, and which LLM and embedding...
  eval      Run question suites (JSONL) and write report.json and report.md.
  eval-dev  Rank files for the suites' questions with the product and the...
  index     Index a repository (cached by its exact state; re-embeds only...
  map       Print a ranked map of the files and definitions that matter.
  mcp       Run the MCP server over stdio (for an editor or a coding agent).
  repl      Ask questions interactively; follow-up questions see the last...
  serve     Serve repositories over HTTP (JSON / SSE / NDJSON), MCP...
  status    Show the running server and the repositories it serves.
  stop      Stop the server `codeagent serve` started (the one recorded...
  watch     Index a repository, then keep the index current as its files...
"""
COMMANDS = [line.split()[0] for line in GOLDEN_COMMANDS.splitlines()[1:]]


def codeagent(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codeagent", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        timeout=120,
    )


def test_help_lists_every_command_with_its_summary() -> None:
    proc = codeagent("--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith(GOLDEN_COMMANDS)
    assert "default" not in proc.stdout.split("Commands:")[1]  # the hidden default command


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_has_its_own_help(name: str) -> None:
    proc = codeagent(name, "--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"Usage: python -m codeagent {name} [OPTIONS]")


def test_an_unknown_word_is_a_question_not_a_command(tmp_path: object) -> None:
    """The default command still takes a first word that names no command (here it stops at
    the folder check: the test's working folder is no git repository)."""
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", "nosuchcommand"],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "is not a git repository; pass --repo PATH, or --yes" in proc.stderr
