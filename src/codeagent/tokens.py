"""Code-aware tokens for BM25 (and the hash embedder).

``parse_HTTPResponse2`` gives ``parse_httpresponse2`` (the whole identifier, so an exact name
matches best) plus its parts ``parse``, ``http``, ``response``, ``2`` (so a question in words
still matches). Tokens are lower-cased; a short list of English and Python stopwords is
dropped. Standard library only at import (PyStemmer loads at the first BM25 term): cheap.

BM25 indexes and queries :func:`bm25_terms`: the same tokens reduced to their English stems
(Snowball, via PyStemmer), so a question's "parsing" meets the code's ``parse``/``parser``
and "handlers" meets ``handler``. Measured against unstemmed terms in ``docs/benchmarks.md``.
A stemmer strips suffixes, so an irregular verb form keeps its own stem: the forms a question
about code uses ("where is the cache *written*", "*overridden* methods", "how is it *built*")
are read as their verb first (:data:`IRREGULAR`), in the index and the question alike.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# Acronym before a capitalised word (HTTPResponse -> HTTP, Response), capitalised or
# lower-case words, upper-case runs, digit runs.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

_STOPWORD_TEXT = """
a an and are as at be by do does for from how i in is it of on or self that the this to was
what when where which who why with we you me my our can should would will
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# Words a question uses to talk about code that name no code in particular: dropped, with
# STOPWORDS, when picking a question's identifiers (the rule router's symbol, the lines an
# answer without an LLM shows). Not for BM25: there they are ordinary words of the code.
_QUESTION_WORD_TEXT = """
about all any called calls class classes code constants could decorators defined did each
every file function functions imports into its method methods module no not outline some
source structure than their them then there these those us used variables yes your
"""
QUESTION_STOPWORDS = STOPWORDS | frozenset(_QUESTION_WORD_TEXT.split())

# Irregular verb forms whose Snowball stem is not their verb's, as "form:verb". Left out: a
# form that is a word of its own in code ("left", "bound", "seen", "meant", "done" whose verb is
# a stopword), participles that read as adjectives ("hidden", "frozen", "known", "given",
# "broken", "lost"), and irregular plurals ("children" is not ``child``, "indices" names a
# collection): with those the development how-questions lost files (docs/eval.md).
_IRREGULAR_TEXT = """
began:begin begun:begin brought:bring built:build caught:catch chose:choose chosen:choose
drawn:draw drew:draw fallen:fall fell:fall forgot:forget forgotten:forget found:find got:get
gotten:get held:hold hung:hang kept:keep made:make overridden:override overrode:override
overwritten:overwrite overwrote:overwrite ran:run rebuilt:rebuild rewritten:rewrite
rewrote:rewrite sent:send shown:show slept:sleep sought:seek taken:take threw:throw
thrown:throw took:take undone:undo written:write wrote:write
"""
IRREGULAR = dict(pair.split(":") for pair in _IRREGULAR_TEXT.split())


def identifier_parts(word: str) -> list[str]:
    """The parts of one identifier, case kept: ``parseHTTPResponse2`` -> ``parse``, ``HTTP``,
    ``Response``, ``2`` (split ``snake_case`` on ``_`` first)."""
    return _PART.findall(word)


def code_tokens(text: str) -> list[str]:
    """Split ``text`` into lower-cased search tokens: whole identifiers and their parts."""
    return _per_word(text, _word_tokens)


def bm25_terms(text: str) -> list[str]:
    """The BM25 terms of ``text``: :func:`code_tokens`, each reduced to its English stem."""
    return _per_word(text, _word_terms)


def _per_word(text: str, tokens_of: Callable[[str], tuple[str, ...]]) -> list[str]:
    """The tokens that ``tokens_of`` gives each identifier or number of ``text``, in order."""
    tokens: list[str] = []
    for word in _IDENTIFIER.findall(text):
        tokens.extend(tokens_of(word))
    return tokens


@functools.lru_cache(maxsize=1 << 16)
def _word_terms(word: str) -> tuple[str, ...]:
    """The stemmed tokens of one identifier, an irregular verb form as its verb (remembered, as
    :func:`_word_tokens` is)."""
    stemmer = _stemmer()
    return tuple(stemmer.stemWord(IRREGULAR.get(token, token)) for token in _word_tokens(word))


@functools.lru_cache(maxsize=1 << 14)
def name_terms(name: str) -> frozenset[str]:
    """The terms of an identifier's parts, without the whole (``has_magic_trailing_comma`` ->
    has, magic, trail, comma; ``write`` -> write), as :func:`bm25_terms` makes them."""
    return frozenset(term for part in identifier_parts(name) for term in _word_terms(part))


@functools.cache
def _stemmer() -> Any:
    import Stemmer  # PyStemmer: a C Snowball stemmer, loaded at the first BM25 term

    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=1 << 16)
def _word_tokens(word: str) -> tuple[str, ...]:
    """The tokens of one identifier (code repeats its identifiers: remembered)."""
    whole = word.strip("_").lower()
    if not whole:
        return ()
    tokens = [] if whole in STOPWORDS else [whole]
    parts = identifier_parts(word)
    if len(parts) > 1:
        tokens.extend(p.lower() for p in parts if p.lower() not in STOPWORDS)
    return tuple(tokens)
