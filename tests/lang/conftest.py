"""Fixtures of the language layer's tests."""

from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture
def needs_ctags() -> None:
    """universal-ctags is the truth of these tests: skipped without it here, failed in CI
    (``make install-system`` installs it)."""
    if shutil.which("ctags") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("universal-ctags is not installed (`make install-system`): CI runs this")
        pytest.skip("universal-ctags is not installed (`make install-system`)")
