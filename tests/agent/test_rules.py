"""The rule router: structural questions about one resolvable Python file go to ast; the
rest (how/why questions, issue texts, no resolvable file) go to rag, with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.agent import rules
from codeagent.config import Settings
from codeagent.index.lazy import LazyIndex
from codeagent.route import RouteDecision
from codeagent.tools.ast_tool.mentions import file_mentions
from codeagent.tools.ast_tool.models import AstArgs
from codeagent.tools.ast_tool.tool import AstTool
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import default_registry

from .conftest import SAMPLE_FILES


def route_by_rules(question: str, root: Path) -> RouteDecision:
    """The rule router with the default tools on ``root``."""
    settings = Settings(llm="none", embed="none")
    ctx = ToolContext(root, settings, LazyIndex(root, settings))
    return rules.route_by_rules(question, ctx, default_registry())


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample repository as a plain folder (file resolution walks it), made once."""
    root = tmp_path_factory.mktemp("rules_repo")
    for rel, text in SAMPLE_FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


AST_CASES = [
    # (question, operation, symbol, file)
    ("list the classes in shop/models.py", "classes", None, "shop/models.py"),
    ("What classes are defined in models.py?", "classes", None, "shop/models.py"),
    ("Which functions does shop.models define?", "functions", None, "shop/models.py"),
    ("show the top-level functions of shop/models.py", "functions", None, "shop/models.py"),
    ("how many functions are in shop/payments.py?", "functions", None, "shop/payments.py"),
    ("Can you list the functions in models.py?", "functions", None, "shop/models.py"),
    ("methods of class Cart in shop/models.py", "methods", "Cart", "shop/models.py"),
    ("What methods does the Cart class have in shop.models?", "methods", "Cart", "shop/models.py"),
    (
        "Which methods does the Cart class in shop/models.py define?",
        "methods",
        "Cart",
        "shop/models.py",
    ),
    ("list Cart's methods in models.py", "methods", "Cart", "shop/models.py"),
    ("list the methods in shop/models.py", "classes", None, "shop/models.py"),
    ("what does shop/models.py import?", "imports", None, "shop/models.py"),
    ("list the imports of shop.payments", "imports", None, "shop/payments.py"),
    ("module-level constants in shop/models.py", "variables", None, "shop/models.py"),
    ("Which global variables does models.py define?", "variables", None, "shop/models.py"),
    ("which decorators are used in shop/models.py", "decorators", None, "shop/models.py"),
    ("which classes use @dataclass in models.py", "decorators", None, "shop/models.py"),
    ("where is apply_tax called in shop/models.py", "calls", "apply_tax", "shop/models.py"),
    ("calls to apply_tax in models.py", "calls", "apply_tax", "shop/models.py"),
    ("Who calls `apply_tax` in shop/models.py?", "calls", "apply_tax", "shop/models.py"),
    (
        "which functions call time.sleep in shop/payments.py",
        "calls",
        "time.sleep",
        "shop/payments.py",
    ),
    ("definition of apply_tax in shop/models.py", "definition", "apply_tax", "shop/models.py"),
    ("show me Cart.checkout in shop/models.py", "definition", "Cart.checkout", "shop/models.py"),
    ("what does to_json do in shop/models.py", "definition", "to_json", "shop/models.py"),
    (
        "Where is the function charge defined in shop.payments?",
        "definition",
        "charge",
        "shop/payments.py",
    ),
    (
        "what is the signature of apply_tax() in models.py",
        "definition",
        "apply_tax",
        "shop/models.py",
    ),
    (
        "What does the apply_tax function in shop/models.py do?",
        "definition",
        "apply_tax",
        "shop/models.py",
    ),
    ("Where is the Cart class defined in shop.models?", "definition", "Cart", "shop/models.py"),
    (
        "Print the docstring of shop.models.Cart.checkout",
        "definition",
        "Cart.checkout",
        "shop/models.py",
    ),
    ("outline of shop/models.py", "outline", None, "shop/models.py"),
    ("summarize the structure of shop/payments.py", "outline", None, "shop/payments.py"),
    ("list the classes and functions in shop/models.py", "outline", None, "shop/models.py"),
    ("what is defined in shop/payments.py?", "outline", None, "shop/payments.py"),
]

RAG_CASES = [
    # (question, a word the reason must contain)
    ("How does the cart compute the total with tax?", "how/why"),
    ("Why does charge sleep between attempts in shop/payments.py?", "how/why"),
    ("explain the retry logic in payments.py", "how/why"),
    ("list the classes in shop/nowhere.py", "nowhere.py"),
    ("list the functions in README.md", "no Python file"),
    ("which functions handle retries?", "no Python file"),
    ("list the classes", "no Python file"),
    ("show me the code for computing tax in shop/models.py", "not a structural"),
    ("The function charge in shop/payments.py crashes when the card is None", "not a structural"),
    (
        "Cart.checkout returns a wrong total. Steps to reproduce: create a Cart, add two items "
        "with the same name and call the function checkout in shop/models.py; the classes and "
        "functions involved look fine but the sum is off by the tax rate.",
        "long",
    ),
    ("where is the tax rate configured?", "not a structural"),
    ("what does the shop do?", "not a structural"),
    ("what does shop/models.py do?", "not a structural"),
]


@pytest.mark.parametrize(("question", "operation", "symbol", "file"), AST_CASES)
def test_structural_questions_route_to_ast(
    repo: Path, question: str, operation: str, symbol: str | None, file: str
) -> None:
    decision = route_by_rules(question, repo)
    args = decision.args
    assert (decision.tool, args["operation"], args["symbol"], args["file"]) == (
        "ast",
        operation,
        symbol,
        file,
    )
    assert decision.decided_by == "rules"
    assert file in decision.reason


@pytest.mark.parametrize(("question", "why"), RAG_CASES)
def test_other_questions_route_to_rag(repo: Path, question: str, why: str) -> None:
    decision = route_by_rules(question, repo)
    assert decision.tool == "rag"
    assert decision.decided_by == "rules"
    assert decision.args == {}
    assert why in decision.reason


def test_an_ambiguous_file_name_asks_which_one(git_repo) -> None:
    root = git_repo({"a/util.py": "x = 1\n", "b/util.py": "y = 2\n"})
    decision = route_by_rules("list the variables in util.py", root)
    assert (decision.tool, decision.args["file"]) == ("ast", "util.py")
    ctx = ToolContext(root, Settings(llm="none", embed="none"), LazyIndex(root, Settings()))
    result = AstTool().run(AstArgs.model_validate(decision.args), ctx)
    assert result.to_json() == {"file": "util.py", "candidates": ["a/util.py", "b/util.py"]}
    assert "Which one do you mean?" in result.render()


def test_a_file_of_another_language_is_the_file_tools_or_searched(git_repo) -> None:
    # A language of the layer (codeagent.lang) goes to the file AST tool, answered from the
    # symbol graph; a file of any other language is searched.
    root = git_repo({"app/util.js": "function f() {}\n", "app/util.lua": "x = 1\n"})
    decision = route_by_rules("list the functions in app/util.js", root)
    assert (decision.tool, decision.args) == (
        "ast",
        {"file": "app/util.js", "operation": "functions", "symbol": None},
    )
    assert route_by_rules("list the functions in app/util.lua", root).tool == "rag"


def test_file_mentions_finds_paths_dotted_modules_and_module_words() -> None:
    assert file_mentions("classes in src/app/models.py?") == ["src/app/models.py"]
    assert file_mentions("imports of json.decoder") == ["json.decoder"]
    assert "decoder" in file_mentions("functions of the decoder module")
    assert file_mentions("how does retry work") == []


NAMED_LIKE_WORDS = {
    "pkg/m.py": "class Module:\n    def load(self):\n        pass\n\n\nclass A:\n    pass\n",
    "web/m.ts": "export class Module {\n  load() {}\n}\nexport class A {}\n",
}


@pytest.mark.parametrize(
    ("question", "symbol"),
    [
        # a word that is usually the question's own, written as a name: a name
        ("list the methods of Module in {f}", "Module"),
        ("list the methods of `A` in {f}", "A"),
        ("list the methods of class A in {f}", "A"),
        ("list the methods of the A class in {f}", "A"),
        # the same words as words: no name ("a class", "the module", a capital A alone)
        ("list the methods of a class in {f}", None),
        ("list the methods of the module in {f}", None),
        ("list the methods of A in {f}", None),
    ],
)
@pytest.mark.parametrize("path", ["pkg/m.py", "web/m.ts"])
def test_a_question_word_written_as_a_name_is_the_name(
    git_repo, question: str, symbol: str | None, path: str
) -> None:
    root = git_repo(NAMED_LIKE_WORDS)
    decision = route_by_rules(question.format(f=path), root)
    # the file AST tool in both languages; no class named: Python's classes with their
    # methods, another language's methods listed by type (from the symbol graph)
    assert (decision.tool, decision.args["file"]) == ("ast", path)
    listing = "classes" if path.endswith(".py") else "methods"
    assert (decision.args["operation"], decision.args["symbol"]) == (
        ("methods", symbol) if symbol else (listing, None)
    )


def test_a_capitalised_placeholder_is_a_type_name(git_repo) -> None:
    root = git_repo({"web/t.ts": "export class Thing {\n  run() {}\n}\n"})
    decision = route_by_rules("list the methods of Thing in web/t.ts", root)
    assert (decision.tool, decision.args["operation"], decision.args["symbol"]) == (
        "ast",
        "methods",
        "Thing",
    )
    placeholder = route_by_rules("list the methods of thing in web/t.ts", root).args
    assert (placeholder["operation"], placeholder["symbol"]) == ("methods", None)
