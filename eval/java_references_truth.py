"""Java call sites resolved by declared type, import and package, against javac's attribution
(``eval/JavaCalls.java``: the method or constructor javac ties each call and ``new`` to).

    PYTHONPATH=src:eval python eval/java_references_truth.py DIR [DIR ...] [--sample 300] [--show 8]

Needs a JDK 17 or later (``java`` on the PATH: the source launcher runs the oracle). The
repositories, chosen and written down before the first run (none written here; each a checkout
of the commit named, its tracked ``.java`` files), and why:

- jhy/jsoup 46b62086: an HTML parser; a node hierarchy (``Node``, ``Element``, ``TextNode``)
  whose methods call each other through ``this``, inherited methods, static helpers
  (``StringUtil``, ``Validate``) called by class, fields typed by repository classes.
- google/gson 9835b6f90: a library with public types in one package and internals in
  others, type adapters and factories, nested classes, generics, anonymous classes.
- square/javapoet b9017a9: builders (``TypeSpec.Builder``), fluent calls on a call's result,
  static factories (``ClassName.get``), nested ``Builder`` classes.
- apache/commons-cli 0a68ae0e: a small command-line parser: ``Option``, ``Options``,
  parsers over a base class, static imports in tests.

(apache/commons-csv d9b9f062 was the one the resolution was developed on; it is not scored.)

For each repository the records are extracted as the index extracts them
(:func:`codeagent.lang.parse_file`), and ``--sample`` call sites are drawn at random (seed 46)
among those javac attributed or failed to (a site javac's tree does not hold is left out).
javac compiles every tracked ``.java`` file of the repository at once, without the libraries
(JUnit, ...): a call on a library's type is not attributed ("silent"). Counted as in
``eval/ts_references_truth.py``: a class stands for its constructors; precision over the sites
javac answers, recall over those javac ties to a repository method or constructor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oracle_truth import run_oracle, score


def javac_truth(root: Path, paths: list[str]) -> dict[tuple[str, int, int], dict[str, Any]]:
    """(path, line, column) of each call javac's tree holds -> its answer."""
    return run_oracle(["java", str(Path(__file__).with_name("JavaCalls.java")), str(root)], paths)


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0] if __doc__ else ""
    return score(argv, description, ["*.java"], "java", "javac", javac_truth)


if __name__ == "__main__":
    raise SystemExit(main())
