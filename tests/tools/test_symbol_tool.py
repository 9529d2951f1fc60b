"""The symbol tool over a hand-checked repository, and end to end through the agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import parse_python
from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query
from codeagent.tools.symbol_tool.result import _says
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

FILES = {
    "pkg/__init__.py": "",
    "pkg/base.py": (
        "class Mixin:\n"  # 1
        '    """Redirect helpers."""\n'  # 2
        "    def follow(self):\n"  # 3
        "        return 1\n"  # 4
    ),
    "pkg/session.py": (
        "from pkg.base import Mixin\n"  # 1
        "\n"  # 2
        "\n"  # 3
        "class Session(Mixin):\n"  # 4
        "    def request(self, method, url):\n"  # 5
        '        """Send a request."""\n'  # 6
        "        return self.follow()\n"  # 7
        "\n"  # 8
        "\n"  # 9
        "def request(method):\n"  # 10
        "    return Session().request(method, '/')\n"  # 11
    ),
    "tests/test_session.py": (
        "from pkg.session import Session\n"  # 1
        "\n"  # 2
        "def test_it():\n"  # 3
        "    assert Session().request('GET', '/')\n"  # 4
    ),
}


def indexed(git_repo: GitRepoFactory, files: dict[str, str]) -> SymbolGraph:
    """The symbol graph of a git repository of ``files``, as the index builds it."""
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"), embedder=None)
    return store.symbols


@pytest.fixture(scope="module")
def graph() -> SymbolGraph:
    trees = {p: parse_python(p, t) for p, t in FILES.items()}
    return SymbolGraph.build({p: t for p, t in trees.items() if t is not None})


def test_a_unique_definition_is_answered_exactly(graph: SymbolGraph) -> None:
    result = run_symbol_query(graph, SymbolArgs(operation="definition", name="Session.request"))
    assert not result.ambiguous
    assert result.render().splitlines()[0] == (
        "`Session.request` is defined at pkg/session.py:5-7 (method pkg.session.Session.request)"
    )
    assert result.citations() == [("pkg/session.py", 5, 7)]
    assert "Send a request." in result.context()


def test_an_ambiguous_name_lists_the_candidates(graph: SymbolGraph) -> None:
    result = run_symbol_query(graph, SymbolArgs(operation="definition", name="request"))
    assert result.ambiguous
    lines = result.render().splitlines()
    assert lines[0] == "`request` names 2 definitions in the repository:"
    assert lines[1].startswith("  pkg/session.py:5-7  method Session.request")
    assert lines[2].startswith("  pkg/session.py:10-11  function request")


def test_a_definition_line_says_its_kind_and_name_once(graph: SymbolGraph) -> None:
    """A class without bases: its signature is ``class Mixin``, written once, not after its
    kind and name again; a method's line keeps its qualified name before its signature."""
    mixin = run_symbol_query(graph, SymbolArgs(operation="definition", name="Mixin"))
    assert mixin.render().splitlines()[1] == "  pkg/base.py:1-4  class Mixin"
    method = run_symbol_query(graph, SymbolArgs(operation="definition", name="Session.request"))
    assert (
        method.render()
        .splitlines()[1]
        .startswith("  pkg/session.py:5-7  method Session.request  def request(")
    )


@pytest.mark.parametrize(
    ("signature", "kind", "name", "says"),
    [
        ("class Mixin", "class", "Mixin", True),
        ("pub trait Buf", "trait", "Buf", True),
        ("public class A extends B", "class", "A", True),
        ("template <class T> class Box", "class", "Box", True),
        ("Router interface", "interface", "Router", False),  # Go writes the name first
        ("def request(self, method, url)", "method", "Session.request", False),
        ("class Mixins", "class", "Mixin", False),
        ("def f(x: 'class Mixin')", "function", "f", False),
    ],
)
def test_a_signature_says_its_kind_and_name(
    signature: str, kind: str, name: str, says: bool
) -> None:
    assert _says(signature, kind, name) is says


def test_callers_tied_to_the_method_say_so(graph: SymbolGraph) -> None:
    result = run_symbol_query(graph, SymbolArgs(operation="callers", name="Session.request"))
    sites = [(i.path, i.start_line, i.name, i.resolved) for i in result.items]
    assert sites == [  # Session().request(...): the constructor says the type
        ("pkg/session.py", 11, "request", True),
        ("tests/test_session.py", 4, "test_it", True),
    ]
    assert result.render().splitlines()[0] == (
        "Calls of `Session.request` in the repository: 2 resolved to "
        "`pkg.session.Session.request` (in 2 files)"
    )
    assert "by name" not in result.render()


def test_a_class_s_callers_say_what_its_calls_leave_out(graph: SymbolGraph) -> None:
    """Its calls are its instantiations; the files that import it are counted (as the
    importers answer lists them: the truth is the import statements of FILES)."""
    importing = [p for p, text in FILES.items() if "import Session" in text]
    result = run_symbol_query(graph, SymbolArgs(operation="callers", name="Session"))
    assert {i.start_line for i in result.items} == {11, 4}
    assert "`Session` is a class: its calls are where it is instantiated." in result.note
    assert f"{len(importing)} file imports it (`who imports Session`)" in result.note
    function = run_symbol_query(graph, SymbolArgs(operation="callers", name="follow"))
    assert "is a class" not in function.note


@pytest.mark.parametrize(
    ("files", "python_note", "other_note"),
    [
        # obj.load(): nothing says what obj is, so the call is by name and the note explains
        ({"a.py": "def load():\n    pass\n\ndef f(obj):\n    obj.load()\n"}, True, False),
        ({"main.rb": "def load\nend\n\ndef main\n  load()\nend\n"}, False, True),
        (
            {
                "a.py": "def load():\n    pass\n\ndef f(obj):\n    obj.load()\n",
                "main.rb": "def load\nend\n\ndef main\n  load()\nend\n",
            },
            True,
            True,
        ),
    ],
)
def test_the_by_name_note_speaks_of_the_callers_languages(
    git_repo: GitRepoFactory, files: dict[str, str], python_note: bool, other_note: bool
) -> None:
    result = run_symbol_query(
        indexed(git_repo, files), SymbolArgs(operation="callers", name="load")
    )
    assert len(result.items) == len(files)  # one call site a file
    # Python's syntax is named only where a Python file calls it.
    assert ("from m import load as g" in result.note) == python_note
    assert ("an untyped local" in result.note) == other_note  # Ruby's receivers are followed
    assert ("In other languages than Python" in result.note) == (python_note and other_note)


def test_methods_mark_the_inherited_ones(graph: SymbolGraph) -> None:
    result = run_symbol_query(graph, SymbolArgs(operation="methods", name="Session"))
    text = result.render()
    assert "2 (1 own, 1 inherited)" in text.splitlines()[0]
    assert "pkg/base.py:3-4  def follow(self)  [inherited from pkg.base.Mixin]" in text


def test_subclasses_importers_and_imports(graph: SymbolGraph) -> None:
    subs = run_symbol_query(graph, SymbolArgs(operation="subclasses", name="Mixin"))
    assert [i.name for i in subs.items] == ["Session"]
    importers = run_symbol_query(graph, SymbolArgs(operation="importers", name="Session"))
    assert [(i.path, i.detail) for i in importers.items] == [
        ("tests/test_session.py", "from pkg.session import Session")
    ]
    imports = run_symbol_query(graph, SymbolArgs(operation="imports", name="pkg.session"))
    assert [i.detail for i in imports.items] == ["from pkg.base import Mixin"]


def test_an_unknown_name_fails_with_a_reason(graph: SymbolGraph) -> None:
    with pytest.raises(SymbolToolError, match="nothing named Nope"):
        run_symbol_query(graph, SymbolArgs(operation="definition", name="Nope"))
    with pytest.raises(SymbolToolError):
        run_symbol_query(graph, SymbolArgs(operation="callers", name="never_called"))


def test_the_agent_answers_a_repository_wide_question_from_the_index(
    git_repo: Any, tmp_path: Path
) -> None:
    root = git_repo(FILES)
    agent = Workspace(root, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = agent.ask("methods of class Session")
    assert (result.route.tool, result.route.args["operation"], result.fallback) == (
        "symbols",
        "methods",
        None,
    )
    assert "[inherited from pkg.base.Mixin]" in result.answer
    assert {s.path for s in result.sources} == {"pkg/session.py", "pkg/base.py"}
    missing = agent.ask("who calls nobody_calls_this")
    assert missing.fallback is not None
    assert missing.fallback.from_ == "symbols"


# Two TypeScript types share a name; each file's methods are listed by line here, the truth.
SHARED = {
    "web/a.ts": (
        "export class Context {\n"  # 1
        "  get(key: string) { return key; }\n"  # 2
        "  set(key: string) { return key; }\n"  # 3
        "}\n"  # 4
    ),
    "jsx/b.ts": (
        "import { Context } from '../web/a';\n"  # 1
        "export class Context {\n"  # 2
        "  render() { return 1; }\n"  # 3
        "}\n"  # 4
        "export class Child extends Context {}\n"  # 5
    ),
    "web/use.ts": "import { Context } from './a';\nexport const c = new Context();\n",
}


def test_a_file_named_chooses_among_types_of_one_name(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo(SHARED)
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    graph = store.symbols
    with pytest.raises(
        SymbolToolError, match=r"several classes are named Context: .*name the file"
    ):
        run_symbol_query(graph, SymbolArgs(operation="methods", name="Context"))
    for path, lines in (("web/a.ts", [2, 3]), ("jsx/b.ts", [3])):
        result = run_symbol_query(graph, SymbolArgs(operation="methods", name="Context", file=path))
        assert [(i.path, i.start_line) for i in result.items] == [(path, n) for n in lines]
        found = run_symbol_query(
            graph, SymbolArgs(operation="definition", name="Context", file=path)
        )
        assert not found.ambiguous
        assert found.citations()[0][0] == path
    subs = run_symbol_query(
        graph, SymbolArgs(operation="subclasses", name="Context", file="jsx/b.ts")
    )
    assert [(i.path, i.start_line) for i in subs.items] == [("jsx/b.ts", 5)]
    # A file that uses the name but defines none of it chooses nothing: both are answered.
    both = run_symbol_query(graph, SymbolArgs(operation="definition", name="Context",
                                              file="web/use.ts"))  # fmt: skip
    assert both.ambiguous
    assert sorted(i.path for i in both.items) == ["jsx/b.ts", "web/a.ts"]

    # Through the agent, the question naming the file (the file tool's, from this graph).
    agent = Workspace(root, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = agent.ask("list the methods of Context in jsx/b.ts")
    assert result.fallback is None
    assert (result.route.tool, result.route.args["file"]) == ("ast", "jsx/b.ts")
    assert [(s.path, s.start_line) for s in result.sources] == [("jsx/b.ts", 3)]


ALIASES = {
    # Rust: the enum, and an associated type of the same name in a visitor's impl (an alias)
    "src/value.rs": (
        "pub enum Value {\n    Null,\n}\n\n"
        "impl Value {\n    pub fn is_null(&self) -> bool {\n        true\n    }\n}\n"
    ),
    "src/de.rs": "struct V;\n\nimpl Visitor for V {\n    type Value = Value;\n\n"
    "    fn visit(&self) {}\n}\n",
    # TypeScript: an alias of another type, and a class
    "web/id.ts": "export type Id = string;\n",
    "web/ids.ts": "export class Id {\n  parse(): number { return 1; }\n}\n",
    # Go: a function type is a type with methods, not an alias
    "go/f.go": "package f\n\ntype Handler func()\n\nfunc (h Handler) Serve() {}\n",
}


@pytest.mark.parametrize(
    ("name", "methods"),
    [
        ("Value", [("src/value.rs", 6)]),
        ("Id", [("web/ids.ts", 2)]),
        ("Handler", [("go/f.go", 5)]),
    ],
)
def test_a_type_alias_of_the_same_name_does_not_hide_the_type(
    git_repo: GitRepoFactory, name: str, methods: list[tuple[str, int]]
) -> None:
    result = run_symbol_query(
        indexed(git_repo, ALIASES), SymbolArgs(operation="methods", name=name)
    )
    assert [(i.path, i.start_line) for i in result.items] == methods


SCOPED = {
    "src/buf.h": (
        "#include <stdexcept>\n"  # 1
        "namespace detail {\n"  # 2
        "class buffer {\n"  # 3
        " public:\n"  # 4
        "  void push(int c) {}\n"  # 5
        "};\n"  # 6
        "}  // namespace detail\n"  # 7
        "class format_error : public std::runtime_error {\n"  # 8
        " public:\n"  # 9
        "  using std::runtime_error::runtime_error;\n"  # 10
        "};\n"  # 11
    ),
    "src/value.rs": (
        "pub enum Value {\n"  # 1
        "    Null,\n"  # 2
        "}\n"  # 3
        "\n"  # 4
        "impl Value {\n"  # 5
        "    pub fn as_str(&self) -> Option<&str> {\n"  # 6
        "        None\n"  # 7
        "    }\n"  # 8
        "}\n"  # 9
        "\n"  # 10
        "fn show(v: &Value) {\n"  # 11
        "    let _ = Value::as_str(v);\n"  # 12
        "}\n"  # 13
    ),
}


@pytest.mark.parametrize(
    ("question", "operation", "cited"),
    [
        ("which classes derive from std::runtime_error?", "subclasses", [("src/buf.h", 8)]),
        ("where is detail::buffer defined?", "definition", [("src/buf.h", 3)]),
        ("list the methods of detail::buffer", "methods", [("src/buf.h", 5)]),
        ("where is Value::as_str defined?", "definition", [("src/value.rs", 6)]),
        ("who calls Value::as_str?", "callers", [("src/value.rs", 12)]),
    ],
)
def test_names_written_with_double_colons(
    git_repo: GitRepoFactory,
    tmp_path: Path,
    question: str,
    operation: str,
    cited: list[tuple[str, int]],
) -> None:
    agent = Workspace(git_repo(SCOPED), Settings(home=tmp_path / "h", llm="none", embed="none"))
    result = agent.ask(question)
    assert result.fallback is None
    assert (result.route.tool, result.route.args["operation"]) == ("symbols", operation)
    assert [(s.path, s.start_line) for s in result.sources] == cited


CONSTRUCTED = {
    "src/Settings.cs": (
        "namespace App\n"  # 1
        "{\n"  # 2
        "    public class Settings\n"  # 3
        "    {\n"  # 4
        "        public Settings() { }\n"  # 5
        "    }\n"  # 6
        "}\n"  # 7
    ),
    "src/Repo.java": "class Repo {\n    Repo(int n) {}\n}\n",
}


@pytest.mark.parametrize(("name", "cited"), [("Settings", ("src/Settings.cs", 3)),
                                             ("Repo", ("src/Repo.java", 1))])  # fmt: skip
def test_a_type_is_defined_once_whatever_its_constructors(
    git_repo: GitRepoFactory, name: str, cited: tuple[str, int]
) -> None:
    graph = indexed(git_repo, CONSTRUCTED)
    result = run_symbol_query(graph, SymbolArgs(operation="definition", name=name))
    assert not result.ambiguous
    assert [(i.path, i.start_line) for i in result.items] == [cited]


def test_a_python_method_named_as_its_class_is_still_a_definition() -> None:
    # unittest.mock's _patch_dict has a method _patch_dict: two definitions (pyclbr lists both)
    text = "class Patch:\n    def Patch(self):\n        pass\n"
    graph = SymbolGraph.build({"m.py": parse_python("m.py", text)})
    result = run_symbol_query(graph, SymbolArgs(operation="definition", name="Patch"))
    assert result.ambiguous
    assert [(i.kind, i.start_line) for i in result.items] == [("class", 1), ("method", 2)]


def test_typescript_by_name_calls_have_their_own_note(git_repo: GitRepoFactory) -> None:
    files = {"a.ts": "export function load() {}\nexport function f(obj: any) { obj.load(); }\n"}
    result = run_symbol_query(
        indexed(git_repo, files), SymbolArgs(operation="callers", name="load")
    )
    assert len(result.items) == 1
    assert "an untyped local" in result.note  # TypeScript's receivers are followed
    assert "Type::load()" not in result.note
