"""A window shows code to read: the chunk that only closes a type (``}``), which matches a
question by the path and symbol every chunk carries, is never shown, in a real index."""

from __future__ import annotations

import re

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

# An impl over 50 lines is cut into its methods, a head (`impl RegexRouter {`) and a tail (`}`).
METHODS = "".join(
    f"    pub fn route_{n}(&self) -> usize {{\n        self.routes.len() + {n}\n    }}\n\n"
    for n in range(16)
)
ROUTER = f"""\
/// Holds the table: each entry a pattern, kept in the order given, with the
/// handlers that come with them, and the count of hits each had since start.
pub struct RegexRouter {{
    routes: Vec<String>,
    handlers: Vec<usize>,
    hits: Vec<u64>,
}}

impl RegexRouter {{
    /// Joins every pattern into one alternation, in the order the table holds them, so the
    /// first that fits wins, as the table promises its callers.
    pub fn build(&self) -> String {{
        let parts: Vec<String> = self.routes.iter().map(|r| format!("({{}})", r)).collect();
        parts.join("|")
    }}

{METHODS}}}
"""
FILES = {
    "Cargo.toml": '[package]\nname = "rt"\n',
    "src/lib.rs": "pub mod router;\n",
    "src/router.rs": ROUTER,
}
QUESTION = "how is the RegexRouter used?"


def test_a_chunk_of_braces_alone_is_not_shown(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    best = [store.chunks[i] for i in ranking.chunks_of("src/router.rs")[:3]]
    closing = [c for c in best if c.text.strip() == "}"]
    assert closing  # the impl's last line scores among the file's best by its path and symbol
    shown = retrieve(store, QUESTION, 6)
    assert shown
    assert all(re.search(r"[A-Za-z0-9]", hit.text) for hit in shown)
    assert (shown[0].path, shown[0].symbol) == ("src/router.rs", "RegexRouter")
