"""Ctrl-C during the first use's model export: seconds from SIGINT to the command's exit.

    python bench/bench_interrupt.py [--runs 3] [--after 1.0]

Each run: a fresh CODEAGENT_HOME, ``codeagent index --embed local`` on a one-file repository
in its own process group; once the export has started (a ``tmp-*.onnx`` file in the home's
``models/``) and ``--after`` seconds more, SIGINT goes to the group, as a terminal's Ctrl-C
does. Prints the exit status, the seconds to exit, and what was left in ``models/``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one_run(after: float) -> tuple[int, float, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        root, home = Path(tmp) / "repo", Path(tmp) / "home"
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "a.py").write_text("def area(side):\n    return side * side\n")
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        env = {**os.environ, "CODEAGENT_HOME": str(home)}
        command = [sys.executable, "-m", "codeagent", "index", "--embed", "local"]
        proc = subprocess.Popen(
            [*command, "--repo", str(root)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            # as a terminal's foreground job has it: a shell's background job ignores SIGINT
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        models = home / "models"
        while not (models.is_dir() and any(models.glob("tmp-*.onnx"))):
            if proc.poll() is not None:
                raise SystemExit(f"the command ended before exporting ({proc.returncode})")
            time.sleep(0.02)
        time.sleep(after)
        sent = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait()
        took = time.perf_counter() - sent
        left = sorted(p.name for p in models.iterdir())
        return proc.returncode, took, left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--after", type=float, default=1.0, help="seconds into the export")
    args = parser.parse_args()
    for _ in range(args.runs):
        status, took, left = one_run(args.after)
        print(f"exit {status}  {took:.2f} s from SIGINT to exit  left in models/: {left}")


if __name__ == "__main__":
    main()
