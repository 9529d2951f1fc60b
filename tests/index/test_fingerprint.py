"""The index fingerprint (part of the state hash): each thing its docstring says decides the
index changes it, and nothing else does."""

from __future__ import annotations

import pytest

from codeagent.embed.embedders import HashEmbedder
from codeagent.index import build
from codeagent.store.dense import DEFAULT_BACKEND, backend_class


def test_the_same_inputs_give_the_same_fingerprint() -> None:
    assert build.fingerprint(HashEmbedder(16)) == build.fingerprint(HashEmbedder(16))
    # no dense side at all: no backend in it
    assert build.fingerprint(None) == build.fingerprint(None, "another-backend")


def test_the_default_backend_is_the_one_the_setting_defaults_to() -> None:
    emb = HashEmbedder(16)
    default = backend_class(DEFAULT_BACKEND).backend
    assert build.fingerprint(emb) == build.fingerprint(emb, default)


def test_each_part_changes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    emb = HashEmbedder(16)
    other = "another-backend"  # the id an index of another dense backend records
    seen = {
        build.fingerprint(None),
        build.fingerprint(emb),
        build.fingerprint(HashEmbedder(32)),  # another id and dimension
        build.fingerprint(emb, other),
    }
    assert len(seen) == 4
    for name in ("CHUNKER_VERSION", "SYMBOLS_FORMAT"):
        before = (build.fingerprint(None), build.fingerprint(emb))
        with monkeypatch.context() as patch:
            patch.setattr(build, name, "x")
            after = (build.fingerprint(None), build.fingerprint(emb))
        assert before[0] != after[0], name
        assert before[1] != after[1], name


def test_the_embedder_id_counts_at_equal_dimension() -> None:
    """Two embedders of one dimension but different models (ids) make different vectors, so
    an index of one must never be served for the other."""
    emb = HashEmbedder(16)
    renamed = HashEmbedder(16)
    renamed.id = "ollama:nomic-embed-text"  # another model whose vectors also have 16 numbers
    assert renamed.dim == emb.dim
    assert build.fingerprint(renamed) != build.fingerprint(emb)
    other = "another-backend"
    assert build.fingerprint(renamed, other) != build.fingerprint(emb, other)
