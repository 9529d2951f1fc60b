"""`codeagent eval-dev`: the dev/test protocol run (retrieval only, product beside baseline)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from codeagent.cli.common import dense_option, embed_option, number_option, path_option
from codeagent.cli.eval_options import out_option, suites_argument
from codeagent.eval.splits import SPLIT_CHOICES


@click.command("eval-dev")
@suites_argument
@path_option(
    "--mirrors",
    kind="dir",
    required=True,
    help="Directory of bare mirrors, OWNER+NAME/repo (or OWNER+NAME) per repository.",
)
@click.option(
    "--split",
    type=click.Choice(list(SPLIT_CHOICES)),
    default="dev",
    show_default=True,
    help="Which repositories to run: fit, choose, dev (both), sealed; or, in other languages "
    "than Python: langs, langs2 (held out, read), langs_fit (the ranker of other languages is "
    "fitted on it), langs3 (sealed in the first round, read), langs4 (sealed); issue-shaped "
    "groups issues_*; how_sealed: how-questions of release snapshots (eval/README.md).",
)
@click.option(
    "--ranker",
    "ranker_spec",
    default="product,baseline",
    show_default=True,
    help="Rankers to score, comma-separated: product, baseline, first (the product without its "
    "learned model: the first ranker's hand-set weights), answer_first (the first answer on a "
    "repository seen for the first time: BM25, symbols and the question's candidate files "
    "embedded first; needs the local embedder).",
)
@embed_option
@dense_option
@number_option(
    "--max-commits",
    values=click.IntRange(min=1),
    default=None,
    help="At most N commits per repository: a fixed sample drawn with --seed.",
)
@number_option("--seed", values=click.INT, default=0, help="Seed of the commit sample.")
@path_option(
    "--checkouts",
    kind="dir",
    help="Where each repository is cloned and checked out (default: $CODEAGENT_HOME/checkouts).",
)
@out_option(Path("eval/out/dev"), "report.json and tables.md")
def command(
    suites: tuple[Path, ...],
    mirrors: Path,
    split: str,
    ranker_spec: str,
    embed: str | None,
    dense: str | None,
    max_commits: int | None,
    seed: int,
    checkouts: Path | None,
    out_dir: Path,
) -> None:
    """Rank files for the suites' questions with the product and the plain baseline.

    Retrieval only (no router, no answer): each (repository, commit) is exported from its
    mirror, indexed once, and searched by every ranker. Prints per-repository tables for each
    split (fit, choose, sealed); writes report.json and tables.md.

    \b
    Examples:
      codeagent eval-dev eval/swebench-dev.jsonl eval/swe-qa-*.jsonl \\
          --mirrors PATH/TO/MIRRORS --embed none --split choose
    """
    from codeagent.cli.common import Progress
    from codeagent.config import Settings
    from codeagent.errors import EvalError
    from codeagent.eval.dev import DevRun, parse_rankers, run_dev
    from codeagent.eval.devreport import build_dev_report, write_dev_report
    from codeagent.eval.splits import sample_commits, select
    from codeagent.eval.suite import load_suites
    from codeagent.store.dense import backend_class, named

    rankers = parse_rankers(ranker_spec)
    if not mirrors.is_dir():
        raise EvalError(f"--mirrors {mirrors}: not a directory")
    items = sample_commits(select(load_suites(suites), split), max_commits, seed)
    if not items:
        raise EvalError(f"no question of these suites is about a repository of split {split!r}")
    settings = Settings.load(embed=embed, dense=dense, k=10)
    backend_class(settings.dense)  # an unknown backend: one line now, not an error per item
    run = DevRun(
        settings=settings,
        mirrors=mirrors,
        checkouts=checkouts or settings.home / "checkouts",
        rankers=rankers,
        progress=Progress(),
    )
    started = time.perf_counter()
    config: dict[str, Any] = {
        "suites": [p.name for p in suites],
        "split": split,
        "rankers": list(rankers),
        "embed": settings.embed,
        "dense": named(settings.dense),
        "k": settings.k,
        "max_commits": max_commits,
        "seed": seed,
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }

    def write(records: list[dict[str, Any]], *, partial: bool) -> tuple[Path, Path]:
        config["seconds"] = round(time.perf_counter() - started, 1)
        config["partial"] = partial
        report = build_dev_report(records, config=config, groups=run.groups, skipped=run.skipped)
        return write_dev_report(report, out_dir)

    def progress_report(records: list[dict[str, Any]]) -> None:
        write(records, partial=True)

    run.after_checkout = progress_report
    json_path, md_path = write(run_dev(items, run), partial=False)
    click.echo(md_path.read_text(encoding="utf-8"))
    click.echo(f"wrote {json_path} and {md_path}", err=True)
