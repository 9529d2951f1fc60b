"""Source files per language family: what the plain baseline indexes and the miner counts.

The truth is written by hand from each ecosystem's own conventions (``go test`` reads
``_test.go``; Cargo reads ``tests/`` and ``benches/``; Maven's ``src/test/``; Jest/Vitest's
``*.test.ts`` and ``__tests__/``; tsd's ``*.test-d.ts``; ``.d.ts`` declares types only).
"""

from __future__ import annotations

import pytest

from codeagent.errors import EvalError
from codeagent.eval.baseline import BaselineRanker, is_source_py
from codeagent.eval.sources import LANGUAGES, RULES, is_source
from codeagent.records import Chunk

CASES = {
    "go": [
        ("mux.go", True),
        ("internal/route/regexp.go", True),
        ("cmd/cobra/main.go", True),
        ("mux_test.go", False),
        ("testdata/sample.go", False),
        ("vendor/github.com/x/y/y.go", False),
        ("_examples/server/main.go", False),
        ("examples/hello.go", False),
        ("mux.py", False),
        ("README.md", False),
    ],
    "rust": [
        ("src/lib.rs", True),
        ("src/value/de.rs", True),
        ("build.rs", True),
        ("clap_builder/src/builder/command.rs", True),
        ("tests/test.rs", False),
        ("tests/ui/missing.rs", False),
        ("benches/bench.rs", False),
        ("examples/demo.rs", False),
        ("fuzz/fuzz_targets/from_slice.rs", False),
        ("target/debug/build/out.rs", False),
    ],
    "java": [
        ("src/main/java/com/acme/Gson.java", True),
        ("gson/src/main/java/com/google/gson/internal/bind/TypeAdapters.java", True),
        ("src/test/java/com/acme/GsonTest.java", False),
        ("src/test/java/com/acme/Helper.java", False),
        ("module/src/main/java/com/acme/RoundTripTests.java", False),
        ("src/main/java/com/acme/ParserIT.java", False),
        ("examples/src/Demo.java", False),
        ("src/jmh/java/Bench.java", False),
        ("src/main/java/com/acme/Testing.java", True),  # a name, not a test class
    ],
    "js": [
        ("src/hono.ts", True),
        ("src/jsx/dom/render.tsx", True),
        ("lib/router/index.js", True),
        ("index.js", True),
        ("source/core/Ky.ts", True),
        ("src/utils/latest.mjs", True),
        ("bin/cli.cjs", True),
        ("src/contest.ts", True),  # ends in "test" but is no test
        ("src/hono.test.ts", False),
        ("src/router.spec.js", False),
        ("index.test-d.ts", False),  # tsd
        ("typings/index.d.ts", False),
        ("typings/commander-tests.ts", False),
        ("test.js", False),
        ("src/__tests__/router.ts", False),
        ("test/app.router.js", False),
        ("examples/auth/index.js", False),
        ("benchmarks/handle.ts", False),
        ("node_modules/debug/index.js", False),
        ("dist/index.js", False),
        ("deno_dist/hono.ts", False),  # a generated copy of src/
        ("vitest.config.ts", False),
        (".eslintrc.js", False),
        ("public/app.min.js", False),
        ("docs/guide.ts", False),
    ],
    "c": [
        ("cJSON.c", True),
        ("include/fmt/format.h", True),
        ("src/os.cc", True),
        ("tests/unity/src/unity.c", False),
        ("test/format-test.cc", False),
        ("src/parser_test.cpp", False),
    ],
    "csharp": [
        ("src/Newtonsoft.Json/JsonReader.cs", True),
        ("src/Newtonsoft.Json.Tests/JsonReaderTests.cs", False),
        ("src/App/obj/Debug/Gen.cs", False),
    ],
    "ruby": [
        ("lib/sinatra/base.rb", True),
        ("spec/rack/request_spec.rb", False),
        ("lib/rack/lint_test.rb", False),
    ],
    "php": [("Slim/App.php", True), ("tests/AppTest.php", False), ("src/RouteTest.php", False)],
}


@pytest.mark.parametrize(
    ("language", "path", "source"),
    [(language, path, source) for language, cases in CASES.items() for path, source in cases],
)
def test_is_source(language: str, path: str, source: bool) -> None:
    assert is_source(path, language) is source


def test_every_family_is_checked_and_python_keeps_its_rule() -> None:
    assert set(CASES) | {"python"} == set(LANGUAGES) == set(RULES)
    # Python's rule is the one every earlier baseline figure used (its own cases are in
    # test_eval_baseline.py); the other families' directory rules do not leak into it.
    assert is_source("pkg/bench/x.py", "python")
    assert is_source("vendor/x.py", "python")
    assert is_source("pkg_dist/x.py", "python")
    assert is_source_py("pkg/core.py")
    assert not is_source("pkg/core.py", "go")  # a suffix of another family


def test_unknown_language_is_one_clear_error() -> None:
    with pytest.raises(EvalError, match="unknown language 'cobol'"):
        is_source("a.cbl", "cobol")
    with pytest.raises(EvalError, match="choose one of python, go"):
        BaselineRanker([], language="cobol")


def chunk(path: str, text: str) -> Chunk:
    return Chunk(path=path, start_line=1, end_line=1 + text.count("\n"), text=text)


def test_baseline_indexes_the_source_files_of_the_language() -> None:
    chunks = [
        chunk("route.go", "func (r *Route) Subrouter() *Router { return nil }\n"),
        chunk("route_test.go", "func TestSubrouter subrouter subrouter subrouter\n"),
        chunk("subrouter.py", "subrouter subrouter subrouter\n"),
        chunk("README.md", "subrouter subrouter subrouter\n"),
        chunk("mux.go", "func NewRouter() *Router { return &Router{} }\n"),
    ]
    assert BaselineRanker(chunks, language="go").rank("subrouter") == ["route.go"]
    assert BaselineRanker(chunks).rank("subrouter") == ["subrouter.py"]  # python by default
