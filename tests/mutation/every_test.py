"""Judging mutants against every test file listed for their module (``every_test = true`` in
``modules.toml``).

mutmut runs a mutant only against the tests that reached its function inside the pytest
process while it mapped them. Code that runs in other processes (the chunking pool's workers,
a ``python -m codeagent`` the test starts) is never seen reached there, so its mutants run
against none of the tests, or too few, and "survive". For such a module every mutant mutmut
did not kill is run here against all of the module's test files, with the mutant switched on
through ``MUTANT_UNDER_TEST``, which child processes inherit along with ``PYTHONPATH`` (the
mutated copy): a test that fails kills it, one that runs 5x past the unmutated time times out
(killed, as mutmut counts a hang).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def _pytest(work: Path, tests: list[str], markers: str, mutant: str | None, timeout: float) -> int:
    env = {**os.environ, "PYTHONPATH": str(work / "mutants" / "src")}
    env.pop("MUTANT_UNDER_TEST", None)
    if mutant is not None:
        env["MUTANT_UNDER_TEST"] = mutant
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["-m", markers, *tests]
    done = subprocess.run(command, cwd=work, env=env, capture_output=True, timeout=timeout)
    return done.returncode


def judge(
    work: Path, slug: str, names: list[str], tests: list[str], markers: str
) -> dict[str, str]:
    """``{name: "killed" | "survived" | "timeout"}`` for the mutants ``names`` of module
    ``slug`` (mutmut's names without the module prefix), each against every test file."""
    started = time.monotonic()
    if _pytest(work, tests, markers, None, 3600) != 0:
        raise RuntimeError(f"the tests of {slug} fail without a mutant")
    limit = 5 * (time.monotonic() - started) + 10
    verdicts: dict[str, str] = {}
    for n, name in enumerate(names, 1):
        try:
            code = _pytest(work, tests, markers, f"{slug}.{name}", limit)
        except subprocess.TimeoutExpired:
            verdicts[name] = "timeout"
        else:
            verdicts[name] = "survived" if code == 0 else "killed"
        print(f"    [{n}/{len(names)}] {verdicts[name]}: {name}", file=sys.stderr)
    return verdicts
