"""A type's long comment, a window of its own, says in a user's words what its methods do: for a
question asking how, the type's best method is shown before the comment (a real index of a
real repository: the chunks the chunker cuts, the scores BM25 gives)."""

from __future__ import annotations

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from codeagent.rank.type_docs import documents_type
from conftest import GitRepoFactory

USAGE = "".join(f"//\t<tr class=\"{{% cycle 'odd' 'even' %}}\">row {n}</tr>\n" for n in range(24))
CYCLE = (
    "package tmpl\n\n"
    "// cycleValue holds the current value of a cycle.\n"
    "type cycleValue struct {\n"
    "\tnode  *cycleNode\n"
    "\tvalue string\n"
    "}\n\n"
    "// cycleNode represents the {% cycle %} tag.\n"
    "//\n"
    "// The cycle tag is commonly used within loops to alternate between values on each\n"
    "// pass, such as alternating odd and even row colors in a table:\n"
    "//\n"
    f"{USAGE}"
    "type cycleNode struct {\n"
    "\targs   []string\n"
    "\tasName string\n"
    "}\n\n"
    "func (n *cycleNode) String() string {\n"
    "\treturn n.asName\n"
    "}\n\n"
    "func (n *cycleNode) Execute(ctx *Context, w Writer) error {\n"
    "\tidx, _ := ctx.Private[n.asName].(int)\n"
    "\targ := n.args[idx%len(n.args)]\n"
    "\tctx.Private[n.asName] = idx + 1\n"
    '\tif n.asName != "" {\n'
    "\t\tctx.Public[n.asName] = arg\n"
    "\t}\n"
    "\tw.WriteString(arg)\n"
    "\treturn nil\n"
    "}\n"
)
FOR = (
    "package tmpl\n\n"
    "func (n *forNode) Execute(ctx *Context, w Writer) error {\n"
    "\tfor i, item := range n.items {\n"
    "\t\tctx.Public[n.key] = item\n"
    '\t\tctx.Public["counter"] = i + 1\n'
    "\t}\n"
    "\treturn nil\n"
    "}\n"
)
QUESTION = "how can I alternate between values such as odd and even on each pass through a loop?"


def test_a_types_documented_method_is_shown_before_its_comment(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo({"tags_cycle.go": CYCLE, "tags_for.go": FOR})
    store, _ = load_or_build(root, Settings.load(embed="none"))
    cut = {(c.start_line, c.symbol, c.kind) for c in store.chunks if c.path == "tags_cycle.go"}
    comment = next(c for c in store.chunks if c.path == "tags_cycle.go" and not c.symbol)
    assert documents_type(comment.text), cut  # the type's comment is a window of its own
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    best = store.chunks[ranking.chunks_of("tags_cycle.go")[0]]
    assert (best.start_line, best.symbol) == (comment.start_line, "")  # it matches best
    shown = [(h.path, h.symbol) for h in retrieve(store, QUESTION, 3)]
    assert shown[0] == ("tags_cycle.go", "cycleNode.Execute"), shown


@pytest.mark.parametrize(
    ("text", "documents"),
    [
        ("package tmpl\n\n// one\n// two\n", True),
        ("// one\n//\n/* two */\n * three\n", True),
        ('package tmpl\nimport "fmt"\nvar x = 1\n// one\n', False),  # a comment under code
        ("// one\nfunc f() {}\n", False),  # the comment is not its end
        ("#[derive(Debug)]\n", False),  # an attribute is no comment
    ],
)
def test_a_window_documents_a_type_when_it_ends_with_a_comment_of_half_its_lines(
    text: str, documents: bool
) -> None:
    assert documents_type(text) is documents


def test_the_files_head_is_not_read_as_its_first_types_documentation() -> None:
    import numpy as np

    from codeagent.rank.type_docs import documented_methods
    from codeagent.records import Chunk

    doc = "// Context holds the values a template sees.\n// {{ user.name }}\n"
    chunks = {
        0: Chunk("context.go", 1, 5, "package tmpl\n\n" + doc + "//\n", "<module>", "module"),
        1: Chunk("context.go", 6, 6, "type Context map[string]any\n", "Context", "type"),
        2: Chunk("context.go", 8, 12, "func (c Context) check() {}\n", "Context.check", "method"),
        3: Chunk("context.go", 14, 17, doc + "//\n//\n", "", "window"),
        4: Chunk("context.go", 18, 18, "type Node struct{}\n", "Node", "struct"),
        5: Chunk("context.go", 20, 24, "func (n *Node) Execute() {}\n", "Node.Execute", "method"),
    }
    before = {0: 1.0, 3: 0.9}
    scores = np.array([0.5, 0.1, 0.2, 0.45, 0.1, 0.3])
    assert documented_methods(chunks, {0, 3}, before, scores) == {5: 0.9}
