"""Ruby call sites resolved by receiver, against TypeProf (the type analyzer Ruby 3.1 ships as
a bundled gem: a development-time oracle, never a dependency of the project).

    apt-get install ruby    # Ruby 3.1 with its bundled typeprof 0.21
    PYTHONPATH=src python eval/ruby_references_truth.py DIR [--under lib] [--seconds 300]
        [--show 8] [--marks]

Reads DIR's ``.rb`` files under ``--under`` as the index extracts them and runs TypeProf over
the same files (``eval/typeprof_calls.rb``): its abstract interpretation runs every method,
those nothing calls with arguments of unknown type, and records, for each call it sends to a
method body it has, that body's ``def`` line (``new`` lands on the class's ``initialize``). Each
of our call sites whose name is written once on its line is compared with what TypeProf
recorded on that line for that name: precision over the sites both tie to the repository,
recall over the sites TypeProf ties to a method of the repository. TypeProf records nothing
for many sites whose receiver the code states (a path it leaves after a call on a value of
unknown type, a line where an expression started above it): those that ours ties are counted
apart, not judged (``--show`` lists some, to be read by hand). ``--marks``: each site's
answer, one a line.

The repositories, each chosen and written down before its first run (none written here):

- jnunemaker/httparty (2daba91; 24 files under ``lib/``): a module its users include
  (``HTTParty``, its ``ClassMethods``), a request object with many small methods called on
  ``self``, parsers and a connection adapter made with ``new``.
- lostisland/faraday (the mirror's head; ``lib/``): a connection over a middleware stack
  (``RackBuilder``), options classes over ``Struct``, adapters and middleware subclasses,
  ``extend`` and ``include`` of its own modules.
- rack/rack (the mirror's head; ``lib/``): request and response objects, middleware classes
  built with ``new`` and called with ``call``, utility modules called by constant
  (``Utils.escape``).
- rails/thor (the mirror's head; ``lib/``): a command-line framework of classes and modules
  mixed in (``Thor::Base``, ``Thor::Shell``), class methods over ``class << self``.

Held out (chosen and written down before their one run, after the resolution was built on
the four above; nothing was changed after it):

- ruby/rake (474500ab; 44 files under ``lib/``): tasks, a task manager mixed into the
  application, file utilities extended into the top level.
- sinatra/sinatra (cb22afd7; 7 files under ``lib/``): one large ``Sinatra::Base`` whose class
  methods (``class << self``) build the routes and settings.
"""

from __future__ import annotations

import argparse
import posixpath
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from php_references_truth import records_graph
from php_references_truth import sites_of as php_sites

from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS

DRIVER = Path(__file__).with_name("typeprof_calls.rb")
Site = tuple[str, int, str]  # (path, line, name)


def graph_of(root: Path, under: str) -> SymbolGraph:
    """The symbol graph of every ``.rb`` file under ``root/under``."""
    return records_graph(root, sorted((root / under).rglob("*.rb")))


def sites_of(graph: SymbolGraph, root: Path) -> dict[Site, tuple[str, bool] | None]:
    """Each call site whose name is written once on its line, with what ours tie it to."""
    edges = (r"(?<![\w@$:])", r"(?![\w?!=])")  # not @x, $x, X::x; not x?, x!, x=
    found = php_sites(graph, root, " # ", edges)
    return {(path, line, name): ours for (path, line, name, _), ours in found.items()}


def oracle(root: Path, files: list[str], seconds: int) -> dict[Site, set[tuple[str, int]]]:
    """What TypeProf ties each (path, line, name) to: the def lines of the repository's
    methods (``new`` as its ``initialize``)."""
    done = subprocess.run(
        ["ruby", str(DRIVER), str(root), str(seconds), *files],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    out: dict[Site, set[tuple[str, int]]] = defaultdict(set)
    for row in done.stdout.splitlines():
        path, line, _column, name, callee, def_line = row.split("\t")
        callee = posixpath.normpath(callee)  # a require_relative's lib/a/../b.rb
        if name == "initialize":
            out[(path, int(line), "new")].add((callee, int(def_line)))
        out[(path, int(line), name)].add((callee, int(def_line)))
    return out


def declared(graph: SymbolGraph, full: str) -> set[tuple[str, int]]:
    """The line a definition's ``def`` is on (a class's: its ``initialize``'s)."""
    d = graph._by_full[full]
    found = {(d.path, d.line)}
    if d.kind in CLASS_KINDS:
        found |= {(m.path, m.line) for m in graph.members(d) if m.name == "initialize"}
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("root", type=Path)
    parser.add_argument("--under", default="lib", help="the folder analyzed (default lib)")
    parser.add_argument("--seconds", type=int, default=300, help="TypeProf's time limit")
    parser.add_argument("--show", type=int, default=8)
    parser.add_argument("--marks", action="store_true")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if shutil.which("ruby") is None:
        print("error: no ruby (apt-get install ruby: Ruby 3.1 ships typeprof)", file=sys.stderr)
        return 2
    graph = graph_of(root, args.under) if (root / args.under).is_dir() else None
    if graph is None or not graph.files:
        print(f"error: {args.root}: no .rb file under {args.under}/", file=sys.stderr)
        return 2
    ours = sites_of(graph, root)
    count = Counter(
        "by name" if t is None else "outside" if t[1] else "tied" for t in ours.values()
    )
    try:
        theirs = oracle(root, sorted(graph.files), args.seconds)
    except subprocess.CalledProcessError as failed:
        last = (failed.stderr or "").strip().splitlines()[-1:] or ["no message"]
        print(f"error: TypeProf failed: {last[0]}", file=sys.stderr)
        return 2
    sites = sorted(ours)
    mine = {s for s in sites if (t := ours[s]) is not None and not t[1] and t[0] in graph._by_full}
    right = {s for s in mine if declared(graph, ours[s][0]) & theirs.get(s, set())}  # type: ignore[index]
    tied = {s for s in sites if theirs.get(s)}
    silent = mine - tied
    if args.marks:
        for s in sites:
            print(f"{s[0]}:{s[1]} {s[2]} -> {sorted(theirs.get(s, ()))} (ours: {ours[s]})")
    print(f"{args.root}: {len(ours)} call sites read alone on their line: {count['tied']} tied "
          f"to the repository, {count['outside']} outside, {count['by name']} by name")  # fmt: skip
    judged = len(mine & tied)
    print(f"precision {100 * len(right) / max(judged, 1):.1f} % ({len(right)} of {judged}); "
          f"{len(silent)} more tied where TypeProf records nothing")  # fmt: skip
    hit = len(tied & right)
    print(f"recall {100 * hit / max(len(tied), 1):.1f} % ({hit} of {len(tied)})")
    wrong, missed = sorted((mine & tied) - right), sorted(tied - right)
    for label, shown in (("wrong", wrong), ("missed", missed), ("unjudged", sorted(silent))):
        for s in shown[: args.show]:
            answer = sorted(theirs.get(s, ()))
            print(f"  {label}: {s[0]}:{s[1]} {s[2]}: ours {ours[s]}, theirs {answer}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
