"""Draw the growth plot of docs/benchmarks.md from bench_growth.py's Markdown output.

Usage::

    python bench/plot_growth.py OUT.svg TABLE.md [TABLE.md ...]

Reads the ``cold`` and ``edit`` rows of every table (repository, chunks, run, wall s, CPU s,
peak RSS MiB, ...) and plots CPU seconds and peak RSS against the number of chunks, both
axes logarithmic. Needs matplotlib (the ``bench`` extra).
"""

from __future__ import annotations

import sys
from pathlib import Path


def read_rows(paths: list[Path]) -> dict[str, list[tuple[int, float, float, str]]]:
    """``{run: [(chunks, CPU s, peak RSS MiB, repository), ...]}`` sorted by chunks."""
    runs: dict[str, list[tuple[int, float, float, str]]] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 6 or not cells[1].isdigit():
                continue
            repo, chunks, run, _wall, cpu, rss = cells[:6]
            runs.setdefault(run, []).append((int(chunks), float(cpu), float(rss), repo))
    return {run: sorted(rows) for run, rows in runs.items()}


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out, tables = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    runs = read_rows(tables)
    fig, (cpu_ax, rss_ax) = plt.subplots(1, 2, figsize=(8, 3.2), layout="constrained")
    for run, marker in (("cold", "o"), ("edit", "s")):
        rows = runs.get(run, [])
        if not rows:
            continue
        chunks = [r[0] for r in rows]
        cpu_ax.plot(chunks, [r[1] for r in rows], marker=marker, label=run)
        rss_ax.plot(chunks, [r[2] for r in rows], marker=marker, label=run)
        for chunk_count, cpu, _rss, repo in rows:
            if run == "cold":
                cpu_ax.annotate(repo, (chunk_count, cpu), fontsize=7, xytext=(4, -10),
                                textcoords="offset points")  # fmt: skip
    for ax, label in ((cpu_ax, "CPU seconds"), (rss_ax, "peak RSS (MiB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("chunks")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    first = tables[0].read_text(encoding="utf-8").splitlines()[0]  # "`--embed SPEC`; load ..."
    spec = first.split("`")[1] if first.count("`") >= 2 else ""
    fig.suptitle(f"codeagent index {spec}: cold index and one-file edit", fontsize=9)
    fig.savefig(out, metadata={"Date": None} if out.suffix == ".svg" else None)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
