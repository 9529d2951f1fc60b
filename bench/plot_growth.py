"""Draw the growth plot of docs/benchmarks.md from bench_growth.py's output.

Usage::

    python bench/plot_growth.py OUT.svg RESULTS.json|TABLE.md [...]

``RESULTS.json`` (``bench_growth.py --json``): two panels against the number of chunks, both
axes logarithmic: the times (first answer, cold, one-file edit, unchanged re-open; wall
seconds) and the memory and disk (peak RSS over the runs, cold's peak RSS, the cache entry).
``TABLE.md``: the older Markdown tables (one row per run: repository, chunks, run, wall s,
CPU s, peak RSS MiB, ...) give the cold / edit / re-open times and peak RSS they hold.
Needs matplotlib (the ``bench`` extra).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TIMES = {
    "first_answer_s": "first answer",
    "cold_s": "cold",
    "edit_s": "edit",
    "reopen_s": "re-open",
}
SIZES = {"peak_rss_mib": "peak RSS (max)", "cold_rss_mib": "cold peak RSS", "disk_mib": "disk"}
OLD_RUNS = {"cold": "cold", "edit": "edit", "re-open": "reopen"}

Series = dict[str, list[tuple[int, float]]]  # measure -> [(chunks, value), ...]


def read_json(path: Path, series: Series) -> str:
    """Add the measures of one ``--json`` file to ``series``; its ``--embed`` spec."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for repo in data["repos"]:
        for key, value in repo["measures"].items():
            series.setdefault(key, []).append((int(repo["chunks"]), float(value)))
    return f"--embed {data['embed']}" if data.get("embed") else ""


def read_table(path: Path, series: Series) -> str:
    """Add the wall times and peak RSS of an older Markdown table; its ``--embed`` spec."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6 or not cells[1].replace(",", "").isdigit() or cells[2] not in OLD_RUNS:
            continue
        chunks, run = int(cells[1].replace(",", "")), OLD_RUNS[cells[2]]
        wall, rss = cells[3], cells[5]
        series.setdefault(f"{run}_s", []).append((chunks, float(wall)))
        rss_key = "cold_rss_mib" if run == "cold" else f"{run}_rss_mib"
        series.setdefault(rss_key, []).append((chunks, float(rss)))
    first = lines[0] if lines else ""  # "`--embed SPEC`; load ..."
    return first.split("`")[1] if first.count("`") >= 2 else ""


def read(paths: list[Path]) -> tuple[Series, str]:
    series: Series = {}
    specs = [read_json(p, series) if p.suffix == ".json" else read_table(p, series) for p in paths]
    return {k: sorted(v) for k, v in series.items()}, ", ".join(sorted(set(specs) - {""}))


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out, inputs = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    missing = [str(p) for p in inputs if not p.is_file()]
    if missing:
        print(f"no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda value, _pos: f"{value:,.0f}" if value >= 10 else f"{value:g}")

    series, spec = read(inputs)
    fig, (time_ax, size_ax) = plt.subplots(1, 2, figsize=(8, 3.2), layout="constrained")
    markers = iter("osD^v<>")
    for ax, measures in ((time_ax, TIMES), (size_ax, SIZES)):
        for key, label in measures.items():
            points = series.get(key, [])
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker=next(markers),
                        label=label)  # fmt: skip
    for ax, label in ((time_ax, "wall seconds"), (size_ax, "MiB")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            axis.set_major_formatter(plain)
            if high < 10 * low:  # within a decade: label the minor ticks too
                axis.set_minor_formatter(plain)
        ax.set_xlabel("chunks")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"codeagent {spec}: growth with the repository", fontsize=9)
    fig.savefig(out, metadata={"Date": None} if out.suffix == ".svg" else None)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
