"""The code-aware BM25 tokenizer."""

from __future__ import annotations

from codeagent.tokens import bm25_terms, code_tokens


def test_snake_case_keeps_whole_identifier_and_parts() -> None:
    assert code_tokens("parse_header_value") == [
        "parse_header_value",
        "parse",
        "header",
        "value",
    ]


def test_camel_case_and_acronyms_split() -> None:
    assert code_tokens("HTTPResponseError") == ["httpresponseerror", "http", "response", "error"]
    assert code_tokens("getUserName") == ["getusername", "get", "user", "name"]


def test_digits_split_and_dunder_trimmed() -> None:
    assert code_tokens("utf8_decode __init__") == ["utf8_decode", "utf", "8", "decode", "init"]


def test_stopwords_dropped_and_lowercased() -> None:
    assert code_tokens("How does the Parser work?") == ["parser", "work"]


def test_paths_give_their_components() -> None:
    assert code_tokens("src/app/models.py") == ["src", "app", "models", "py"]


def test_bm25_terms_are_snowball_stems_of_the_tokens() -> None:
    # Stems from the Snowball English algorithm, checked by hand: -ing, plural -s, -ation.
    assert bm25_terms("parsing Handlers configuration") == ["pars", "handler", "configur"]
    assert bm25_terms("parse_headers") == ["parse_head", "pars", "header"]
