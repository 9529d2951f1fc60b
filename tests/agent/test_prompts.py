"""Every prompt template renders; the agent's prompts carry what they promise."""

from __future__ import annotations

import json
import string

import pytest

from codeagent.agent.prompts import load_prompt, prompt_names, render_prompt


def test_every_prompt_renders_with_all_its_placeholders() -> None:
    names = prompt_names()
    assert {"router", "answer_system", "answer_user"} <= set(names)
    for name in names:
        template = load_prompt(name)
        assert template.is_valid(), name
        values = {key: f"<{key}>" for key in template.get_identifiers()}
        text = template.substitute(values)
        for key in values:
            assert f"<{key}>" in text


def test_the_router_prompt_has_examples_and_the_question() -> None:
    text = render_prompt("router", tools="TTT", examples="EEE", question="QQQ", previous="PPP")
    assert text.rstrip().endswith("Question: QQQ")
    assert "EEE" in text
    assert "PPP" in text
    assert "TTT" in text


def test_the_router_prompt_lists_every_registered_tool_and_ast_operation() -> None:
    from codeagent.tools.ast_tool import OPERATIONS
    from codeagent.tools.registry import default_registry

    registry = default_registry()
    text = render_prompt(
        "router",
        tools=registry.prompt_tools(),
        examples=registry.prompt_examples(),
        question="q",
        previous="p",
    )
    for name in registry.names():
        assert f"- `{name}`:" in text
    assert text.count("Question:") >= 6  # the tools' examples and the question itself
    for line in text.splitlines():  # every example is the JSON the router returns
        if line.startswith("{"):
            data = json.loads(line)
            registry.router_schema().model_validate(data)
            assert data["tool"] in registry.names()
    for operation in OPERATIONS:
        assert f"  - `{operation}`: " in text


def test_a_missing_placeholder_raises() -> None:
    with pytest.raises(KeyError):
        render_prompt("answer_user", question="q")


def test_templates_are_string_templates() -> None:
    assert isinstance(load_prompt("router"), string.Template)
