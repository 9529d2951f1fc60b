"""`codeagent eval`: run question suites through the agent and score them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from codeagent.bounds import K_MAX, K_MIN
from codeagent.cli.common import dense_option, embed_option, llm_option, number_option, path_option
from codeagent.cli.eval_options import out_option, suites_argument


@click.command("eval")
@suites_argument
@llm_option
@embed_option
@dense_option
@number_option(
    "-k",
    "k",
    values=click.IntRange(min=K_MIN, max=K_MAX),
    default=10,
    help="Sources per answer (at least 10 are retrieved, so hit@10 can be measured).",
)
@out_option(Path("eval/out"), "report.json and report.md")
@number_option(
    "--limit", values=click.IntRange(min=1), default=None, help="First N questions of each suite."
)
@click.option(
    "--repo-map",
    "repo_map",
    multiple=True,
    metavar="NAME=PATH",
    help="Use a local clone or bare mirror for a suite repo (URL or owner/name); repeatable.",
)
@path_option(
    "--compare",
    "compare_path",
    kind="file",
    metavar="OLD.json",
    help="Print how the aggregates moved against an earlier report.json.",
)
@click.option(
    "--judge",
    "judge_spec",
    default=None,
    metavar="ollama:MODEL|llamacpp:PATH",
    help="Score answers against the reference with an LLM judge (off by default).",
)
def command(
    suites: tuple[Path, ...],
    llm: str | None,
    embed: str | None,
    dense: str | None,
    k: int,
    out_dir: Path,
    limit: int | None,
    repo_map: tuple[str, ...],
    compare_path: Path | None,
    judge_spec: str | None,
) -> None:
    """Run question suites (JSONL) and write report.json and report.md.

    Each repository is checked out at its commit into the cache (a --repo-map clone or mirror
    stands in for the URL) and indexed once per (repository, commit). A question that fails
    is recorded and the run goes on.

    \b
    Examples:
      codeagent eval eval/stdlib.jsonl --llm none --embed none
      codeagent eval eval/swe-qa-requests.jsonl --llm none --embed local \\
          --repo-map psf/requests=PATH/TO/requests --out eval/out/swe-qa
      codeagent eval eval/stdlib.jsonl --compare eval/out/old/report.json
    """
    from codeagent.cli.common import Progress
    from codeagent.config import Settings
    from codeagent.errors import ConfigError
    from codeagent.eval.report import (
        build_report,
        compare,
        format_compare,
        load_report,
        write_reports,
    )
    from codeagent.eval.repos import parse_repo_map
    from codeagent.eval.runner import MIN_RANKED_FILES, EvalRun, default_session_factory, run_items
    from codeagent.eval.suite import load_suites
    from codeagent.store.dense import backend_class, named

    items = load_suites(suites, limit=limit)
    old = load_report(compare_path) if compare_path is not None else None
    mapping = parse_repo_map(repo_map)
    settings = Settings.load(llm=llm, embed=embed, dense=dense, k=max(k, MIN_RANKED_FILES))
    backend_class(settings.dense)  # an unknown backend: one line now, not an error per item
    chat_model = _chat_model(settings.llm, settings) if settings.llm != "none" else None
    judge = None
    if judge_spec:
        from codeagent.eval.judge import LLMJudge

        judge_model = _chat_model(judge_spec, settings)
        if judge_model is None:
            raise ConfigError(
                f"--judge {judge_spec}: no model answers; name one, e.g. ollama:MODEL"
            )
        judge = LLMJudge(judge_model)
    run = EvalRun(
        settings=settings,
        repo_map=mapping,
        session_factory=default_session_factory(chat_model),
        judge=judge,
        progress=Progress(),
    )
    records = run_items(items, run)
    config = {
        "suites": [p.name for p in suites],
        "llm": settings.llm if chat_model is not None else "none",
        "embed": settings.embed,
        "dense": named(settings.dense),
        "k": settings.k,
        "limit": limit,
        "judge": judge_spec,
    }
    report = build_report(records, config=config, groups=run.groups)
    json_path, md_path = write_reports(report, out_dir)
    click.echo(summary(report))
    click.echo(f"wrote {json_path} and {md_path}", err=True)
    if old is not None:
        click.echo(f"\ncompared with {compare_path}:")
        click.echo(format_compare(compare(old, report)))


def _chat_model(spec: str, settings: Any) -> Any:
    from codeagent.llm import make_chat_model

    return make_chat_model(spec, settings)


def summary(report: dict[str, Any]) -> str:
    """One line per suite and one overall: the headline numbers."""

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.1f}%"

    lines = []
    scopes = {**report["suites"], "overall": report["overall"]}
    for name, agg in scopes.items():
        ret = agg["retrieval"]
        parts = [
            f"{agg['questions']} questions",
            f"{agg['errors']} errors",
            f"routing {pct(agg['routing']['accuracy'])}",
        ]
        if ret["n"]:
            parts.append(f"hit@1/5/10 {pct(ret['hit@1'])}/{pct(ret['hit@5'])}/{pct(ret['hit@10'])}")
            parts.append(f"MRR {ret['mrr']:.3f}")
        if agg["cited_files"]["n"]:
            parts.append(f"cited R@10 {pct(agg['cited_files']['cited_recall@10'])}")
        if agg["structural"]["n"]:
            parts.append(f"exact sets {pct(agg['structural']['exact'])}")
        parts.append(f"fallback {pct(agg['fallback_rate'])}")
        lines.append(f"{name}: " + ", ".join(parts))
    return "\n".join(lines)
