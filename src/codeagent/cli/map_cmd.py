"""`codeagent map`: the repository's files that matter, ranked, with their definitions, in a
token budget (docs/map.md)."""

from __future__ import annotations

import click

from codeagent.cli.ask import wait_option
from codeagent.cli.common import dense_option, embed_option, print_json, repo_argument
from codeagent.cli.terminal import notice
from codeagent.repomap import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET  # light: no numpy


def _check_budget(_ctx: click.Context, _param: click.Parameter, value: int) -> int:
    from codeagent.repomap import check_budget

    return check_budget(value)  # ConfigError: one line, exit 2


@click.command("map")
@repo_argument
@click.option(
    "--budget",
    type=int,
    callback=_check_budget,
    default=DEFAULT_BUDGET,
    show_default=True,
    metavar="TOKENS",
    help=f"At most this many tokens ({MIN_BUDGET}-{MAX_BUDGET}, counted by all-MiniLM-L6-v2's"
    " tokenizer); filled to within 2 %.",
)
@click.option(
    "--focus",
    "focus",
    multiple=True,
    metavar="QUESTION|PATH",
    help="Turn the map towards a question, a file or a folder (repeatable). A path under"
    " tests/ or docs/ lets those files in.",
)
@embed_option
@dense_option
@wait_option
@click.option("--json", "as_json", is_flag=True, help="Print the map as JSON (files, definitions).")
def command(
    repo: str,
    budget: int,
    focus: tuple[str, ...],
    embed: str | None,
    dense: str | None,
    wait: bool,
    as_json: bool,
) -> None:
    """Print a ranked map of the files and definitions that matter.

    The map fits in --budget tokens. Files are ranked by PageRank over imports,
    calls and inheritance (turned towards --focus), each shown with its most
    important definitions and their signatures.

    Tests, docs, vendored and generated files are left out unless a --focus names them.
    The map is read from the index (built first if needed); an unchanged repository's map
    is served from the cache.

    \b
    Examples:
      codeagent map
      codeagent map ~/src/project --budget 4096
      codeagent map --focus "why does the retry loop never stop?"
      codeagent map --focus src/app/models.py --focus src/app/views.py --json
    """
    from codeagent.cancel import cancellable
    from codeagent.cli.common import Progress
    from codeagent.config import Settings
    from codeagent.index.kept import KeptIndex
    from codeagent.repo.remote import resolve_repo
    from codeagent.repomap import map_of

    settings = Settings.load(embed=embed, dense=dense)
    root = resolve_repo(repo, settings)
    # A first index that would take long to embed: mapped at once from the symbols, the
    # dense part built behind (as `codeagent ask` does); --wait waits for it.
    index = KeptIndex(root, settings, progress=Progress(), background=not wait)
    with cancellable():
        index.get()
    for line in index.take_notices():
        notice(line)
    found = map_of(index, budget=budget, focus=list(focus))
    if as_json:
        print_json(found.to_json())
        return
    from codeagent.cli.map_render import summary
    from codeagent.display import safe_text

    click.echo(safe_text(found.text))
    notice(summary(found))
