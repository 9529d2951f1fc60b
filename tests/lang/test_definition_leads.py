"""A definition starts at what belongs to it above its own line: its doc comment, and between
them the attributes and decorators of the language (Rust's ``#[..]``, TypeScript's ``@dec``)
and what wraps it (``export``, ``const f = () =>``, ``declare``, C++'s ``template <..>``).
Its row starts there and its doc is the comment's first line; its chunk holds those lines.

The truth is the text the test writes: each case is put together from parts (comments,
attributes, wrappers, blank lines), and where the definition starts follows from the order
they were put in.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from codeagent import lang
from codeagent.index.chunking import chunk_file

pytestmark = pytest.mark.skipif(not lang.available(), reason="the language layer is needed")


@dataclass(frozen=True)
class Case:
    path: str
    before: str  # code above, ending with its line break ("" at the file's top)
    lead: list[str]  # the lines of the definition's lead, top down
    doc: str  # the doc the lead's first comment says ("" when none)
    item: str  # the definition itself (its first line names ``name``)
    name: str  # the definition's qualified name
    after: str = ""  # code below

    def text(self) -> str:
        return self.before + "".join(line + "\n" for line in self.lead) + self.item + self.after

    def start(self) -> int:
        """The line where the definition, lead included, starts."""
        return self.before.count("\n") + 1


RUST_ATTRS = ["#[inline]", "#[derive(Debug, Clone)]", '#[cfg(feature = "x")]']
RUST_ITEMS = [
    ("fn run() -> u8 {\n    1\n}\n", "run"),
    ("pub struct Point {\n    x: u8,\n}\n", "Point"),
    ("pub(crate) enum Mode {\n    A,\n}\n", "Mode"),
    ("mod tests {\n    fn t() {}\n}\n", "tests"),
]
TS_ITEMS = [
    ("export function send(): void {}\n", "send"),
    ("export class Client {}\n", "Client"),
    ("export const make = (): number => 1;\n", "make"),
    ("const helper = function (): number {\n  return 1;\n};\n", "helper"),
    ("export interface Options {\n  x: number;\n}\n", "Options"),
    ("export type Id = string;\n", "Id"),
    ("declare function ambient(): void;\n", "ambient"),
    ("export default class Main {}\n", "Main"),
    ("module.exports.legacy = function () {\n  return 1;\n};\n", "legacy"),
]
JS_ITEMS = [
    ("export function send() {}\n", "send"),
    ("export class Client {}\n", "Client"),
    ("export const make = () => 1;\n", "make"),
    ("let helper = function () {\n  return 1;\n};\n", "helper"),
    ("module.exports.legacy = function () {\n  return 1;\n};\n", "legacy"),
]


def rust_cases() -> list[Case]:
    """Every item under none, one or two attributes, with the doc above them, between them
    or none; a blank line or a previous item above."""
    cases = []
    before_choices = ["", "use std::fmt;\n\n", "fn other() {}\n"]
    for (item, name), n_attrs, doc_at, before in itertools.product(
        RUST_ITEMS, (0, 1, 2), ("none", "top", "middle"), before_choices
    ):
        attrs = RUST_ATTRS[:n_attrs]
        doc = ["/// Does the work.", "/// In two lines."]
        if doc_at == "none":
            lead = attrs
        elif doc_at == "top" or not attrs:
            lead = [*doc, *attrs]
        else:
            lead = [attrs[0], *doc, *attrs[1:]]
        said = "Does the work." if doc_at != "none" else ""
        cases.append(Case("src/lib.rs", before, lead, said, item, name))
    return cases


def ts_cases(path: str, items: list[tuple[str, str]]) -> list[Case]:
    cases = []
    for (item, name), doc, before in itertools.product(
        items, ("", "/** Sends it. */", "// Sends it."), ("", "import { x } from './x';\n\n")
    ):
        lead = [doc] if doc else []
        cases.append(Case(path, before, lead, "Sends it." if doc else "", item, name))
    return cases


def ts_member_cases(path: str) -> list[Case]:
    """A method under decorators in a class body, the doc above or between them."""
    cases = []
    for decorators, doc_at in itertools.product((["@dec()"], ["@a", "@b(1)"]), ("top", "mid")):
        doc = "  /** Handles it. */"
        lead = [f"  {d}" for d in decorators]
        lead = [doc, *lead] if doc_at == "top" else [lead[0], doc, *lead[1:]]
        before = "class Host {\n  x = 1;\n"
        item = "  handle() {}\n"
        cases.append(Case(path, before, lead, "Handles it.", item, "Host.handle", "}\n"))
    before = "import { y } from './y';\n\n"
    for lead in (["@component"], ["/** The view. */", "@component"], ["@a", "@b()"]):
        doc = "The view." if lead[0].startswith("/**") else ""
        cases.append(Case(path, before, lead, doc, "export class View {}\n", "View"))
    return cases


def cpp_cases() -> list[Case]:
    cases = []
    items = [
        ("template <class T>\nvoid put(T x) {}\n", "put"),
        ("template <typename T, int N>\nclass Buffer {\n  int n;\n};\n", "Buffer"),
        ("template <class T>\nrequires true\nT twice(T x) {\n  return x + x;\n}\n", "twice"),
        ("template <>\ntemplate <class U>\nvoid Box<int>::set(U u) {}\n", "Box.set"),
        ("int plain() { return 1; }\n", "plain"),
    ]
    for (item, name), doc, before in itertools.product(
        items, ("", "// Puts it.", "/// Puts it.\n/// More."), ("", "#include <vector>\n\n")
    ):
        lead = doc.split("\n") if doc else []
        cases.append(Case("src/a.cpp", before, lead, "Puts it." if doc else "", item, name))
    member = "struct Box {\n  /// Sets it.\n  template <class U>\n  void set(U u) {}\n};\n"
    cases.append(Case("src/b.cpp", "", [], "", member, "Box"))
    return cases


def ruby_cases() -> list[Case]:
    """A method first in its class or module (the comments after the head's line are the
    head's children in the grammar), or after another member; the doc in one or two lines."""
    cases = []
    heads = [
        ("class Cart\n", "Cart.total"),
        ("module Shop\n  module Cart\n", "Shop.Cart.total"),
        ("class Cart < Base\n  attr_reader :items\n\n", "Cart.total"),
        ("class Cart\n  def size\n    1\n  end\n\n", "Cart.total"),
    ]
    item = "  def total\n    @items.sum\n  end\n"
    for (before, name), doc in itertools.product(
        heads, ([], ["  # Sums the items."], ["  # Sums the items.", "  # @return [Integer]"])
    ):
        after = "end\n" * before.count("module") if "module" in before else "end\n"
        cases.append(Case("lib/cart.rb", before, doc, "Sums the items." if doc else "", item,
                          name, after))  # fmt: skip
    return cases


CASES = [
    *rust_cases(),
    *ruby_cases(),
    *ts_cases("src/a.ts", TS_ITEMS),
    *ts_member_cases("src/m.ts"),
    *ts_cases("src/a.js", JS_ITEMS),
    *ts_member_cases("src/m.js"),
    *cpp_cases(),
]


def _row(case: Case, name: str) -> list[object]:
    parsed = lang.parse_file(case.path, case.text())
    assert parsed is not None
    assert not parsed.errors, case.text()
    rows = [r for r in parsed.clear_defs() if r[0] == name]
    assert len(rows) == 1, (name, [r[0] for r in parsed.clear_defs()], case.text())
    return rows[0]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.path}:{c.name}")
def test_a_definition_starts_at_its_lead(case: Case) -> None:
    row = _row(case, case.name)
    assert (row[3], row[6]) == (case.start(), case.doc), case.text()
    # the chunk that holds the definition's own first line holds its lead too
    own = case.start() + len(case.lead)
    holding = [c for c in chunk_file(case.path, case.text()) if c.start_line <= own <= c.end_line]
    assert holding
    assert all(c.start_line <= case.start() for c in holding), case.text()


def test_a_member_template_starts_at_its_comment() -> None:
    case = next(c for c in CASES if c.path == "src/b.cpp")
    row = _row(case, "Box.set")
    assert (row[3], row[6]) == (2, "Sets it.")


@pytest.mark.parametrize(
    ("path", "text", "name", "start", "doc"),
    [
        # a blank line cuts the lead: what is above it belongs to nothing below
        ("src/lib.rs", "/// Lost.\n\n#[inline]\nfn run() {}\n", "run", 3, ""),
        ("src/lib.rs", "#[inline]\n\n/// Kept.\nfn run() {}\n", "run", 3, "Kept."),
        # an attribute that trails code on its line belongs to that line
        ("src/lib.rs", "fn a() {} #[inline]\nfn run() {}\n", "run", 2, ""),
        # a comment trailing the code above is not the doc
        ("src/a.ts", "const x = 1; // a note\nexport function send() {}\n", "send", 2, ""),
        # a declaration of two: the comment is the declaration's, not its second declarator's
        ("src/a.ts", "// Both.\nconst a = () => 1, b = () => 2;\n", "b", 2, ""),
        ("src/a.ts", "// Both.\nconst a = () => 1, b = () => 2;\n", "a", 2, ""),
        # the languages whose attributes are inside the definition's node, as before
        (
            "src/A.java",
            "class A {\n  /** Doc. */\n  @Override\n  void m() {}\n}\n",
            "A.m",
            2,
            "Doc.",
        ),
        ("src/A.cs", "class A {\n  /// Doc.\n  [Obsolete]\n  void M() {}\n}\n", "A.M", 2, "Doc."),
        ("src/a.go", "package a\n\n// F does.\nfunc F() {}\n", "F", 3, "F does."),
    ],
)
def test_what_is_not_a_lead(path: str, text: str, name: str, start: int, doc: str) -> None:
    parsed = lang.parse_file(path, text)
    assert parsed is not None
    rows = [r for r in parsed.clear_defs() if r[0] == name]
    assert [(r[3], r[6]) for r in rows] == [(start, doc)]


def test_a_lead_with_a_parse_error_is_left_to_the_lines_above() -> None:
    """A ``template <..>`` line the grammar cannot read (a macro in the parameters): the
    definition starts at its own line again, and is still chunked as a definition."""
    text = (
        "// Formats it.\n"
        "template <typename Char, ENABLE_IF(!is_same<Char, char>::value)>\n"
        "auto vformat(int fmt) -> int {\n"
        "  return fmt;\n"
        "}\n"
    )
    parsed = lang.parse_file("src/a.cpp", text)
    assert parsed is not None
    assert parsed.error_lines == ((2, 2),)
    assert [(r[0], r[3]) for r in parsed.clear_defs()] == [("vformat", 3)]
    chunks = chunk_file("src/a.cpp", text)
    assert [(c.start_line, c.end_line, c.symbol) for c in chunks if c.symbol == "vformat"] == [
        (3, 5, "vformat")
    ]
