"""Per-question latency through a running ``codeagent serve`` on one checkout, as a client
sees it (loopback HTTP, ``POST /v1/ask``).

    python bench/bench_server_questions.py CHECKOUT [--rounds 6] [--port 8793]

Starts ``codeagent serve --repo CHECKOUT --embed none --llm none`` with the Python that runs
this script (``PYTHONPATH`` chooses the sources: run it once per version, in turn), waits for
the first answer, then asks three questions (a how-question, a structural one, a where
question) ``--rounds`` times each and prints each one's median in milliseconds; the server is
stopped after. Each question starts with the server's probe of the repository, so this is
where the cost of reading git's index shows. A checkout git cannot write (``cp -r`` of a
clone, then ``chattr +i CHECKOUT/.git`` as root: no ``index.lock`` can be made, as on a
read-only mount) keeps its index's stale stat data for good. Run it under the heavy-job lock.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

QUESTIONS = (
    "how does the linter apply fixes to a file?",
    "list the classes in src/sqlfluff/core/linter/linter.py",
    "where is the noqa comment parsing done?",
)


def ask(port: int, question: str) -> float:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/ask",
        data=json.dumps({"question": question, "k": 8}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        response.read()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--questions", nargs="+", default=list(QUESTIONS))
    args = parser.parse_args()
    server = subprocess.Popen(
        [sys.executable, "-m", "codeagent", "serve", "--repo", str(args.checkout),
         "--embed", "none", "--llm", "none", "--port", str(args.port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        for _ in range(600):  # the first index may take a while
            try:
                ask(args.port, args.questions[0])
                break
            except OSError:
                time.sleep(1)
        times: dict[str, list[float]] = {q: [] for q in args.questions}
        for _ in range(args.rounds):
            for question in args.questions:
                times[question].append(ask(args.port, question))
        for question, seconds in times.items():
            print(f"{statistics.median(seconds) * 1000:7.1f} ms  {question}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()


if __name__ == "__main__":
    main()
