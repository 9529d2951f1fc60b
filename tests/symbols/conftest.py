"""Fixtures of the symbol graph's tests."""

from __future__ import annotations

import os
import shutil

import pytest


def needs(tool: str, what: str) -> None:
    """``tool`` runs the truth of a test: skipped without it here, failed in CI (``make
    install-system`` installs it)."""
    if shutil.which(tool) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{what} is not installed (`make install-system`): CI runs this")
        pytest.skip(f"{what} is not installed (`make install-system`)")


@pytest.fixture
def needs_javac() -> None:
    needs("java", "a JDK (javac's attribution is the truth)")


@pytest.fixture
def needs_go() -> None:
    needs("go", "Go (go/types is the truth)")


@pytest.fixture
def needs_mono() -> None:
    needs("mcs", "Mono's C# compiler (the compiled assembly is the truth)")
    needs("mono", "Mono (it runs eval/CsCalls.cs on the compiled assembly)")
