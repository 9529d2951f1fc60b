"""The TypeScript/JavaScript (or Java, Go, Rust, C, C++, C#, PHP, Ruby) symbol phase with and
without call targets, in-process.

    PYTHONPATH=src python bench/bench_ts_targets.py REPO [--runs 5] [--language LANGUAGE]

``LANGUAGE``: typescript (the default), java, go, rust, c, cpp, csharp, php, ruby.

Reads every tracked ``.ts``/``.tsx`` file of REPO (``--language java``: ``.java``; ``go``:
``.go``; ``rust``: ``.rs``; ``c``: ``.c`` and ``.h``; ``cpp``: ``.cpp``, ``.cc``, ``.cxx``,
``.hpp``, ``.hh``, ``.hxx``; ``csharp``: ``.cs``; ``php``: ``.php``; ``ruby``: ``.rb``) once
(not timed), then times ``lang.parse_file`` over all of them (grammar parse, definitions,
imports, call sites: the language layer's share of an index build) ``--runs`` times with the
receiver walk (:mod:`codeagent.lang.ts_calls`, :mod:`codeagent.lang.java_calls`,
:mod:`codeagent.lang.go_calls`, :mod:`codeagent.lang.rust_calls`,
:mod:`codeagent.lang.c_calls`, :mod:`codeagent.lang.cpp_calls`,
:mod:`codeagent.lang.csharp_calls`, :mod:`codeagent.lang.php_calls`,
:mod:`codeagent.lang.ruby_calls`) and ``--runs`` times
without it (and without the call query's captures for it), interleaved, and prints the medians
in seconds (wall and CPU) and the difference, and the median of the runs' paired CPU ratios
(with / without, run by run: what a drift of the machine's speed changes least). Then, on a
graph of those records, the first ``who calls NAME`` (resolution happens then, for that name's
sites only) of common names, in milliseconds.
Run it under the heavy-job lock. ``--one with|without``: only that way, untimed, for
``bench/walk_instructions.sh`` (instructions counted by valgrind: the same every run).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import subprocess
import time
from pathlib import Path

from codeagent import lang
from codeagent.lang import c, cpp, csharp, go, java, javascript, php, ruby, rust, typescript
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import pack_calls

NAMES = ("get", "send", "run", "close", "json")
CSHARP_NAMES = ("Get", "Write", "Read", "Add", "Create")  # C#'s methods are capitalized
# Go's calls without what the receiver walk reads: the query before it
GO_CALLS = """
(call_expression function: [
  (identifier) @name
  (selector_expression field: (field_identifier) @name)
  (generic_type type: (type_identifier) @name)]) @call
"""
# Rust's calls without what the receiver walk reads: the query before it
RUST_CALLS = """
(call_expression function: [
  (identifier) @name
  (field_expression field: (field_identifier) @name)
  (scoped_identifier name: (identifier) @name)
  (generic_function function: [(identifier) @name
                               (scoped_identifier name: (identifier) @name)
                               (field_expression field: (field_identifier) @name)])]) @call
"""
# C++'s calls without what the receiver walk reads: the query before it
CPP_CALLS = (
    c.CALLS
    + """
(call_expression function: (qualified_identifier name: (identifier) @name)) @call
"""
)
# Java's calls without what the receiver walk reads: the query before it
JAVA_CALLS = """
(method_invocation name: (identifier) @name) @call
(object_creation_expression type: [(type_identifier) @name
                                   (generic_type (type_identifier) @name)]) @call
"""

# C#'s calls without what the receiver walk reads: the query before it
CSHARP_CALLS = """
(invocation_expression function: [(identifier) @name
                                  (member_access_expression name: (identifier) @name)
                                  (generic_name (identifier) @name)]) @call
(object_creation_expression type: [(identifier) @name (generic_name (identifier) @name)]) @call
"""
# PHP's calls without what the receiver walk reads: the query before it
PHP_CALLS = """
(function_call_expression function: [(name) @name (qualified_name (name) @name .)]) @call
(member_call_expression name: (name) @name) @call
(scoped_call_expression name: (name) @name) @call
(object_creation_expression [(name) @name (qualified_name (name) @name .)]) @call
"""

# Ruby's calls without what the receiver walk reads: the query before it
RUBY_CALLS = """
(call method: (identifier) @name) @call
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--language",
        choices=("typescript", "java", "go", "rust", "c", "cpp", "csharp", "php", "ruby"),
        default="typescript",
    )
    parser.add_argument(
        "--one",
        choices=("with", "without"),
        help="parse every file --runs times one way only, untimed (bench/walk_instructions.sh)",
    )
    args = parser.parse_args()
    root = args.repo.resolve()
    patterns = {
        "java": ["*.java"],
        "go": ["*.go"],
        "rust": ["*.rs"],
        "c": ["*.c", "*.h"],
        "cpp": ["*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx"],
        "csharp": ["*.cs"],
        "php": ["*.php"],
        "ruby": ["*.rb"],
    }.get(args.language, ["*.ts", "*.tsx"])
    listed = subprocess.run(
        ["git", "ls-files", *patterns], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    texts = {p: (root / p).read_text(encoding="utf-8", errors="replace") for p in listed}
    # without: the call query's own patterns only (no receiver walk, no scope captures)
    if args.language == "java":
        spec = java.SPEC
        plain = dataclasses.replace(spec, receivers=None, declared_types=False, calls=JAVA_CALLS)
    elif args.language == "go":
        spec = go.SPEC
        plain = dataclasses.replace(spec, receivers=None, calls=GO_CALLS)
    elif args.language == "rust":
        spec = rust.SPEC
        plain = dataclasses.replace(spec, receivers=None, crate_paths=False, calls=RUST_CALLS)
    elif args.language == "cpp":
        spec = cpp.SPEC
        plain = dataclasses.replace(spec, receivers=None, scoped_names=False, calls=CPP_CALLS)
    elif args.language == "csharp":
        spec = csharp.SPEC
        plain = dataclasses.replace(spec, receivers=None, declared_types=False, calls=CSHARP_CALLS)
    elif args.language == "php":
        spec = php.SPEC
        plain = dataclasses.replace(spec, receivers=None, qualified_types=False, calls=PHP_CALLS)
    elif args.language == "ruby":
        spec = ruby.SPEC
        plain = dataclasses.replace(spec, receivers=None, lexical_constants=False, calls=RUBY_CALLS)
    elif args.language == "c":
        spec = c.SPEC
        plain = dataclasses.replace(spec, receivers=None, linked_functions=False, calls=c.CALLS)
    else:
        spec = typescript.SPEC
        plain = dataclasses.replace(spec, receivers=None, calls=javascript.CALLS)
    from codeagent.lang.extract import parse

    def run(spec: lang.LanguageSpec) -> tuple[float, float, dict]:
        start, cpu = time.perf_counter(), time.process_time()
        records = {}
        for path, text in texts.items():
            records[path] = parse(spec, path, text).record(path)
        return time.perf_counter() - start, time.process_time() - cpu, records

    if args.one is not None:  # under valgrind: its instruction count is the measure
        for _ in range(args.runs):
            run(spec if args.one == "with" else plain)
        return
    run(spec)
    run(plain)  # grammars and queries loaded for both
    with_t, without = [], []
    for _ in range(args.runs):
        seconds, cpu, records = run(spec)
        with_t.append((seconds, cpu))
        without.append(run(plain)[:2])
    for i, what in enumerate(("wall", "CPU")):
        a, b = statistics.median(t[i] for t in with_t), statistics.median(t[i] for t in without)
        print(f"{len(texts)} files, {what}: with targets {a:.3f} s, without {b:.3f} s:", end=" ")
        print(f"{a / b - 1:+.1%}")
    ratios = sorted(w[1] / wo[1] - 1 for w, wo in zip(with_t, without, strict=True))
    print(
        f"paired CPU: median {statistics.median(ratios):+.1%}"
        f" (min {ratios[0]:+.1%}, max {ratios[-1]:+.1%}, {len(ratios)} pairs)"
    )
    for rec in records.values():
        rec["c"] = pack_calls(rec["c"])
    graph = SymbolGraph(records)
    graph.warm()
    for name in CSHARP_NAMES if args.language == "csharp" else NAMES:
        start = time.perf_counter()
        sites = graph.callers(name)
        ms = (time.perf_counter() - start) * 1000
        resolved = sum(s.resolved for s in sites)
        print(f"who calls {name}: {len(sites)} sites, {resolved} resolved, {ms:.1f} ms")


if __name__ == "__main__":
    main()
