"""Go call sites resolved by receiver, package and stated type, against go/types
(``eval/go_calls.go``: the function or method the type checker ties each call to).

    PYTHONPATH=src:eval python eval/go_references_truth.py DIR [DIR ...] [--sample 300] [--show 8]

Needs a Go toolchain (``go`` on the PATH; Debian's ``golang-go`` 1.19 here). The repositories,
chosen and written down before the first run (none written here; each a checkout of the
commit named, its tracked ``.go`` files; none needs a module from outside but the standard
library), and why:

- spf13/pflag 5fdac2d: command-line flags: a ``FlagSet`` whose methods call each other
  through the receiver, one ``Value`` type per kind with constructors (``newIntValue``),
  package-level functions over a default ``CommandLine`` set.
- gorilla/mux db9d1d0: a router: ``Router`` and ``Route`` with builder methods that return
  ``*Route`` (chains), matchers behind interfaces, unexported helpers.
- BurntSushi/toml d733fc5: a parser and an encoder: a lexer's state functions, a decoder over
  ``reflect``, types embedded in others, an internal package.
- go-chi/chi 735ae2b: a router with sub-packages (``middleware``) importing the root
  package by a versioned path (``.../chi/v5``: the root is not told apart from another
  module), interfaces (``Router``), handlers as function values.

(google/uuid 2d3c2a9 was the one the resolution was developed on; it is not scored.)

For each repository the records are extracted as the index extracts them
(:func:`codeagent.lang.parse_file`), and ``--sample`` call sites are drawn at random (seed 46)
among those go/types holds (a site its tree does not hold is left out). Each package is
checked with its own tests; an external test package (``name_test``) on its own; packages of
other modules are empty (a call into one is "silent"). A conversion (``T(x)``), a builtin and
a variable holding a function are answered with no repository callable. Counted as in
``eval/ts_references_truth.py``: precision over the sites go/types answers, recall over those
it ties to a repository function or method.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oracle_truth import run_oracle, score


def go_truth(root: Path, paths: list[str]) -> dict[tuple[str, int, int], dict[str, Any]]:
    """(path, line, column) of each call go/types's tree holds -> its answer."""
    return run_oracle(["go", "run", str(Path(__file__).with_name("go_calls.go")), str(root)], paths)


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0] if __doc__ else ""
    return score(argv, description, ["*.go"], "go", "go/types", go_truth)


if __name__ == "__main__":
    raise SystemExit(main())
