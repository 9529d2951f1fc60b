"""A question in words about a Rust file's code is shown the code, not the unit tests the same
file holds: the tests told apart by their attributes and modules, and the chunks a real index
shows."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from codeagent.rank.test_chunks import rust_tests
from conftest import GitRepoFactory

# A definition over 50 lines is cut into its items, as in a real crate: filler methods and
# filler tests make the impl and the test module that long. Each test repeats the words of the
# question; the code that answers it says them once.
FILLER_METHODS = "".join(
    f"    pub fn bound_{n}(&self) -> u64 {{\n        {n} + 1\n    }}\n\n" for n in range(14)
)
FILLER_TESTS = "".join(
    f"    #[test]\n    fn bound_{n}_is_kept() {{\n"
    f"        assert_eq!(SizeFilter::Max(1).bound_{n}(), {n} + 1);\n    }}\n\n"
    for n in range(12)
)
SIZE = f"""\
/// A size bound given on the command line.
pub enum SizeFilter {{
    Max(u64),
    Min(u64),
}}

impl SizeFilter {{
    /// Whether a file passes this filter: its size compared against the bound.
    pub fn is_within(&self, size: u64) -> bool {{
        match *self {{
            SizeFilter::Max(limit) => size <= limit,
            SizeFilter::Min(limit) => size >= limit,
        }}
    }}

{FILLER_METHODS}}}

fn test_bound() -> u64 {{
    1000
}}

#[test]
fn max_filter_passes_small_file() {{
    // a file's size compared against the filter
    assert!(SizeFilter::Max(test_bound()).is_within(10));
}}

#[cfg(test)]
mod checks {{
    use super::*;

    #[test]
    fn min_keeps_large_files() {{
        // a file's size compared against the filter: above
        assert!(SizeFilter::Min(10).is_within(1000));
    }}

    #[tokio::test]
    async fn max_keeps_small_files() {{
        // a file's size compared against the filter: below
        assert!(SizeFilter::Max(1000).is_within(10));
    }}

{FILLER_TESTS}}}
"""
FIRST_TESTS = {  # the tests the question's words fill
    "max_filter_passes_small_file",
    "checks.min_keeps_large_files",
    "checks.max_keeps_small_files",
}
FILES = {
    "Cargo.toml": '[package]\nname = "finder"\nversion = "0.1.0"\n',
    "src/filter/size.rs": SIZE,
    "src/main.rs": 'mod filter;\n\nfn main() {\n    println!("finder");\n}\n',
}
QUESTION = "how is a file's size compared against the size filter?"


def test_the_tests_of_a_rust_file_are_its_test_functions_and_test_modules() -> None:
    chunks = chunk_file("src/filter/size.rs", SIZE)
    found = {chunks[i].symbol for i in rust_tests(chunks, range(len(chunks)))}
    # the #[test] function, and the #[cfg(test)] module with everything in it
    in_module = {c.symbol for c in chunks if c.symbol.split(".")[0] == "checks"}
    assert found == {"max_filter_passes_small_file"} | in_module
    assert len(in_module) == 1 + 2 + 12  # its head and its fourteen tests, each a chunk
    assert {"SizeFilter.is_within", "test_bound"} <= {c.symbol for c in chunks} - found


NESTED_CODE = "".join(f"    pub fn f{n}() -> u32 {{\n        {n}\n    }}\n\n" for n in range(14))
NESTED_TESTS = "".join(
    f"        fn helper_{n}() -> u32 {{\n            super::super::f{n}()\n        }}\n\n"
    for n in range(12)
)
NESTED = f"""\
pub fn test() -> u32 {{
    1
}}

pub mod outer {{
{NESTED_CODE}
    #[cfg(test)]
    mod checks {{
{NESTED_TESTS}    }}
}}
"""


def test_a_nested_test_module_is_a_test_and_a_function_named_test_is_not() -> None:
    chunks = chunk_file("src/lib.rs", NESTED)
    found = {chunks[i].symbol for i in rust_tests(chunks, range(len(chunks)))}
    # everything of outer.checks (its head, its helpers with no attribute, its tail), nothing else
    assert found == {c.symbol for c in chunks if c.symbol.startswith("outer.checks")}
    assert len(found) == 1 + 12
    assert "test" not in found  # a function of that name is code
    assert {"outer", "outer.f0"} <= {c.symbol for c in chunks} - found


def test_a_question_in_words_shows_a_rust_files_code_before_its_tests(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("src/filter/size.rs")]
    assert by_score[0] in FIRST_TESTS  # by their words alone the tests come first
    shown = retrieve(store, QUESTION, 3)
    assert (shown[0].path, shown[0].symbol) == ("src/filter/size.rs", "SizeFilter.is_within")


def test_a_question_about_the_tests_still_shows_them_first(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    question = "which tests check how a file's size is compared against the size filter?"
    assert analyze(question).wants_tests
    shown = retrieve(store, question, 3)
    assert shown[0].symbol in FIRST_TESTS
