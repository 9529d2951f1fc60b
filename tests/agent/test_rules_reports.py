"""A text goes to a structural tool only when it is a structural question: issue reports
that contain a structural phrase are searched, by the rule router and over an LLM's choice
alike; a placeholder ("something", "it") never names a symbol."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.router import route_question
from codeagent.tools.registry import default_registry

from .test_rules import route_by_rules

DECODERS = '''\
"""Content decoders."""


class ContentDecoder:
    def decode(self, data):
        return data


class GZipDecoder(ContentDecoder):
    pass


class MultiDecoder(ContentDecoder, list):
    pass
'''

FILES = {
    "pkg/__init__.py": "",
    "pkg/_decoders.py": DECODERS,
    "pkg/models.py": "class Params(dict):\n    pass\n\n\ndef encode(params):\n    return params\n",
}

REPORT = """params: values from classes that inherit from list or set are sent as their repr

When I pass query parameters whose values are instances of my own classes that inherit from
list or set, the values are not expanded into repeated keys.

```python
class Tags(list):
    pass

encode({"tag": Tags(["a", "b"])})
```

Traceback (most recent call last):
  File "demo.py", line 7, in <module>
    encode({"tag": Tags(["a", "b"])})
TypeError: unhashable type: 'Tags'

## Environment

- pkg 1.4.2
- Python 3.12.4 on Ubuntu 24.04
"""

STRUCTURAL_PHRASES = [
    "Who calls encode? It fails for subclasses of list.",
    "My code breaks when classes that inherit from dict are passed to encode",
    "list the functions in pkg/models.py\nthey all fail with subclasses of list",
    "where is encode defined? ```encode({})``` fails",
    'where is encode defined? File "demo.py", line 7, in <module>',
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import subprocess

    root = tmp_path_factory.mktemp("reports_repo")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True)
    return root


def test_a_long_report_with_a_structural_phrase_is_searched(repo: Path) -> None:
    decision = route_by_rules(REPORT, repo)
    assert (decision.tool, decision.decided_by, decision.args) == ("rag", "rules", {})
    assert decision.reason.startswith("a long report (")
    assert "a code block, a traceback" in decision.reason
    assert "searching" not in decision.reason  # what the route does is the front end's line


@pytest.mark.parametrize("text", STRUCTURAL_PHRASES)
def test_texts_that_are_not_structural_questions_are_searched(repo: Path, text: str) -> None:
    decision = route_by_rules(text, repo)
    assert decision.tool == "rag", decision.reason


def test_the_same_phrase_asked_alone_is_structural(repo: Path) -> None:
    decision = route_by_rules("which classes inherit from ContentDecoder?", repo)
    assert (decision.tool, decision.args["operation"], decision.args["name"]) == (
        "symbols",
        "subclasses",
        "ContentDecoder",
    )


@pytest.mark.parametrize(
    "question",
    [
        "which classes inherit from something in `pkg/_decoders.py`",
        "what in pkg/_decoders.py subclasses anything",
        "which classes in pkg/_decoders.py inherit from something?",
        "list the classes that inherit from anything in _decoders.py",
    ],
)
def test_inheritance_with_a_placeholder_is_the_files_classes(repo: Path, question: str) -> None:
    decision = route_by_rules(question, repo)
    assert (decision.tool, decision.args["file"], decision.args["operation"]) == (
        "ast",
        "pkg/_decoders.py",
        "classes",
    )


def test_inheritance_with_a_placeholder_in_a_missing_file_is_searched(repo: Path) -> None:
    decision = route_by_rules("which classes inherit from something in x/_decoders.py", repo)
    assert decision.tool == "rag"
    assert decision.fallback is not None
    assert "x/_decoders.py" in decision.fallback.reason


@pytest.mark.parametrize(
    "question",
    [
        "who calls it?",
        "where is something defined?",
        "subclasses of this",
        "list all subclasses of anything",
        "which modules import it?",
        "show the definition of these",
    ],
)
def test_a_placeholder_is_never_a_symbol(repo: Path, question: str) -> None:
    decision = route_by_rules(question, repo)
    assert decision.tool == "rag", decision.args


def _symbols(name: str) -> str:
    return json.dumps({"tool": "symbols", "operation": "subclasses", "name": name, "reason": "r"})


def test_an_llm_choosing_symbols_for_a_long_report_is_overridden(
    repo: Path, tool_context: Any, make_model: Any
) -> None:
    model = make_model(_symbols("list"))
    decision = route_question(
        REPORT, [], tool_context(repo), default_registry(), model, timeout=5.0
    )
    assert (decision.tool, decision.decided_by, decision.args) == ("rag", "fallback", {})
    assert decision.reason.startswith("the LLM chose symbols, but the text is a long report (")
    assert decision.reason.endswith(", a traceback)")
    assert model.seen, "the model was asked"


def test_an_llm_choosing_a_placeholder_symbol_is_overridden(
    repo: Path, tool_context: Any, make_model: Any
) -> None:
    question = "which classes inherit from something in pkg/_decoders.py"
    decision = route_question(
        question,
        [],
        tool_context(repo),
        default_registry(),
        make_model(_symbols("something")),
        timeout=5.0,
    )
    assert (decision.tool, decision.decided_by) == ("rag", "fallback")
    assert "'something' names no symbol" in decision.reason


def test_an_llm_choosing_symbols_for_a_structural_question_is_kept(
    repo: Path, tool_context: Any, make_model: Any
) -> None:
    decision = route_question(
        "subclasses of `ContentDecoder`",
        [],
        tool_context(repo),
        default_registry(),
        make_model(_symbols("`ContentDecoder`")),
        timeout=5.0,
    )
    assert (decision.tool, decision.decided_by) == ("symbols", "llm")
    assert decision.args["name"] == "ContentDecoder"
